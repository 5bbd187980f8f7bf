"""Saving games: compare-and-set writes that carry everything needed to finish the job after a crash.

Every save of a game (a move, a cube action, a reminder, a timeout, a computer reply) is one compare-and-set that
also sets the game's *wake-up deadline* to a few seconds ahead (``board_retry_after``), while the real turn
deadline is kept in the record (``turn_deadline``). Whatever follows the save — editing the boards, counting a
finished game's stats — is then driven from the saved record alone: when it is done, :meth:`GameSaver.release`
moves the wake-up deadline to the turn deadline (or clears it for a finished game); when the process dies first,
the deadline stays due and the sweeper does it (after a restart too). The store keeps its deadline index no later
than the saved deadline, so a crash can only wake a game early, never lose it. A save or release that leaves a
game's clock running asks for a wake-up at the clock's deadline (``watch_clock``: :mod:`bot.services.clock_watch`),
so the flag falls on time rather than at the next sweep.

Finishing is exactly-once: the finishing save writes the stats to add (``stats_plan``) into the record, and
:meth:`GameSaver.apply_effects` adds them with the store's idempotent ``add_game_stats`` (a game is counted once
per chat however often it is retried).

A lost store reply (the write may or may not have happened) is resolved by reading the game back: every save
carries a fresh ``op`` token, so the reader knows whether its own write is the one stored.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Final, Protocol

from bot.log_context import bind_game
from bot.model.game import GameRecord, StatsEntry
from bot.services.clocks import cancelled, earliest, lose_on_time, ran_out, tick
from bot.services.computer import computer_to_act
from bot.services.engine_flow import load_match, match_finished
from bot.services.players import COMPUTER_STATS_CHAT, INLINE_STATS_CHAT
from bot.services.ratings import rating_plan
from bot.storage import GameRecords, StatsRecords, StoredGame
from bot.storage.errors import StoreUnavailableError
from nardy import Match

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig

log = logging.getLogger(__name__)


class SaverStore(GameRecords, StatsRecords, Protocol):
    """The storage roles the saver uses: the games, and the stats a finished session adds."""


RECOVERY_DELAYS: Final = (0.05, 0.2, 0.5, 1.0, 2.0)
"""Pauses between the reads that find out whether a save whose reply was lost was applied."""


def new_op() -> str:
    """Return a fresh token identifying one save."""
    return secrets.token_urlsafe(9)


def stats_plan(record: GameRecord, match: Match, *, winner: int | None = None) -> list[StatsEntry]:
    """Return the counters a finished session adds, one entry per chat (stored as ``[{"chat": chat_id, "deltas":
    {user_id: [w, l, d]}}]``); empty when the game is not over or only the computer would count.

    A match counts once, for its winner (``winner``, when given, e.g. of a match lost on time; else the score's).
    Games against the computer are counted apart (in :data:`COMPUTER_STATS_CHAT`), for the person only."""
    result = match.game.result
    if result is None:
        return []
    if winner is None and not match.is_money:
        a, b = match.score_after_game()
        winner = 0 if a > b else 1 if b > a else None
    elif winner is None:
        winner = result.winner
    deltas: dict[int, tuple[int, int, int]] = {}
    for index, player in enumerate(record.players):
        if player.ai:
            continue
        if winner is None:
            deltas[player.id] = (0, 0, 1)
        elif index == winner:
            deltas[player.id] = (1, 0, 0)
        else:
            deltas[player.id] = (0, 1, 0)
    chats = (
        [COMPUTER_STATS_CHAT]
        if record.against_computer
        else [INLINE_STATS_CHAT if c.is_inline else c.chat_id for c in record.chats]
    )
    return [StatsEntry(chat_id, deltas) for chat_id in dict.fromkeys(chats)] if deltas else []


class GameSaver:
    """Writes games with compare-and-set and finishes what each write implies (see the module docstring)."""

    def __init__(
        self,
        store: SaverStore,
        config: GameConfig,
        *,
        request_boards: Callable[[str], None],
        after_finish: Callable[[str, GameRecord], Awaitable[None]],
        publish: Callable[[str, int], Awaitable[None]] | None = None,
        watch_clock: Callable[[str, GameRecord], None] | None = None,
    ) -> None:
        """Write to ``store`` with the clock and timings of ``config``; after a save, ``request_boards(game_id)``
        brings the boards up to date (:meth:`bot.services.boards.BoardPresenter.request`), and at the end of a
        session ``after_finish(game_id, record)`` does what follows it besides the stats (ratings, tournaments).
        ``publish(game_id, version)``, when given, announces every saved version to the Mini App's open
        connections (:mod:`bot.services.live`); it never fails a save. ``watch_clock(game_id, record)``, when given
        (or set later), asks for a wake-up at the deadline of a saved record's running clock
        (:meth:`bot.services.clock_watch.ClockWatch.watch_record`) after every save and release of an active game."""
        self.store = store
        self.config = config
        self.request_boards = request_boards
        self.after_finish = after_finish
        self.publish = publish
        self.watch_clock = watch_clock

    async def save(self, game_id: str, version: int, record: GameRecord, match: Match) -> int | None:
        """Save the record with the match at ``version`` (finishing the game when the session is over), then
        request the boards' update (and count a finished game's stats).

        Returns: the new version, or None when the game changed meanwhile (nothing was written).
        Raises: StoreUnavailableError when the store is down and the outcome cannot be found out.
        """
        bind_game(game_id)
        config = self.config
        now = config.clock()
        if ran_out(record, now):  # the action came after the flag fell: the match is lost on time
            return await self.lose_on_time(game_id, version, record)
        before = record.match
        record.match = match.to_dict()
        tick(record, before, match, now)
        wake = earliest(now + config.board_retry_after, record)  # never later than the clock's deadline
        finished = match_finished(match)
        if finished:
            record.stats_plan = stats_plan(record, match)
            record.plan_rating(rating_plan(record))
            record.turn_deadline = None
        else:
            record.reminded = False
            record.last_action = now
            computer = computer_to_act(record, match) is not None
            wait = config.computer_retry_after if computer else config.turn_reminder_after
            record.turn_deadline = earliest(now + wait, record)
        new_version = await self.write(game_id, version, record, finished=finished, wake=wake)
        if new_version is None:
            return None
        if finished:
            try:
                await self.apply_effects(game_id, record)
            except StoreUnavailableError:
                log.warning("the stats of game %s will be counted by the sweeper", game_id)
        else:
            self._watch_clock(game_id, record)
        self.request_boards(game_id)
        return new_version

    def _watch_clock(self, game_id: str, record: GameRecord) -> None:
        if self.watch_clock is not None and record.clock is not None:
            self.watch_clock(game_id, record)

    async def lose_on_time(self, game_id: str, version: int, record: GameRecord) -> int | None:
        """End the match of ``record`` (saved at ``version``) as lost on time by the player whose clock ran out
        (docs/rules.md §1 "Time control"), with one compare-and-set: a second sweep or a late press finds the
        version changed or the game finished and changes nothing. A tournament game counts no stats (like a
        forfeit; the tournament records the result by time); a casual one counts the match for the opponent, unless
        the first-move window was missed (the session is cancelled and counts for nobody).

        Returns: the new version, or None when the game changed meanwhile. Raises: StoreUnavailableError;
        GameStateError when the saved match cannot be replayed."""
        match = load_match(record, game_id, self.config.dice)
        loser = lose_on_time(record, match)
        counted = record.tournament is None and not cancelled(record)  # a tournament records it as a forfeit
        record.stats_plan = stats_plan(record, match, winner=1 - loser) if counted else []
        wake = self.config.clock() + self.config.board_retry_after
        new_version = await self.write(game_id, version, record, finished=True, wake=wake)
        if new_version is None:
            return None
        try:
            await self.apply_effects(game_id, record)
        except StoreUnavailableError:
            log.warning("the end of game %s on time will be completed by the sweeper", game_id)
        self.request_boards(game_id)
        return new_version

    async def write(self, game_id: str, version: int, record: GameRecord, *, finished: bool, wake: float) -> int | None:
        """One compare-and-set of the record with the wake-up deadline ``wake`` (finishing the game when
        ``finished``); a lost reply is resolved by reading the game back.

        Returns: the new version, or None on a version conflict. Raises: StoreUnavailableError.
        """
        store = self.store
        op = new_op()
        record.op = op
        data = record.to_dict()
        try:
            if finished:
                saved = await store.finish_game(
                    game_id, version, data, ttl=self.config.finished_game_ttl, deadline=wake
                )
            else:
                saved = await store.update_game(game_id, version, data, deadline=wake)
        except StoreUnavailableError:
            log.warning("the store did not answer a save of game %s: reading it back", game_id)
            saved = await self._recover(game_id, version, op)
        if saved is not None:
            await self.announce(game_id, saved)
        return saved

    async def announce(self, game_id: str, version: int) -> None:
        """Publish a saved version to the live connections (every write of this saver does; a save made elsewhere
        calls it too). Returns nothing; a failure is logged (the app catches up on its next reconnect), never
        raised."""
        if self.publish is None:
            return
        try:
            await self.publish(game_id, version)
        except Exception:
            log.warning("publishing version %s of game %s failed", version, game_id, exc_info=True)

    async def _recover(self, game_id: str, version: int, op: str) -> int | None:
        last_error: StoreUnavailableError | None = None
        for delay in RECOVERY_DELAYS:
            await asyncio.sleep(delay)
            try:
                stored = await self.store.get_game(game_id)
            except StoreUnavailableError as error:
                last_error = error
                continue
            if stored is None:
                return None
            if stored.data.get("op") == op:  # the raw dict: a record that does not load is not ours
                return stored.version  # our write was applied; only its reply was lost
            if stored.version == version:
                raise StoreUnavailableError("the save was not applied")
            return None  # someone else's write came first
        raise last_error or StoreUnavailableError("the store did not answer")

    async def apply_effects(self, game_id: str, record: GameRecord) -> None:
        """Add a finished game's stats (idempotent: each chat counts a game once), then what else follows the end
        of a session (``after_finish``: ratings, the tournament's result; idempotent too). Returns
        nothing.

        Raises: StoreUnavailableError."""
        for entry in record.stats_plan or []:
            await self.store.add_game_stats(entry.chat, game_id, dict(entry.deltas))
        await self.after_finish(game_id, record)

    async def release(self, stored: StoredGame, record: GameRecord) -> None:
        """After the boards of ``stored`` (whose record is ``record``) are current: finish a finished game's effects
        and clear its wake-up deadline, or move an active game's deadline to its turn deadline (only if the game is
        still at that version) and watch its running clock's deadline. Returns nothing. Raises:
        StoreUnavailableError."""
        store = self.store
        if stored.finished:
            await self.apply_effects(stored.game_id, record)
            if stored.deadline is not None:
                await store.set_deadline(stored.game_id, stored.version, None)
            return
        self._watch_clock(stored.game_id, record)  # a new game's clock, or one a restart left unwatched
        if record.turn_deadline is None:
            return
        turn_deadline = earliest(record.turn_deadline, record)  # a clock that started since the save (its mark)
        if stored.deadline is None or stored.deadline < turn_deadline:
            await store.set_deadline(stored.game_id, stored.version, turn_deadline)
            if record.clock is not None and record.clock.waiting:
                await self._lower_to_started_clock(stored, turn_deadline)

    async def _lower_to_started_clock(self, stored: StoredGame, deadline: float) -> None:
        """After raising the wake-up of ``stored`` to ``deadline``: when its waiting clock started meanwhile (a board
        reached its player: :mod:`bot.services.clock_start`, whose mark lowered the wake-up to the clock's deadline
        before this raise), lower it again, so that the sweeper never wakes the game after its flag falls. A mark
        made after the raise lowers it itself."""
        again = await self.store.get_game(stored.game_id)
        if again is None or again.version != stored.version or again.seen == stored.seen:
            return
        lower = earliest(deadline, GameRecord.from_stored(again))
        if lower < deadline:
            await self.store.set_deadline(stored.game_id, stored.version, lower)
