"""The clocks' flag falls on time: a wake-up of each game at its clock's deadline (docs/rules.md §1 "Time control").

Every save that leaves a clock running (and every release of a game's boards, which covers a new game) asks
:meth:`ClockWatch.watch` for a wake-up at the clock's deadline. The wake-up is a timer of this process
(:class:`~bot.services.tasks.Alarms`, one per game: a later save replaces it), not a job waiting in the queue, so
that a long reserve holds no job slot and no job stays unacknowledged past the queue's retry time. When it is due,
the look at the game runs as a ``clock_deadline`` job of the scheduler's queue when there is one (any worker takes
it, :mod:`bot.jobs`), else here: :meth:`ClockWatch.check`.

:meth:`ClockWatch.check` decides from the saved record alone: when the running player's time has run out, the match
is lost on time with the saver's one compare-and-set (:meth:`bot.services.saving.GameSaver.lose_on_time`); when
the clock still runs (a wake-up that came early, or after a move that charged the clock), it watches the clock's
deadline again and changes nothing. So a wake-up that runs early, late, twice or on two workers ends the match at
most once. The sweeper stays the safety net: a wake-up lost with its process (a restart) is found by the store's
deadline index, which never wakes a game later than its clock runs out.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.log_context import bind_game
from bot.model.game import GameRecord
from bot.services.clocks import clock_deadline, ran_out
from bot.services.tasks import Alarms, Scheduler
from bot.storage.errors import StoreUnavailableError

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig
    from bot.services.saving import GameSaver
    from bot.storage import GameRecords

log = logging.getLogger(__name__)


class ClockWatch:
    """Wakes each game with a running clock at its deadline and ends the match on time then (see the module
    docstring)."""

    def __init__(self, store: GameRecords, config: GameConfig, scheduler: Scheduler, saver: GameSaver) -> None:
        """Read games from ``store`` on the clock and sleep of ``config``; hand the due looks to the job queue of
        ``scheduler`` when it has one; end a match on time with ``saver`` (which asks for the boards' update)."""
        self.store = store
        self.config = config
        self.scheduler = scheduler
        self.saver = saver
        self.alarms = Alarms("nardy-clock", sleep=lambda seconds: config.sleep(seconds))

    def watch(self, game_id: str, deadline: float) -> None:
        """Wake the game at ``deadline`` (the running clock's, on the config's clock), instead of an earlier
        request's wake-up in this process. Returns nothing."""
        self.alarms.set(game_id, self._due, delay=max(0.0, deadline - self.config.clock()))

    def watch_record(self, game_id: str, record: GameRecord) -> None:
        """:meth:`watch` the game when its saved ``record`` has a clock running (else nothing). Returns nothing."""
        deadline = clock_deadline(record)
        if deadline is not None and record.clock is not None and record.clock.flag is None:
            self.watch(game_id, deadline)

    def run_in_process(self, game_id: str, *, delay: float = 0.0) -> None:
        """:meth:`check` the game in this process after ``delay`` seconds (a job the queue could not take), instead
        of its wake-up here. Returns nothing."""
        self.alarms.set(game_id, self._check_logged, delay=delay)

    async def _due(self, game_id: str) -> None:
        queue = self.scheduler.queue
        if queue is not None:
            queue.clock_deadline(game_id, 0.0)
        else:
            await self._check_logged(game_id)

    async def _check_logged(self, game_id: str) -> None:
        try:
            await self.check(game_id)
            self.alarms.outage.succeeded()
        except StoreUnavailableError as error:  # the sweeper ends the match when the store is back
            self.alarms.outage.failed(error)
        except Exception:  # the sweeper ends the match when the game's deadline comes due
            log.exception("the clock of game %s could not be checked", game_id)

    async def check(self, game_id: str) -> bool:
        """Look at the game's saved clock now: end the match on time when the running player's time ran out (once,
        by compare-and-set), or watch the clock's deadline again when it still runs. Returns: whether this call
        ended the match.

        Raises: StoreUnavailableError; RecordError or GameStateError for a broken record (the sweeper quarantines
        it)."""
        bind_game(game_id)
        for _ in range(3):  # a save between the read and the write: read again (the clock may still run)
            stored = await self.store.get_game(game_id)
            if stored is None or stored.finished or stored.quarantined:
                return False
            record = GameRecord.from_stored(stored)
            if not ran_out(record, self.config.clock()):
                self.watch_record(game_id, record)
                return False
            if await self.saver.lose_on_time(game_id, stored.version, record) is not None:
                return True
        return False

    @property
    def working(self) -> bool:
        """Whether a due look at a game is under way in this process."""
        return self.alarms.working

    async def settle(self) -> None:
        """Wait until no due look is under way (the wake-ups still waiting are not waited for). Returns nothing."""
        await self.alarms.settle()

    async def stop(self) -> None:
        """Cancel the wake-ups (the sweeper ends a match on time after a restart). Returns nothing."""
        await self.alarms.stop()
