"""Background work on a Redis-backed job queue (taskiq with taskiq-redis), so that any worker can run any job.

Four kinds of job, each harmless to run twice because its effect is saved with the stores' compare-and-set:

- ``computer_turn(game_id, delay)``: the computer's reply in a game (:meth:`ComputerTurns.reply`), queued after a
  save that leaves the computer to act; it waits ``BOT_MOVE_DELAY`` and replies until the computer is no longer to
  act. A second job for the same game finds nothing to do.
- ``tournament_reconcile(tournament_id)``: bringing a tournament up to date (pairing the next round, deadlines,
  the table), queued where the tournament service asks for it.
- ``clock_deadline(game_id, delay)``: a look at a game whose clock's deadline has come
  (:meth:`ClockWatch.check`): the match is lost on time if the running player's time really ran out, else nothing
  changes. The wake-up at the deadline is a timer of the worker that saved (:mod:`bot.services.clock_watch`): a job
  waiting out a long reserve would hold a job slot and be claimed again as lost after ``JOB_RETRY_AFTER``.
- ``sweep``: every ``TIMEOUT_SWEEP_INTERVAL`` seconds one worker (the one holding the ticker lease in Redis) queues
  it, and whichever worker takes it handles the due games (boards left behind by a crash or a failed edit, turn
  reminders and timeouts, lost computer replies), tournament deadlines (all found through the store's deadline
  index) and purges expired records.

The queue is a Redis stream read by a consumer group (taskiq-redis ``RedisStreamBroker``): a job is acknowledged
when it has run, so a job of a worker that dies (or is stopped mid-job) is claimed and run by another worker once
it has been pending ``JOB_RETRY_AFTER`` seconds (a worker looks for such jobs each time it reads new ones, and the
sweep brings a new one every ``TIMEOUT_SWEEP_INTERVAL``). On a Redis Cluster the stream broker of the cluster is
used, which does not claim such jobs: the sweep still finds every lost computer reply and tournament deadline by
their deadlines.

Why taskiq rather than arq: arq pins redis-py below 6 (this project uses redis-py 8) and cannot run on a Redis
Cluster; taskiq-redis supports both, and taskiq is actively maintained. taskiq's scheduler must run as one
instance, so the periodic sweep is queued by a lease-elected ticker instead (:meth:`TaskiqJobs.tick`).

Without Redis (the embedded SQLite store, polling) no queue runs: the same job code runs in the process (the
computer's replies and tournament work as tasks, the sweep in a loop, :meth:`bot.services.background.PeriodicWork.run`).

:meth:`TaskiqJobs.start` takes the parts the jobs drive (:class:`JobParts`: the computer's turns, the tournaments, the
clocks' watch, the periodic work and the shared config for its ``sleep``), as :mod:`bot.wiring` built them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import TYPE_CHECKING, Any, Final, Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError
from taskiq import AsyncBroker, AsyncTaskiqDecoratedTask, Context, TaskiqDepends
from taskiq.acks import AcknowledgeType
from taskiq.api import run_receiver_task
from taskiq_redis import RedisStreamBroker, RedisStreamClusterBroker

from bot.storage.redis.keys import cluster_startup_url

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from bot.services.background import PeriodicWork
    from bot.services.clock_watch import ClockWatch
    from bot.services.computer import ComputerTurns
    from bot.services.game_config import GameConfig
    from bot.services.tournament_service import Tournaments

log = logging.getLogger(__name__)

COMPUTER_TURN: Final = "computer_turn"
TOURNAMENT_RECONCILE: Final = "tournament_reconcile"
CLOCK_DEADLINE: Final = "clock_deadline"
SWEEP: Final = "sweep"
QUEUE_NAME: Final = "nardy:jobs"
CONSUMER_GROUP: Final = "nardy-workers"
TICKER_KEY: Final = "nardy:jobs:ticker"
MAX_COMPUTER_REPLIES: Final = 16
"""A bound on the replies one ``computer_turn`` job plays in a row (a guard against a bug, never reached)."""

# the ticker lease: held by one worker, renewed on each tick, taken over when its holder stops renewing
_LEASE_SCRIPT: Final = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""


class TaskiqJobs:
    """The job queue of one worker: queues jobs, runs a taskiq receiver in this process and takes part in the
    ticker election (see the module docstring)."""

    def __init__(
        self,
        redis_url: str,
        *,
        sweep_interval: float = 60.0,
        purge_batch: int = 500,
        metrics: Metrics | None = None,
        max_jobs: int = 32,
        retry_after: float = 60.0,
    ) -> None:
        """Use Redis at ``redis_url`` (a plain server, or ``redis+cluster://``), queue the sweep every
        ``sweep_interval`` seconds, run at most ``max_jobs`` jobs at once in this worker (further ones wait in the
        queue for any worker), and claim a job left pending by another worker after ``retry_after`` seconds."""
        self.redis_url = redis_url
        self.sweep_interval = sweep_interval
        self.purge_batch = purge_batch
        self.metrics = metrics
        self.max_jobs = max_jobs
        self.retry_after = retry_after
        self.worker_id = uuid.uuid4().hex
        self.cluster_url = cluster_startup_url(redis_url)
        self.broker: AsyncBroker = self._broker()
        self._computer = self.broker.register_task(_computer_turn, task_name=COMPUTER_TURN)
        self._tournament = self.broker.register_task(_tournament_reconcile, task_name=TOURNAMENT_RECONCILE)
        self._clock = self.broker.register_task(_clock_deadline, task_name=CLOCK_DEADLINE)
        self._sweep = self.broker.register_task(_sweep, task_name=SWEEP)
        self._parts: JobParts | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[bool]] = set()
        self._redis: Redis | None = None
        self.running = 0

    def _broker(self) -> AsyncBroker:
        if self.cluster_url is not None:
            return RedisStreamClusterBroker(
                self.redis_url.replace("+cluster", "", 1),
                queue_name=QUEUE_NAME,
                consumer_group_name=CONSUMER_GROUP,
                xread_block=1000,
            )
        return RedisStreamBroker(
            self.redis_url,
            queue_name=QUEUE_NAME,
            consumer_group_name=CONSUMER_GROUP,
            xread_block=1000,
            idle_timeout=int(self.retry_after * 1000),
            unacknowledged_lock_timeout=5.0,
        )

    async def start(self, parts: JobParts) -> None:
        """Connect and start running the jobs of ``parts`` in this process (see :class:`JobParts`). Raises:
        RedisError or OSError when Redis does not answer."""
        self._parts = parts
        self.broker.state.parts = parts
        self.broker.state.jobs = self
        await self.broker.startup()
        if self.cluster_url is None:
            self._redis = Redis.from_url(self.redis_url)
        receiver = run_receiver_task(
            self.broker, max_async_tasks=self.max_jobs, ack_time=AcknowledgeType.WHEN_EXECUTED, run_startup=False
        )
        self._tasks = [
            asyncio.create_task(receiver, name="nardy-jobs"),
            asyncio.create_task(self._ticker(), name="nardy-jobs-ticker"),
        ]

    # ---- queueing ------------------------------------------------------------------------------------------
    def computer_turn(self, game_id: str, delay: float) -> None:
        """See :meth:`bot.services.tasks.JobQueue.computer_turn` (run in this process when Redis cannot take
        the job)."""
        self._submit(self._computer, COMPUTER_TURN, game_id, delay)

    def tournament_reconcile(self, tournament_id: str, delay: float) -> None:
        """See :meth:`bot.services.tasks.JobQueue.tournament_reconcile` (run in this process when Redis cannot
        take the job)."""
        self._submit(self._tournament, TOURNAMENT_RECONCILE, tournament_id, delay)

    def clock_deadline(self, game_id: str, delay: float) -> None:
        """See :meth:`bot.services.tasks.JobQueue.clock_deadline` (run in this process when Redis cannot take the
        job)."""
        self._submit(self._clock, CLOCK_DEADLINE, game_id, delay)

    def _submit(self, task: AsyncTaskiqDecoratedTask[Any, Any], name: str, key: str, delay: float) -> None:
        job = asyncio.create_task(self.enqueue(task, name, key, delay))
        self._pending.add(job)
        job.add_done_callback(self._pending.discard)

    async def enqueue(self, task: AsyncTaskiqDecoratedTask[Any, Any], name: str, key: str, delay: float) -> bool:
        """Queue job ``name(key, delay)``. Returns: True when queued, False when Redis failed and the work was
        started in this process instead."""
        try:
            await task.kiq(key, delay)
        except (RedisError, OSError) as error:
            log.warning("job %s(%s) could not be queued (%s): running it in this process", name, key, error)
            self._in_process(name, key, delay)
            return False
        return True

    def _in_process(self, name: str, key: str, delay: float) -> None:
        parts = self._parts
        if parts is None:
            return
        if name == COMPUTER_TURN:
            parts.computer_turns.wake(key)
        elif name == CLOCK_DEADLINE:
            parts.clock_watch.run_in_process(key, delay=delay)
        else:
            parts.tournaments.reconciler.run_in_process(key, delay=delay)

    # ---- the ticker ----------------------------------------------------------------------------------------
    async def tick(self) -> bool:
        """Queue the sweep when this worker holds the ticker lease (taking it when nobody does). Returns: whether
        it did."""
        lease_ms = int(max(3.0, 3 * self.sweep_interval) * 1000)
        if self._redis is not None:
            held = await self._redis.eval(_LEASE_SCRIPT, 1, TICKER_KEY, self.worker_id, lease_ms)
        else:  # a Redis Cluster: the lease key lives on one node, through the broker's cluster client
            broker = self.broker
            assert isinstance(broker, RedisStreamClusterBroker)
            held = await broker.redis.eval(_LEASE_SCRIPT, 1, TICKER_KEY, self.worker_id, lease_ms)
        if not held:
            return False
        await self._sweep.kiq("", 0.0)
        return True

    async def _ticker(self) -> None:
        while True:  # the first sweep after one interval: at start each worker recovers on its own
            await asyncio.sleep(self.sweep_interval)
            try:
                await self.tick()
            except Exception:
                log.exception("the sweep could not be queued (the next tick tries again)")

    # ---- lifecycle -----------------------------------------------------------------------------------------
    async def settle(self) -> None:
        """Wait until the jobs handed over so far are queued. Returns nothing."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def close(self, timeout: float = 5.0) -> None:
        """Stop taking jobs after those under way finish (at most ``timeout`` seconds; one cut short is claimed by
        another worker after ``JOB_RETRY_AFTER``), give up the ticker lease and disconnect."""
        await self.settle()
        for _ in range(int(timeout / 0.05)):
            if not self.running:
                break
            await asyncio.sleep(0.05)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        if self._redis is not None:
            with contextlib.suppress(RedisError, OSError):
                if await self._redis.get(TICKER_KEY) == self.worker_id.encode():
                    await self._redis.delete(TICKER_KEY)
            await self._redis.aclose()
            self._redis = None
        with contextlib.suppress(RedisError, OSError):
            await self.broker.shutdown()


class JobParts(Protocol):
    """The parts the jobs drive (:class:`bot.wiring.Services` has them): the computer's replies, the tournaments'
    work, the sweep, and the shared config whose ``sleep`` waits out a job's delay."""

    @property
    def config(self) -> GameConfig:
        """The shared game config (its ``sleep``)."""
        ...

    @property
    def computer_turns(self) -> ComputerTurns:
        """Runs the ``computer_turn`` jobs."""
        ...

    @property
    def tournaments(self) -> Tournaments:
        """Runs the ``tournament_reconcile`` jobs."""
        ...

    @property
    def clock_watch(self) -> ClockWatch:
        """Runs the ``clock_deadline`` jobs."""
        ...

    @property
    def periodic(self) -> PeriodicWork:
        """Runs the ``sweep`` job."""
        ...


def _parts(context: Context) -> JobParts:
    parts: JobParts = context.state.parts
    return parts


def _jobs(context: Context) -> TaskiqJobs:
    jobs: TaskiqJobs = context.state.jobs
    return jobs


async def _run(context: Context, kind: str | None, work: Any) -> Any:
    """Run one job's coroutine ``work``, counted in :attr:`TaskiqJobs.running` and (with a ``kind``) in the
    worker's metrics."""
    jobs = _jobs(context)
    jobs.running += 1
    outcome = "error"
    try:
        result = await work
        outcome = "ok"
        return result
    finally:
        jobs.running -= 1
        if kind is not None and jobs.metrics is not None:
            jobs.metrics.job(kind, outcome)


async def _computer_turn(game_id: str, delay: float, context: Context = TaskiqDepends()) -> int:
    """The ``computer_turn`` job: wait ``delay`` seconds, then reply in the game until the computer is no longer
    to act. Returns: replies saved."""
    parts = _parts(context)

    async def reply() -> int:
        if delay > 0:
            await parts.config.sleep(delay)
        replies = 0
        while replies < MAX_COMPUTER_REPLIES and await parts.computer_turns.reply(game_id, wait=False):
            replies += 1
        return replies

    replies: int = await _run(context, COMPUTER_TURN, reply())
    return replies


async def _tournament_reconcile(tournament_id: str, delay: float, context: Context = TaskiqDepends()) -> None:
    """The ``tournament_reconcile`` job: wait ``delay`` seconds, then bring the tournament up to date."""
    parts = _parts(context)

    async def reconcile() -> None:
        if delay > 0:
            await parts.config.sleep(delay)
        await parts.tournaments.reconciler.reconcile(tournament_id)

    await _run(context, TOURNAMENT_RECONCILE, reconcile())


async def _clock_deadline(game_id: str, delay: float, context: Context = TaskiqDepends()) -> bool:
    """The ``clock_deadline`` job: wait ``delay`` seconds, then look at the game's clock. Returns: whether it ended
    the match on time."""
    parts = _parts(context)

    async def check() -> bool:
        if delay > 0:
            await parts.config.sleep(delay)
        return await parts.clock_watch.check(game_id)

    ended: bool = await _run(context, CLOCK_DEADLINE, check())
    return ended


async def _sweep(_key: str, _delay: float, context: Context = TaskiqDepends()) -> None:
    """The ``sweep`` job (see :meth:`bot.services.background.PeriodicWork.sweep_once`, which counts it in the
    metrics)."""
    jobs = _jobs(context)
    await _run(context, None, _parts(context).periodic.sweep_once(jobs.purge_batch, jobs.metrics))
