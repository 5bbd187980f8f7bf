"""After a lobby game (docs/rules.md "Lobby"): the buttons under its final board — Rematch (a series, when both
press it), New opponent, Block, Report — and what its end means for the player who abandoned it (a cool-down).

Rematch is agreed in the finished game's record: the first press is saved there (``lobby.votes``, compare-and-set)
and the opponent is asked; the second press saves the new game's id in the record first (``rematch``), then makes
that game — so a double press, two workers or a crash in between make one rematch, never two. Either press is
refused while either player plays another game (or their seek was just paired), and the rematch cancels both
players' seeks: it never puts a player into a second game they did not ask for."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from aiogram.methods import SendMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.keyboards.callbacks import LobbyCb
from bot.model.clock import TimeControl
from bot.model.game import ChatLink, GameRecord, PlayerInfo, RecordError
from bot.model.lobby import LobbyLink
from bot.services.actions import GameActions
from bot.services.engine_flow import options_for
from bot.services.lobby.profiles import LobbyProfiles
from bot.services.lobby.reports import Reports
from bot.services.lobby.rules import DEFAULT_CLOCK, GAME_LENGTH, abandoned_by, series_score
from bot.services.lobby.seeking import Lobby
from bot.services.lobby.status import SeekOutcome, SeekStatus
from bot.services.messaging import SEND_FAILURES, Replies
from bot.storage import GameRecords, StoredGame
from bot.storage.ids import new_id
from bot.texts import tr

log = logging.getLogger(__name__)


class AfterGameStore(GameRecords, Protocol):
    """The storage role the buttons after a game use: the finished game's record."""


def _control(link: LobbyLink, record: GameRecord) -> TimeControl:
    if record.clock is not None:
        return record.clock.control
    try:
        return TimeControl.parse(link.clock)
    except ValueError:
        return DEFAULT_CLOCK


