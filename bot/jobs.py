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

A Redis restart or failover of a few seconds is waited out (:mod:`bot.outage`): the receiver, the queueing, the
ticker and the jobs each log one WARNING when Redis (or the store) stops answering and one INFO when it answers again,
and wait with a capped backoff in between; no traceback for a network failure. What each job is guaranteed is *at
least once, eventually*, never lost while Redis keeps its data (a stream and its consumer group survive a restart
with AOF or RDB):

- a job queued before the outage and not yet read stays in the stream and is read after it;
- a job that ran while Redis was down has its acknowledgement kept in this process and sent before the receiver
  reads again, so it does not run a second time; if this process stops first, the job is claimed and run again by a
  worker after ``JOB_RETRY_AFTER`` (never while it still runs here: it has finished);
- a job that failed because the store was down is left unacknowledged and so runs again after ``JOB_RETRY_AFTER``
  (on a Redis Cluster, whose broker does not claim such jobs, the sweep does its work by the games' deadlines);
- a job that cannot be queued while Redis is down runs in this process instead (a queueing whose reply was lost
  may have queued it too: it then runs twice, which every job tolerates).

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
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError
from taskiq import AckableMessage, AsyncBroker, AsyncTaskiqDecoratedTask, Context, TaskiqDepends
from taskiq.acks import AcknowledgeType
from taskiq.api import run_receiver_task
from taskiq.exceptions import SendTaskError
from taskiq_redis import RedisStreamBroker, RedisStreamClusterBroker

from bot.outage import NETWORK_ERRORS, Outage
from bot.storage.errors import StoreUnavailableError
from bot.storage.redis.keys import cluster_startup_url

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from bot.services.arena.router import CompetitionRouter
    from bot.services.background import PeriodicWork
    from bot.services.clock_watch import ClockWatch
    from bot.services.computer import ComputerTurns
    from bot.services.game_config import GameConfig
    from bot.services.tournaments.service import Tournaments

log = logging.getLogger(__name__)

T = TypeVar("T")

COMPUTER_TURN: Final = "computer_turn"
TOURNAMENT_RECONCILE: Final = "tournament_reconcile"
CLOCK_DEADLINE: Final = "clock_deadline"
SWEEP: Final = "sweep"
QUEUE_NAME: Final = "nardy:jobs"
CONSUMER_GROUP: Final = "nardy-workers"
TICKER_KEY: Final = "nardy:jobs:ticker"
MAX_COMPUTER_REPLIES: Final = 16
"""A bound on the replies one ``computer_turn`` job plays in a row (a guard against a bug, never reached)."""
OUTAGE_ERRORS: Final[tuple[type[BaseException], ...]] = (*NETWORK_ERRORS, StoreUnavailableError)
"""Failures of Redis or of the store that the job queue waits out (logged once per outage, without a traceback)."""

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


class Receiving:
    """What the receiver of one worker keeps across a Redis outage: the outage's log and backoff, and the
    acknowledgements that could not be sent (each is sent before the receiver reads again)."""

    def __init__(self) -> None:
        """Start with no outage and nothing left to acknowledge."""
        self.outage = Outage("job queue receiver", log)
        self.late_acks: list[Callable[[], Awaitable[None]]] = []
        self._sent_late = 0

    def acknowledging(self, ack: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
        """Return ``ack`` made safe to call during an outage: when Redis cannot take it, it is kept for
        :meth:`send_late_acks` (and the outage reported) instead of raising."""

        async def acknowledge() -> None:
            try:
                await ack()
            except OUTAGE_ERRORS as error:
                self.late_acks.append(ack)
                self.outage.failed(error)

        return acknowledge

    async def send_late_acks(self) -> None:
        """Send the acknowledgements kept during an outage, oldest first; one that Redis refuses for another reason
        than an outage is dropped (logged: its job may run once more). Returns nothing. Raises: a network failure
        (the acknowledgements not sent yet stay kept)."""
        while self.late_acks:
            try:
                await self.late_acks[0]()
            except OUTAGE_ERRORS:
                raise
            except Exception:
                log.exception("job queue: a finished job's acknowledgement was refused: the job may run once more")
            else:
                self._sent_late += 1
            self.late_acks.pop(0)

    async def attempt(self, read: Callable[[], Awaitable[T]], declare_group: Callable[[], Awaitable[None]]) -> T | None:
        """Send the kept acknowledgements, then ``read`` from the stream. Returns: what ``read`` returned, or None
        when Redis failed (after waiting out the backoff; the outage is logged once) or the consumer group was gone
        (Redis lost its data: ``declare_group`` declares it again)."""
        try:
            try:
                await self.send_late_acks()
                result = await read()
            except ResponseError as error:
                if not str(error).startswith("NOGROUP"):
                    raise
                log.warning("job queue: the consumer group is gone (Redis lost its data): declaring it again")
                await declare_group()
                return None
        except OUTAGE_ERRORS as error:
            await asyncio.sleep(self.outage.failed(error))
            return None
        except Exception as error:  # a bug: waited out like an outage rather than retried in a tight loop
            await asyncio.sleep(self.outage.failed(error, expected=False))
            return None
        sent, self._sent_late = self._sent_late, 0
        self.outage.succeeded(f"finished jobs acknowledged late: {sent}" if sent else "")
        return result


async def _declare_group_again(redis: Any, streams: Iterable[str], group: str) -> None:
    """Declare the consumer ``group`` of ``streams`` again after Redis lost it, from each stream's start (every entry
    there was queued since). Returns nothing. Raises: what Redis raises, but for a group that exists already."""
    for stream in streams:
        try:
            await redis.xgroup_create(stream, group, id="0", mkstream=True)
        except ResponseError as error:
            if not str(error).startswith("BUSYGROUP"):
                raise


def _messages(
    receiving: Receiving, ack: Callable[[str, str], Callable[[], Awaitable[None]]], stream: Any, entries: Any
) -> list[AckableMessage]:
    """Return the ``entries`` (``(id, fields)`` pairs) read from ``stream`` as messages for the receiver, each
    acknowledged by ``ack(id, stream)`` through ``receiving`` (an entry trimmed from the stream meanwhile, without
    fields, is left out)."""
    return [
        AckableMessage(data=fields[b"data"], ack=receiving.acknowledging(ack(message_id, stream)))
        for message_id, fields in entries
        if fields
    ]


async def _listen(
    receiving: Receiving,
    read_new: Callable[[], Awaitable[list[AckableMessage]]],
    claim_stale: Callable[[], Awaitable[list[AckableMessage]]],
    declare_group: Callable[[], Awaitable[None]],
) -> AsyncGenerator[AckableMessage, None]:
    """The receiver's messages: new ones, and after each batch of them the ones left pending too long by any
    worker; a Redis outage is waited out (:meth:`Receiving.attempt`) instead of ending the iteration."""
    while True:
        fresh = await receiving.attempt(read_new, declare_group)
        if not fresh:
            continue
        for message in fresh:
            yield message
        for message in await receiving.attempt(claim_stale, declare_group) or ():
            yield message


class StreamBroker(RedisStreamBroker):
    """taskiq-redis' stream broker, whose receiver waits out a Redis outage (:class:`Receiving`): no exception
    leaves :meth:`listen` and no acknowledgement raises, so taskiq neither restarts its receiver in a tight loop nor
    leaves a task's exception unretrieved."""

    def __init__(self, url: str, receiving: Receiving, **options: Any) -> None:
        """A :class:`RedisStreamBroker` on ``url`` with ``options``, reporting outages through ``receiving``."""
        super().__init__(url, **options)
        self.receiving = receiving

    def listen(self) -> AsyncGenerator[AckableMessage, None]:
        """Return the messages of the stream (see :func:`_listen`)."""
        return _listen(self.receiving, self._read_new, self._claim_stale, self._declare_again)

    async def _declare_again(self) -> None:
        async with Redis(connection_pool=self.connection_pool) as redis:
            await _declare_group_again(redis, (self.queue_name, *self.additional_streams), self.consumer_group_name)

    async def _read_new(self) -> list[AckableMessage]:
        async with Redis(connection_pool=self.connection_pool) as redis:
            streams: dict[Any, Any] = {self.queue_name: ">", **self.additional_streams}
            fetched: Any = await redis.xreadgroup(
                self.consumer_group_name, self.consumer_name, streams, block=self.block, noack=False, count=self.count
            )
        read = [_messages(self.receiving, self._ack_generator, stream, entries) for stream, entries in fetched or ()]
        return [message for messages in read for message in messages]

    async def _claim_stale(self) -> list[AckableMessage]:
        claimed: list[AckableMessage] = []
        async with Redis(connection_pool=self.connection_pool) as redis:
            for stream in (self.queue_name, *self.additional_streams):
                found: Any = await redis.xautoclaim(
                    stream,
                    self.consumer_group_name,
                    self.consumer_name,
                    min_idle_time=self.idle_timeout,
                    count=self.unacknowledged_batch_size,
                )
                claimed += _messages(self.receiving, self._ack_generator, stream, found[1])
        return claimed


class ClusterStreamBroker(RedisStreamClusterBroker):
    """taskiq-redis' stream broker of a Redis Cluster, whose receiver waits out an outage like
    :class:`StreamBroker`'s (it claims no job left pending, as taskiq-redis' does not)."""

    def __init__(self, url: str, receiving: Receiving, **options: Any) -> None:
        """A :class:`RedisStreamClusterBroker` on ``url`` with ``options``, reporting outages through
        ``receiving``."""
        super().__init__(url, **options)
        self.receiving = receiving

    def listen(self) -> AsyncGenerator[AckableMessage, None]:
        """Return the messages of the stream (see :func:`_listen`)."""
        return _listen(self.receiving, self._read_new, self._claim_none, self._declare_again)

    async def _declare_again(self) -> None:
        await _declare_group_again(self.redis, (self.queue_name, *self.additional_streams), self.consumer_group_name)

    async def _read_new(self) -> list[AckableMessage]:
        streams: dict[Any, Any] = {self.queue_name: ">", **self.additional_streams}
        fetched: Any = await self.redis.xreadgroup(
            self.consumer_group_name, self.consumer_name, streams, block=self.block, noack=False
        )
        read = [_messages(self.receiving, self._ack_generator, stream, entries) for stream, entries in fetched or ()]
        return [message for messages in read for message in messages]

    async def _claim_none(self) -> list[AckableMessage]:
        return []


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
        self.receiving = Receiving()
        self.queueing = Outage("job queue (queueing)", log, meanwhile="jobs run in this process")
        self.ticking = Outage("sweep ticker", log, meanwhile="no sweep is queued")
        self.running_jobs = Outage(
            "jobs", log, needs="the store", meanwhile="a job it fails is left to run again after JOB_RETRY_AFTER"
        )
        self.broker: AsyncBroker = self._broker()
        self._computer = self.broker.register_task(_computer_turn, task_name=COMPUTER_TURN)
        self._tournament = self.broker.register_task(_tournament_reconcile, task_name=TOURNAMENT_RECONCILE)
        self._clock = self.broker.register_task(_clock_deadline, task_name=CLOCK_DEADLINE)
        self._sweep = self.broker.register_task(_sweep, task_name=SWEEP)
        self._parts: JobParts | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[bool]] = set()
        self._redis: Redis | None = None
        self._ran_in_process = 0
        self.running = 0

    def _broker(self) -> AsyncBroker:
        if self.cluster_url is not None:
            return ClusterStreamBroker(
                self.redis_url.replace("+cluster", "", 1),
                self.receiving,
                queue_name=QUEUE_NAME,
                consumer_group_name=CONSUMER_GROUP,
                xread_block=1000,
            )
        return StreamBroker(
            self.redis_url,
            self.receiving,
            queue_name=QUEUE_NAME,
            consumer_group_name=CONSUMER_GROUP,
            xread_block=1000,
            idle_timeout=int(self.retry_after * 1000),
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
        # each job acknowledges itself when it is done (_run): not one that the store's outage made fail
        receiver = run_receiver_task(
            self.broker, max_async_tasks=self.max_jobs, ack_time=AcknowledgeType.MANUAL, run_startup=False
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
        job.add_done_callback(self._queued)

    def _queued(self, job: asyncio.Task[bool]) -> None:
        self._pending.discard(job)
        if not job.cancelled() and job.exception() is not None:  # a bug: enqueue handles every Redis failure
            log.error("a job could not be queued", exc_info=job.exception())

    async def enqueue(self, task: AsyncTaskiqDecoratedTask[Any, Any], name: str, key: str, delay: float) -> bool:
        """Queue job ``name(key, delay)``; while Redis is down (and until the backoff after its latest failure has
        passed) start the work in this process instead. Returns: True when queued, False when the work was started
        in this process."""
        if self.queueing.retry_due():
            try:
                await _kick(task, key, delay)
            except (RedisError, OSError) as error:
                self.queueing.failed(error, expected=isinstance(error, OUTAGE_ERRORS))
            else:
                ran, self._ran_in_process = self._ran_in_process, 0
                self.queueing.succeeded(f"jobs run in this process meanwhile: {ran}" if ran else "")
                return True
        log.debug("job %s(%s) runs in this process: Redis is unavailable", name, key)
        self._ran_in_process += 1
        self._in_process(name, key, delay)
        return False

    def _in_process(self, name: str, key: str, delay: float) -> None:
        parts = self._parts
        if parts is None:
            return
        if name == COMPUTER_TURN:
            parts.computer_turns.wake(key)
        elif name == CLOCK_DEADLINE:
            parts.clock_watch.run_in_process(key, delay=delay)
        else:
            parts.competitions.run_in_process(key, delay=delay)

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
        await _kick(self._sweep, "", 0.0)
        return True

    async def _ticker(self) -> None:
        pause = self.sweep_interval  # the first sweep after one interval: at start each worker recovers on its own
        while True:
            await asyncio.sleep(pause)
            pause = self.sweep_interval
            try:
                await self.tick()
            except OUTAGE_ERRORS as error:  # tried again after the backoff, so that a sweep follows the outage soon
                pause = min(pause, self.ticking.failed(error))
            except Exception:
                log.exception("the sweep could not be queued (the next tick tries again)")
            else:
                self.ticking.succeeded()

    # ---- lifecycle -----------------------------------------------------------------------------------------
    async def settle(self) -> None:
        """Wait until the jobs handed over so far are queued. Returns nothing."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def close(self, timeout: float = 5.0) -> None:
        """Stop taking jobs after those under way finish (at most ``timeout`` seconds; one cut short is claimed by
        another worker after ``JOB_RETRY_AFTER``), send the acknowledgements an outage held back (at most ``timeout``
        seconds, at least 1; a job not acknowledged runs again after ``JOB_RETRY_AFTER``), give up the ticker lease and
        disconnect. Returns nothing."""
        await self.settle()
        for _ in range(int(timeout / 0.05)):
            if not self.running:
                break
            await asyncio.sleep(0.05)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        try:
            await asyncio.wait_for(self.receiving.send_late_acks(), timeout=max(timeout, 1.0))
        except (RedisError, OSError):  # TimeoutError too
            log.warning(
                "job queue: %d finished jobs could not be acknowledged: they run again after JOB_RETRY_AFTER",
                len(self.receiving.late_acks),
            )
        if self._redis is not None:
            with contextlib.suppress(RedisError, OSError):
                if await self._redis.get(TICKER_KEY) == self.worker_id.encode():
                    await self._redis.delete(TICKER_KEY)
            await self._redis.aclose()
            self._redis = None
        with contextlib.suppress(RedisError, OSError):
            await self.broker.shutdown()


async def _kick(task: AsyncTaskiqDecoratedTask[Any, Any], *args: Any) -> None:
    """Queue the job ``task(*args)``. Returns nothing. Raises: what kept it from the queue — the Redis or network
    failure itself, not the :class:`SendTaskError` taskiq wraps it in."""
    try:
        await task.kiq(*args)
    except SendTaskError as error:
        if isinstance(error.__cause__, Exception):
            raise error.__cause__ from None
        raise


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
        """The tournaments' parts."""
        ...

    @property
    def competitions(self) -> CompetitionRouter:
        """Runs the ``tournament_reconcile`` jobs: a tournament's or an arena's, by the record's format."""
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


async def _run(context: Context, kind: str | None, work: Awaitable[T]) -> T | None:
    """Run one job's coroutine ``work``, counted in :attr:`TaskiqJobs.running` and (with a ``kind``) in the
    worker's metrics, and acknowledge the job when it is done — unless the store or Redis failed it (the outage is
    logged once, without a traceback): the job then stays pending, to be claimed and run again after
    ``JOB_RETRY_AFTER``. A job cancelled (its worker stopping) is not acknowledged either. Returns: what ``work``
    returned, or None when an outage failed it. Raises: what else ``work`` raises (the job is acknowledged: taskiq
    logs the error)."""
    jobs = _jobs(context)
    jobs.running += 1
    outcome = "error"
    try:
        try:
            result = await work
        except OUTAGE_ERRORS as error:
            jobs.running_jobs.failed(error)
            return None
        except Exception:
            await _acknowledge(context)
            raise
        outcome = "ok"
        jobs.running_jobs.succeeded()
        await _acknowledge(context)
        return result
    finally:
        jobs.running -= 1
        if kind is not None and jobs.metrics is not None:
            jobs.metrics.job(kind, outcome)


async def _acknowledge(context: Context) -> None:
    """Acknowledge the job of ``context`` (through :meth:`Receiving.acknowledging`: never raises for an outage)."""
    if context.is_ackable:
        await context.ack()


async def _computer_turn(game_id: str, delay: float, context: Context = TaskiqDepends()) -> int | None:
    """The ``computer_turn`` job: wait ``delay`` seconds, then reply in the game until the computer is no longer
    to act. Returns: replies saved (None: the store failed, the job runs again)."""
    parts = _parts(context)

    async def reply() -> int:
        if delay > 0:
            await parts.config.sleep(delay)
        replies = 0
        while replies < MAX_COMPUTER_REPLIES and await parts.computer_turns.reply(game_id, wait=False):
            replies += 1
        return replies

    return await _run(context, COMPUTER_TURN, reply())


async def _tournament_reconcile(tournament_id: str, delay: float, context: Context = TaskiqDepends()) -> None:
    """The ``tournament_reconcile`` job: wait ``delay`` seconds, then bring the tournament up to date."""
    parts = _parts(context)

    async def reconcile() -> None:
        if delay > 0:
            await parts.config.sleep(delay)
        await parts.competitions.reconcile(tournament_id)

    await _run(context, TOURNAMENT_RECONCILE, reconcile())


async def _clock_deadline(game_id: str, delay: float, context: Context = TaskiqDepends()) -> bool | None:
    """The ``clock_deadline`` job: wait ``delay`` seconds, then look at the game's clock. Returns: whether it ended
    the match on time (None: the store failed, the job runs again)."""
    parts = _parts(context)

    async def check() -> bool:
        if delay > 0:
            await parts.config.sleep(delay)
        return await parts.clock_watch.check(game_id)

    return await _run(context, CLOCK_DEADLINE, check())


async def _sweep(_key: str, _delay: float, context: Context = TaskiqDepends()) -> None:
    """The ``sweep`` job (see :meth:`bot.services.background.PeriodicWork.sweep_once`, which counts it in the
    metrics)."""
    jobs = _jobs(context)
    await _run(context, None, _parts(context).periodic.sweep_once(jobs.purge_batch, jobs.metrics))
