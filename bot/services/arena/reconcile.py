"""The arenas' state machine: from the saved record alone, do the first thing that is owed — end the arena at its time,
send the notices of its outbox, create the running games not created yet, run a pairing wave, update the card, post
the standings, post the result — note it in the record, and repeat; then set the next wake-up (the end, the moment a
lone player's patience runs out, the next card or standings update, a look at players busy in another game). The
wake-up is the record's deadline in the store (the sweep's safety net, found after a restart or by any worker) and
also a timer of this process (:class:`~bot.services.tasks.Alarms`, one per arena, replaced by the next reconcile)
that requests a reconcile at that time: the sweep runs only every ``TIMEOUT_SWEEP_INTERVAL`` (60 s), and the 20 s
patience, the end and the result must not wait for it. Also: a finished game's result
(:meth:`ArenaReconciler.match_finished`), the requests to reconcile (on the job queue, whose ``tournament_reconcile``
job reaches the arenas through :mod:`bot.services.arena.router`, or in a keyed task of this process).

Every change is one compare-and-set of the record with a wake-up deadline a few seconds ahead, and every effect is
derived from the saved record, so a crash anywhere converges on the next wake-up: a game's result is recorded once (a
result for a game that is not running is ignored), games are created under their pairing's id, and pairing is exactly
once (:mod:`bot.services.arena.pairing`). Messages are sent at least once."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from bot.model.arena import ArenaRecord, CountedGame, Outgoing
from bot.model.game import GameRecord
from bot.services.arena.messages import ArenaMessages
from bot.services.arena.outcome import game_outcome
from bot.services.arena.pairing import ArenaPairing, pool_name
from bot.services.arena.records import ArenaRecordKeeper
from bot.services.tasks import Alarms, KeyedTasks, Scheduler
from bot.storage import GameRecords
from bot.storage.errors import StoreUnavailableError
from bot.storage.pools import PairingPools, read_pool
from nardy import NardyError

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig

log = logging.getLogger(__name__)

RECONCILE_PASSES: Final = 32
"""A bound on the steps of one :meth:`ArenaReconciler.reconcile` (each does one thing)."""
CARD_EVERY: Final = 60.0
"""The card is edited at most once a minute (joins and leaves in between show together)."""
BUSY_RECHECK: Final = 10.0
"""While a free player of the arena is out of its pool (playing a game elsewhere: a lobby, casual or other arena's
game), the arena looks again this often, so that they are back in the pool within seconds of that game's end."""
MIN_ALARM: Final = 1.0
"""The shortest wait of the wake-up timer (a wake-up due now still waits this long: no busy loop)."""