class AfterGame:
    """The buttons under a finished lobby game, and the end of a lobby game for its abandoner."""

    def __init__(
        self,
        store: AfterGameStore,
        lobby: Lobby,
        profiles: LobbyProfiles,
        reports: Reports,
        actions: GameActions,
        replies: Replies,
        clock: Callable[[], float],
    ) -> None:
        """Read and mark finished games in ``store``; seek again through ``lobby``; keep blocks and abandonments
        with ``profiles`` and reports with ``reports``; make rematches with ``actions``; talk through ``replies``,
        on ``clock``."""
        self.store = store
        self.lobby = lobby
        self.profiles = profiles
        self.reports = reports
        self.actions = actions
        self.replies = replies
        self.clock = clock

    async def _finished(self, game_id: str, user_id: int) -> tuple[StoredGame, GameRecord, int] | None:
        stored = await self.store.get_game(game_id)
        if stored is None or not stored.finished:
            return None
        try:
            record = GameRecord.from_stored(stored)
        except RecordError:
            return None
        index = record.player_index(user_id)
        if index is None or record.lobby is None:
            return None
        return stored, record, index

    # ------------------------------------------------------------------ rematch

    async def rematch(self, game_id: str, user_id: int, lang: str) -> str:
        """Press Rematch after the lobby game ``game_id``: the first of the two asks the opponent, the second starts
        the next game of the series (colours swapped, the series score carried). Refused when either blocked the
        other. Returns: the toast. Raises: StoreUnavailableError."""
        found = await self._finished(game_id, user_id)
        if found is None:
            return tr(lang, "toast.gone")
        stored, record, index = found
        link = record.lobby
        assert link is not None
        me, other = record.players[index], record.players[1 - index]
        if other.id in await self.profiles.blocked(me.id) or me.id in await self.profiles.blocked(other.id):
            return tr(lang, "lobby.rematch_refused")
        if record.rematch is not None:  # agreed already: make the game (again: idempotent)
            if await self.store.get_game(record.rematch) is None:  # not made yet (a crash in between)
                refusal = await self._busy(record, user_id, lang, besides={game_id, record.rematch})
                if refusal is not None:
                    return refusal
                await self._start_rematch(record, record.rematch)
                await self._end_seeks(record)
            return tr(lang, "lobby.rematch_started")
        refusal = await self._busy(record, user_id, lang, besides={game_id})
        if refusal is not None:
            return refusal
        votes = tuple(sorted({*link.votes, index}))
        if votes != (0, 1):
            if index in link.votes:
                return tr(lang, "lobby.rematch_waiting")
            record.lobby = replace(link, votes=votes)
            if await self.store.update_game(game_id, stored.version, record.to_dict()) is None:
                return tr(lang, "toast.stale")
            await self._ask(record, game_id, me, other)
            return tr(lang, "lobby.rematch_waiting")
        rematch_id = new_id()
        record.lobby = replace(link, votes=votes)
        record.rematch = rematch_id
        if await self.store.update_game(game_id, stored.version, record.to_dict()) is None:
            return tr(lang, "toast.stale")
        await self._start_rematch(record, rematch_id)
        await self._end_seeks(record)
        return tr(lang, "lobby.rematch_started")

    async def _busy(self, record: GameRecord, user_id: int, lang: str, *, besides: set[str]) -> str | None:
        """Return the refusal of a rematch when either player plays a game other than ``besides`` or was just
        paired in the lobby (the pressing player ``user_id`` is told "you"), else None."""
        for player in record.players:
            games = [g for g in await self.store.user_games(player.id) if g not in besides]
            if games or await self.lobby.pairing_of(player.id) is not None:
                if player.id == user_id:
                    return tr(lang, "lobby.rematch_you_busy")
                return tr(lang, "lobby.rematch_busy", name=player.name)
        return None

    async def _end_seeks(self, record: GameRecord) -> None:
        """Cancel both players' lobby seeks (the rematch started: no second game beside it), telling each. A seek
        claimed meanwhile is left to its pairing, which finds the player busy (unless they sought with ``more``)
        and puts the partner back."""
        for index, player in enumerate(record.players):
            opponent = record.players[1 - index]
            await self.lobby.cancel(player.id, "lobby.cancelled_rematch", name=opponent.name)

    async def _ask(self, record: GameRecord, game_id: str, me: PlayerInfo, other: PlayerInfo) -> None:
        a, b = series_score(record, finished=True)
        mine, theirs = (a, b) if record.players[0].id == other.id else (b, a)
        series = tr(other.lang, "lobby.series", a=mine, b=theirs)
        button = InlineKeyboardButton(
            text=tr(other.lang, "btn.lobby_rematch"), callback_data=LobbyCb(action="rematch", ref=game_id).pack()
        )
        try:
            await self.replies.send(
                SendMessage(
                    chat_id=other.id,
                    text=tr(other.lang, "lobby.rematch_offer", name=me.name, series=series),
                    reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]]),
                )
            )
        except SEND_FAILURES as error:
            log.info("the rematch offer to %s failed: %s", other.id, error)

    async def _start_rematch(self, record: GameRecord, rematch_id: str) -> None:
        link = record.lobby
        assert link is not None
        a, b = series_score(record, finished=True)
        players = list(reversed(record.players))
        variant = record.match_kind
        await self.actions.start_game(
            variant,
            GAME_LENGTH,
            players,
            [ChatLink(players[0].id, 0), ChatLink(players[1].id, 1)],
            kind="private",
            options=options_for(variant),
            game_id=rematch_id,
            limits=False,
            clock=_control(link, record),
            lobby=LobbyLink(series=link.series, score=(b, a), clock=link.clock),
        )

    # ------------------------------------------------------------------ new opponent, block, report

    async def new_opponent(self, game_id: str, player: PlayerInfo) -> SeekOutcome:
        """Seek again with the settings of the lobby game ``game_id`` (its variant and clock). Returns: the seek's
        outcome. Raises: StoreUnavailableError."""
        found = await self._finished(game_id, player.id)
        if found is None:
            return SeekOutcome(SeekStatus.BAD, tr(player.lang, "toast.gone"))
        _, record, _ = found
        assert record.lobby is not None
        return await self.lobby.seek(player, record.match_kind, _control(record.lobby, record))

    async def block(self, game_id: str, user_id: int, lang: str) -> str:
        """Block the opponent of the lobby game ``game_id``: never paired with them again (nor a rematch). Returns:
        the toast. Raises: StoreUnavailableError."""
        found = await self._finished(game_id, user_id)
        if found is None:
            return tr(lang, "toast.gone")
        _, record, index = found
        other = record.players[1 - index].id
        if not await self.profiles.block(user_id, other):
            return tr(lang, "lobby.blocked_already")
        await self.lobby.blocks_changed(user_id, await self.profiles.blocked(user_id))
        log.info("lobby: %s blocked %s after game %s", user_id, other, game_id)
        return tr(lang, "lobby.blocked")

    async def report(self, game_id: str, user_id: int, lang: str) -> str | None:
        """Report the opponent of the lobby game ``game_id`` (counted once per game and reporter, for the operator).
        Returns: the toast, or None when the game is no lobby game of the user's. Raises: StoreUnavailableError."""
        found = await self._finished(game_id, user_id)
        if found is None:
            return None
        _, record, index = found
        if not await self.reports.report(user_id, record.players[1 - index].id, game_id):
            return tr(lang, "lobby.reported_already")
        return tr(lang, "lobby.reported")

    # ------------------------------------------------------------------ the end of a lobby game

    async def game_finished(self, game_id: str, record: GameRecord) -> None:
        """Count the abandonment of a finished lobby game (a player's clock ran out without a move of theirs: the
        first-move window missed, or the flag fell) for the abandoner's cool-down; once per game. Returns nothing.
        Raises: StoreUnavailableError."""
        loser = abandoned_by(record)
        if loser is None:
            return
        user_id = record.players[loser].id
        after = await self.profiles.record_abandon(user_id, game_id, self.clock())
        if after is not None:
            log.info("lobby: %s abandoned game %s (%s in a row)", user_id, game_id, after.count)
