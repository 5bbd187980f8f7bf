"""The lobby's seeks: :meth:`Lobby.seek`, :meth:`Lobby.cancel`, :meth:`Lobby.status`, and the pairing pass that
pairs them (:meth:`Lobby.pass_once`).

A seek is an entry of the pool ``lobby`` (:mod:`.entries`) put by whichever worker took the ``/play``; every pass —
on each seek, every ~2 s while anyone waits (:mod:`.ticker`), and on every sweep of any worker — reads the pool,
tells the players whose seek ended and takes them out, and pairs the others through the matchmaker
(:class:`bot.services.matchmaking.Matchmaker` with :func:`tournaments.matching.lobby_pairs`: the longest waiter
first, the closest rating within a window that widens with the wait). A pair is claimed once across all workers;
its game is made under the pairing's id (:mod:`.games`), so a worker that dies mid-pairing loses nobody: the
matchmaker's recovery makes the game or puts both back.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Protocol

from aiogram.methods import SendMessage

from bot.keyboards.lobby import seeking_keyboard
from bot.keyboards.webapp import WebAppLinks, play_button
from bot.model.clock import TimeControl
from bot.model.game import GameRecord, PlayerInfo, RecordError
from bot.services.lobby.entries import Seek, new_seek
from bot.services.lobby.games import LobbyGames, tell
from bot.services.lobby.profiles import LobbyProfiles
from bot.services.lobby.rules import (
    DEFAULT_CLOCK,
    LOBBY_POOL,
    LOBBY_TICKER_LEAD,
    cooldown_until,
    default_variant,
    lobby_variants,
)
from bot.services.lobby.status import CancelOutcome, LobbyStatus, SeekOutcome, SeekStatus
from bot.services.matchmaking import Matchmaker
from bot.services.messaging import SEND_FAILURES, Replies
from bot.storage import GameRecords, RatingRecords
from bot.storage.errors import StoreUnavailableError
from bot.storage.pools import PairingPools, PoolEntry, StoredPairing, Withdrawal, read_pool
from bot.texts import Html, tr
from tournaments.matching import RatingWindow, lobby_pairs

log = logging.getLogger(__name__)


class LobbyStore(GameRecords, RatingRecords, PairingPools, Protocol):
    """The storage roles of the seeks: the pool, the ratings (a seek's score) and the games (who plays)."""


def left_text(lang: str, seconds: float) -> Html:
    """Return a time left as ``lang`` writes it: ``4 min``, ``2 h 5 min`` (whole minutes, rounded up)."""
    minutes = max(1, int(-(-seconds // 60)))
    if minutes < 60:
        return tr(lang, "lobby.left.minutes", minutes=minutes)
    return tr(lang, "lobby.left.hours", hours=minutes // 60, minutes=minutes % 60)


def clock_time(at: float, now: float) -> str:
    """Return the unix time ``at`` in UTC as ``HH:MM``, or ``DD.MM HH:MM`` when it is another day than ``now``."""
    moment = datetime.fromtimestamp(at, UTC)
    same_day = moment.date() == datetime.fromtimestamp(now, UTC).date()
    return moment.strftime("%H:%M" if same_day else "%d.%m %H:%M")


class Lobby:
    """The lobby's seeks and their pairing (see the module docstring)."""

    def __init__(
        self,
        store: LobbyStore,
        games: LobbyGames,
        profiles: LobbyProfiles,
        replies: Replies,
        clock: Callable[[], float],
        *,
        seek_ttl: float = 600.0,
        max_games: int = 20,
        window: RatingWindow | None = None,
        lease: float = 30.0,
        lead_ttl: float = 6.0,
        links: WebAppLinks | None = None,
    ) -> None:
        """Keep the seeks in ``store``'s pool ``lobby`` (ratings and games read there too), make the pairs' games
        with ``games``, read blocks and cool-downs with ``profiles``, talk through ``replies``, on ``clock``. A seek
        lasts ``seek_ttl`` seconds; a user with ``max_games`` running games is refused; ``window`` widens the rating
        difference accepted with the wait; an open pairing is recovered after ``lease`` seconds; the ticker's passes are
        led by one worker at a time, whose lead runs out ``lead_ttl`` seconds after its last pass; ``links``: the Mini
        App's (its "Play" button goes under the "seeking…" message; None: not configured)."""
        self.links = links
        self.store = store
        self.games = games
        self.profiles = profiles
        self.replies = replies
        self.clock = clock
        self.seek_ttl = seek_ttl
        self.max_games = max_games
        self.window = window or RatingWindow()
        self.matchmaker = Matchmaker(store, clock, lease=lease)
        self.on_seek: Callable[[], None] | None = None
        """Called after every accepted seek (the ticker's :meth:`~.ticker.LobbyTicker.ensure`), set by the
        composition root."""
        self._busy: set[int] = set()
        self.owner = secrets.token_hex(8)
        """This process's name for the lead of the ticker's passes (:meth:`tick`)."""
        self.lead_ttl = lead_ttl

    # ------------------------------------------------------------------ seeking

    async def seek(
        self, player: PlayerInfo, variant: str | None = None, clock: TimeControl | None = None, *, more: bool = False
    ) -> SeekOutcome:
        """Seek an opponent for ``player`` in ``variant`` (None: short nardy) on ``clock`` (None: the lobby's
        12+2): refused when the variant is not the lobby's, during a cool-down, while seeking already (or while the
        seek's pairing is being made), or while playing a game (unless ``more``). Otherwise the "seeking…" message
        (with Cancel) goes to the player's private chat, the seek joins the pool and a pairing pass runs at once.

        Returns: the outcome (its ``text`` is the refusal to show). Raises: StoreUnavailableError."""
        lang = player.lang
        if variant is not None and variant not in lobby_variants():
            return SeekOutcome(SeekStatus.BAD, tr(lang, "lobby.bad", word=variant))
        chosen = default_variant(variant)
        control = clock or DEFAULT_CLOCK
        now = self.clock()
        until = cooldown_until(await self.profiles.abandons(player.id), now)
        if until is not None:
            text = tr(lang, "lobby.cooldown", until=clock_time(until, now), left=left_text(lang, until - now))
            return SeekOutcome(SeekStatus.COOLDOWN, text, until=until)
        if await self._seeking(player.id, now) is not None:
            return SeekOutcome(SeekStatus.ALREADY, tr(lang, "lobby.already"))
        if await self.pairing_of(player.id) is not None:  # a new seek would unbind it
            return SeekOutcome(SeekStatus.FOUND, tr(lang, "lobby.just_found"))
        running = await self.store.user_games(player.id)
        if running and not more:
            return SeekOutcome(SeekStatus.PLAYING, tr(lang, "lobby.playing"))
        if len(running) >= self.max_games:
            return SeekOutcome(SeekStatus.PLAYING, tr(lang, "lobby.too_many", limit=self.max_games))
        rating = await self._rating(player.id, chosen)
        blocked = await self.profiles.blocked(player.id)
        seek = new_seek(player, chosen, control, rating=rating, now=now, ttl=self.seek_ttl, blocked=blocked, more=more)
        message = await self._send_seeking(seek)
        await self.store.pool_put(LOBBY_POOL, replace(seek, message=message).entry())
        log.info("lobby: %s seeks %s (rating %.0f)", player.id, seek.key, rating)
        if self.on_seek is not None:
            self.on_seek()
        for pairing in await self.pass_once():
            if str(player.id) in (e.member for e in pairing.entries):
                return SeekOutcome(SeekStatus.PAIRED, game=pairing.pairing_id)
        return SeekOutcome(SeekStatus.SEEKING)

    async def _rating(self, user_id: int, variant: str) -> float:
        ratings = await self.store.get_ratings(variant, (user_id,))
        found = ratings.get(user_id)
        return float(found.rating) if found is not None else 1500.0

    async def _send_seeking(self, seek: Seek) -> int | None:
        lang = seek.lang
        text = tr(
            lang,
            "lobby.seeking",
            variant=tr(lang, f"variant.{seek.variant}"),
            clock=seek.clock,
            rating=round(seek.rating),
            minutes=round(self.seek_ttl / 60),
        )
        try:
            sent = await self.replies.send(
                SendMessage(
                    chat_id=seek.user_id,
                    text=text,
                    reply_markup=seeking_keyboard(lang, play_button(self.links, lang, private=True)),
                )
            )
        except SEND_FAILURES as error:
            log.info("the lobby's message to %s failed: %s", seek.user_id, error)
            return None
        message_id = getattr(sent, "message_id", None)
        return message_id if isinstance(message_id, int) else None

    async def _seeking(self, user_id: int, now: float) -> Seek | None:
        entry = await self.store.pool_entry(LOBBY_POOL, str(user_id), now)
        seek = None if entry is None else Seek.of(entry)
        return None if seek is None or seek.expired(now) else seek

    async def blocks_changed(self, user_id: int, blocked: tuple[int, ...]) -> None:
        """The user's blocks are now ``blocked``: a seek of theirs already waiting is put again with them (its place
        in the line kept), so that it never meets a player they blocked after making it. Returns nothing. Raises:
        StoreUnavailableError."""
        seek = await self._seeking(user_id, self.clock())
        if seek is not None and not set(blocked) <= set(seek.blocked):
            await self.store.pool_put(LOBBY_POOL, replace(seek, blocked=blocked).entry())

    async def cancel(self, user_id: int, key: str = "lobby.cancelled", **values: object) -> CancelOutcome:
        """Cancel the user's seek; its "seeking…" message says so (the text ``key`` with ``values``). A seek already
        claimed into a pairing is not cancelled: the pair stands and its game comes (or, if it cannot be made, the
        seek goes on). Returns: what became of it. Raises: StoreUnavailableError."""
        entry = await self.store.pool_entry(LOBBY_POOL, str(user_id), self.clock())
        withdrawn = await self.store.pool_withdraw(LOBBY_POOL, str(user_id))
        if withdrawn is Withdrawal.PAIRED:
            return CancelOutcome.FOUND
        if withdrawn is Withdrawal.ABSENT:
            return CancelOutcome.NONE
        seek = None if entry is None else Seek.of(entry)
        if seek is not None:
            await tell(self.replies, user_id, seek.message, tr(seek.lang, key, **values))
        log.info("lobby: %s cancelled the seek", user_id)
        return CancelOutcome.CANCELLED

    async def pairing_of(self, user_id: int) -> str | None:
        """Return the id of the pairing the user's seek was just claimed into (its game being made), or None.
        Raises: StoreUnavailableError."""
        return await self.store.pool_binding(LOBBY_POOL, str(user_id))

    async def status(self, user_id: int) -> LobbyStatus:
        """Return where the user stands: seeking (since when, what), playing a lobby game (the newest), or idle;
        with the end of a cool-down when one runs. Raises: StoreUnavailableError."""
        now = self.clock()
        until = cooldown_until(await self.profiles.abandons(user_id), now)
        seek = await self._seeking(user_id, now)
        if seek is not None:
            return LobbyStatus("seeking", seek.since, seek.variant, seek.clock, cooldown_until=until)
        for game_id in reversed(await self.store.user_games(user_id)):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.finished:
                continue
            try:
                record = GameRecord.from_stored(stored)
            except RecordError:
                continue
            if record.lobby is not None:
                return LobbyStatus("playing", None, record.variant, record.lobby.clock, game_id, until)
        return LobbyStatus(cooldown_until=until)

    # ------------------------------------------------------------------ the pairing pass

    async def pass_once(self) -> list[StoredPairing]:
        """One pairing pass: tell the players whose seek ended and take them out, pair the others (each pair's game
        made and both told), take out the players found in another game meanwhile, and roll forward the pairings a
        dead worker left open. Returns: the pairings made. Raises: StoreUnavailableError."""
        now = self.clock()
        for entry in await read_pool(self.store, LOBBY_POOL, now):
            seek = Seek.of(entry)
            if seek is None or seek.expired(now):
                await self._expire(entry, seek)
        made = await self.matchmaker.pair(LOBBY_POOL, self._choose, self._start)
        await self.matchmaker.recover(LOBBY_POOL, self._start)
        await self._drop_busy()
        return made

    async def waiting(self) -> bool:
        """Return whether anyone waits in the lobby now. Raises: StoreUnavailableError."""
        return bool(await self.store.pool_entries(LOBBY_POOL, self.clock(), limit=1))

    async def tick(self) -> bool:
        """A pass of the ticker (:meth:`pass_once`), made only while this worker leads the lobby's passes (one
        worker at a time, :meth:`~bot.storage.pools.PairingPools.try_lead_pool`; another takes the lead when the
        leader stops passing): the other workers' tickers only watch whether anyone waits. Seeks and sweeps pass
        without the lead. Returns: whether anyone still waits. Raises: StoreUnavailableError."""
        if await self.store.try_lead_pool(LOBBY_TICKER_LEAD, self.owner, self.lead_ttl, self.clock()):
            await self.pass_once()
        waiting = await self.waiting()
        if not waiting:  # the ticker stops: the next seek's ticker, on any worker, leads at once
            await self.give_up_lead()
        return waiting

    async def give_up_lead(self) -> None:
        """Give up the lead of the passes (at shutdown: another worker's ticker leads at once). Returns nothing;
        an unavailable store is ignored (the lead runs out by itself)."""
        with contextlib.suppress(StoreUnavailableError):
            await self.store.release_pool_lead(LOBBY_TICKER_LEAD, self.owner)

    def _choose(self, entries: list[PoolEntry], now: float) -> list[tuple[str, str]]:
        seekers = []
        for entry in entries:
            seek = Seek.of(entry)
            if seek is not None and not seek.expired(now):
                seekers.append(seek.seeker())
        return lobby_pairs(seekers, now, self.window)

    async def _start(self, pairing: StoredPairing) -> bool:
        if not await self.games.exists(pairing.pairing_id):
            busy = await self.games.busy(pairing)
            if busy:
                self._busy |= busy
                return False
        return await self.games.start(pairing)

    async def _drop_busy(self) -> None:
        """Take out of the pool the players a pairing found in another game (they were put back with their
        partner), and tell them."""
        busy, self._busy = self._busy, set()
        now = self.clock()
        for user_id in busy:
            entry = await self.store.pool_entry(LOBBY_POOL, str(user_id), now)
            if entry is None:
                continue
            # a player claimed again meanwhile (by another worker's pass) stays in that pairing
            if await self.store.pool_withdraw(LOBBY_POOL, str(user_id)) is Withdrawal.REMOVED:
                seek = Seek.of(entry)
                if seek is not None:
                    await tell(self.replies, user_id, seek.message, tr(seek.lang, "lobby.busy"))

    async def _expire(self, entry: PoolEntry, seek: Seek | None) -> None:
        """Take an ended (or malformed) seek out of the pool; the worker that took it out tells the player."""
        if await self.store.pool_withdraw(LOBBY_POOL, entry.member) is not Withdrawal.REMOVED:
            return  # another worker took it out (and tells), or paired it (on a clock a little behind)
        if seek is None:
            return
        log.info("lobby: the seek of %s expired", seek.user_id)
        text = tr(seek.lang, "lobby.expired", minutes=round(self.seek_ttl / 60))
        await tell(self.replies, seek.user_id, seek.message, text)