class ArenaReconciler:
    """Brings arenas up to date with their records (see the module docstring)."""

    def __init__(
        self,
        records: ArenaRecordKeeper,
        pairing: ArenaPairing,
        pools: PairingPools,
        game_records: GameRecords,
        messages: ArenaMessages,
        config: GameConfig,
        scheduler: Scheduler,
        *,
        wave_delay: float = 2.0,
    ) -> None:
        """Read and change the arenas through ``records``; pair with ``pairing`` on ``pools``; look at the games
        in ``game_records``; talk to the chats through ``messages``; with the clock and sleep of ``config``;
        reconcile on the job queue of ``scheduler`` when it has one. ``wave_delay``: seconds between a game's end
        and the pairing wave it asks for, so that players finishing together are paired together."""
        self.records = records
        self.pairing = pairing
        self.pools = pools
        self.game_records = game_records
        self.messages = messages
        self.config = config
        self.scheduler = scheduler
        self.wave_delay = wave_delay
        self.tasks = KeyedTasks("arena", sleep=lambda seconds: config.sleep(seconds))
        self.alarms = Alarms("arena-wake", sleep=lambda seconds: config.sleep(seconds))

    def clock(self) -> float:
        """Return the current time (the services' clock)."""
        return self.config.clock()

    # ================================================================== results

    async def match_finished(self, game_id: str, arena_id: str, pairing_id: str, record: GameRecord) -> None:
        """Record the result of an arena game whose session has finished (idempotent: nothing changes when the game
        is not running in the arena any more). A game that ended after the arena's end does not count, even when the
        end is not noted in the record yet (it stays running until :meth:`_end` makes it a late one). A player who
        missed their first move lost on time and is paused, and told so in private. Returns nothing.

        Raises: StoreUnavailableError."""
        try:
            outcome = game_outcome(record)
        except NardyError:
            log.exception("arena game %s cannot be read: not counted", game_id)
            outcome = None
        now = self.clock()
        after_end = False

        def change(arena: ArenaRecord) -> ArenaRecord | None:
            nonlocal after_end
            running = next((g for g in arena.running if g.game_id == game_id), None)
            if running is None:
                return None
            if now >= arena.ends_at:  # ended after the end, before the end was noted: :meth:`_end` makes it late
                after_end = True
                return None
            rest = tuple(g for g in arena.running if g.game_id != game_id)
            last = {**arena.last_game_at, **{str(u): now for u in running.players}}
            changed = arena.with_changes(running=rest, last_game_at=last)
            if outcome is None:
                return changed
            counted = CountedGame(
                game_id,
                running.players,
                outcome.winner,
                outcome.points,
                outcome.berserk,
                outcome.moves,
                outcome.on_time,
                now,
            )
            changed = changed.with_changes(games=(*arena.games, counted))
            if outcome.missed_first is not None:
                user = running.players[outcome.missed_first]
                notice = Outgoing("paused", user, game_id)
                changed = changed.with_player(user, paused=True).with_changes(outbox=(*changed.outbox, notice))
            return changed

        done = await self.records.mutate(arena_id, change, wake=now + self.wave_delay)
        if after_end:
            self.request(arena_id)
        elif done is not None:
            self.request(arena_id, delay=self.wave_delay)

    # ================================================================== converging

    def request(self, arena_id: str, *, delay: float = 0.0) -> None:
        """Have :meth:`reconcile` run for the arena in the background: a ``tournament_reconcile`` job on the queue
        when there is one (:mod:`bot.jobs`; the router sends it here), else :meth:`run_in_process`. Returns
        nothing."""
        queue = self.scheduler.queue
        if queue is not None:
            queue.tournament_reconcile(arena_id, delay)
        else:
            self.run_in_process(arena_id, delay=delay)

    def run_in_process(self, arena_id: str, *, delay: float = 0.0) -> None:
        """Run :meth:`reconcile` for the arena in a task of this process (once more if it is running now). Returns
        nothing."""
        self.tasks.request(arena_id, self._reconcile_logged, delay=delay)

    async def _reconcile_logged(self, arena_id: str) -> None:
        try:
            await self.reconcile(arena_id)
        except StoreUnavailableError:
            log.warning("store unavailable: arena %s is left to the sweeper", arena_id)
            self.tasks.forget(arena_id)
        except Exception:
            log.exception("arena %s could not be brought up to date (the sweeper retries)", arena_id)
            self.tasks.forget(arena_id)

    def busy(self) -> bool:
        """Return whether arena work runs in the background of this process."""
        return self.tasks.busy_any()

    def busy_with(self, arena_id: str) -> bool:
        """Return whether this arena's work runs in the background of this process."""
        return self.tasks.busy(arena_id)

    async def settle(self) -> None:
        """Wait until no arena work runs in the background (tests, shutdown). Returns nothing."""
        await self.tasks.settle()

    async def stop(self) -> None:
        """Cancel the background work and the wake-ups (the sweeper finishes it after a restart). Returns nothing."""
        await self.alarms.stop()
        await self.tasks.stop()

    def wake_at(self, arena_id: str, wake: float | None) -> None:
        """Request a reconcile of the arena at ``wake`` (at least :data:`MIN_ALARM` from now), instead of the wake-up
        this process had for it; None: none. Returns nothing."""
        if wake is None:
            self.alarms.cancel(arena_id)
            return
        self.alarms.set(arena_id, self._woken, delay=max(MIN_ALARM, wake - self.clock()))

    async def _woken(self, arena_id: str) -> None:
        self.request(arena_id)

    async def reconcile(self, arena_id: str) -> None:
        """Do everything the saved record implies and is not done yet, then set the next wake-up. Returns nothing.

        Raises: StoreUnavailableError; ArenaRecordError for a broken record."""
        for _ in range(RECONCILE_PASSES):
            loaded = await self.records.load(arena_id)
            if loaded is None:
                return
            stored, record = loaded
            if not await self._step(arena_id, record):
                wake = await self._next_wake(arena_id, record)
                await self.records.set_wake(arena_id, stored.version, wake)
                self.wake_at(arena_id, wake)
                return

    async def _step(self, arena_id: str, record: ArenaRecord) -> bool:
        """Do the first thing that is owed; return whether the record was changed (then the caller reads again)."""
        steps: tuple[Callable[[str, ArenaRecord], object], ...] = (
            self._end,
            self._send_outbox,
            self._create_games,
            self._pair,
            self._sync_card,
            self._standings,
            self._result,
        )
        for step in steps:
            if await step(arena_id, record):  # type: ignore[misc]
                return True
        return False

    async def _next_wake(self, arena_id: str, record: ArenaRecord) -> float | None:
        """Return when the arena must be looked at next: its end, a lone player's patience, the card, the
        standings, a free player out of the pool (busy in another game: :data:`BUSY_RECHECK`); None once it is over
        and everything is said."""
        now = self.clock()
        if record.status != "running":
            return None
        times = [record.ends_at]
        alone_after = record.settings.alone_after
        entries = await read_pool(self.pools, pool_name(arena_id), now)
        waiting = {e.member for e in entries}
        if any(p.pid not in waiting for p in record.free()):  # busy elsewhere (or claimed): look again soon
            times.append(now + BUSY_RECHECK)
        if len(entries) >= 2:  # a pair waits for someone's patience to run out (or a fresh opponent)
            times.append(max(now + 1.0, min(e.since for e in entries) + alone_after))
        if self.messages.card_key(record, now) != record.card_shown:
            times.append(max(now, record.card_at + CARD_EVERY))
        if self._standings_due(record) and record.games:
            times.append(max(now, record.standings_at + record.settings.standings_every))
        return min(times)

    # ------------------------------------------------------------------ the steps

    async def _end(self, arena_id: str, record: ArenaRecord) -> bool:
        if record.status != "running" or self.clock() < record.ends_at:
            if record.status != "running":
                await self.pairing.clear(arena_id)
            return False
        now = self.clock()

        def change(arena: ArenaRecord) -> ArenaRecord | None:
            if arena.status != "running":
                return None
            return arena.with_changes(status="finished", finished_at=now, late=arena.running, running=())

        done = await self.records.mutate(arena_id, change, wake=now)
        if done is not None:
            await self.pairing.clear(arena_id)
        return done is not None

    async def _send_outbox(self, arena_id: str, record: ArenaRecord) -> bool:
        if not record.outbox:
            return False
        for notice in record.outbox:
            await self.messages.notice(arena_id, record, notice)
        sent = set(record.outbox)
        done = await self.records.mutate(
            arena_id, lambda a: a.with_changes(outbox=tuple(n for n in a.outbox if n not in sent))
        )
        return done is not None

    async def _create_games(self, arena_id: str, record: ArenaRecord) -> bool:
        for running in record.running:
            await self.pairing.create_game(arena_id, record, running)
        return False

    async def _pair(self, arena_id: str, record: ArenaRecord) -> bool:
        if record.status != "running":
            return False
        return await self.pairing.wave(arena_id, record) > 0

    async def _sync_card(self, arena_id: str, record: ArenaRecord) -> bool:
        now = self.clock()
        key = self.messages.card_key(record, now)
        final = record.status == "finished"
        if key == record.card_shown or (not final and record.card_shown and now < record.card_at + CARD_EVERY):
            return False
        message_id = await self.messages.sync_card(arena_id, record, now)

        def change(arena: ArenaRecord) -> ArenaRecord:
            shown = arena.card_message_id if message_id is None else message_id
            return arena.with_changes(card_shown=key, card_message_id=shown, card_at=now)

        return await self.records.mutate(arena_id, change) is not None

    def _standings_due(self, record: ArenaRecord) -> bool:
        return record.status == "running" and self.messages.standings_key(record) != record.standings_shown

    async def _standings(self, arena_id: str, record: ArenaRecord) -> bool:
        now = self.clock()
        if not self._standings_due(record) or not record.games:
            return False
        if now < record.standings_at + record.settings.standings_every:
            return False
        key = self.messages.standings_key(record)
        message_id = await self.messages.show_standings(arena_id, record, now)
        return (
            await self.records.mutate(
                arena_id,
                lambda a: a.with_changes(standings_shown=key, standings_at=now, standings_message_id=message_id),
            )
            is not None
        )

    async def _result(self, arena_id: str, record: ArenaRecord) -> bool:
        if record.status != "finished" or record.result_posted:
            return False
        await self.messages.post_result(arena_id, record)
        return (
            await self.records.mutate(arena_id, lambda a: a.with_changes(result_posted=True), wake=self.clock())
            is not None
        )
