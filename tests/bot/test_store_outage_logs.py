"""A Redis restart under a worker — a private redis-server with an append-only file, shut down with SHUTDOWN SAVE
and started again about 2 s later on the same port and directory — is waited out quietly: every part that talks to
Redis logs exactly one WARNING when it loses it and one INFO when it has it back, no record carries a traceback,
no asyncio task is left with an unretrieved exception, and the jobs queued before the restart (and one queued during
it, run in the process instead) run exactly once."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from redis_process import RedisProcess, require_redis_server

from bot.jobs import CONSUMER_GROUP, QUEUE_NAME, TaskiqJobs
from bot.services.background import PeriodicWork
from bot.services.game_config import GameConfig
from bot.services.live import RedisLive
from bot.storage import RedisGameStore

TASKIQ_STOPPED = "The listenig task was cancelled."
"""taskiq's own line (sic) when a worker stops its receiver (``TaskiqJobs.close``), outage or not."""
OUTAGE_PARTS = (
    "job queue receiver",
    "job queue (queueing)",
    "sweep ticker",
    "live updates (subscription)",
    "live updates (publishing)",
    "periodic work",
)


@dataclass
class HeldTurns:
    """The computer's replies the jobs ask for: each game's reply is recorded, and one whose game is in ``held``
    waits until its event is set (a job running across the restart); ``woken`` records replies started in the
    process (a job that could not be queued)."""

    replies: list[str] = field(default_factory=list)
    woken: list[str] = field(default_factory=list)
    held: dict[str, asyncio.Event] = field(default_factory=dict)

    async def reply(self, game_id: str, *, wait: bool = True) -> bool:
        self.replies.append(game_id)
        gate = self.held.get(game_id)
        if gate is not None:
            await gate.wait()
        return False

    def wake(self, game_id: str) -> None:
        self.woken.append(game_id)


@dataclass
class CountedSweeps:
    """The ``sweep`` jobs the ticker queues: counted."""

    runs: int = 0

    async def sweep_once(self, purge_batch: int = 500, metrics: Any = None) -> None:
        self.runs += 1


@dataclass
class StubParts:
    """The parts the jobs drive (:class:`bot.jobs.JobParts`)."""

    computer_turns: HeldTurns = field(default_factory=HeldTurns)
    periodic: CountedSweeps = field(default_factory=CountedSweeps)
    config: GameConfig = field(default_factory=lambda: GameConfig(computer=lambda *_: None))
    tournaments: Any = None
    clock_watch: Any = None


@dataclass
class DueGames:
    """A sweeper (and a tournaments' sweep) that only lists what is due in the store: it fails as the store does."""

    store: RedisGameStore

    async def sweep(self, now: float | None = None, *, limit: int = 100) -> int:
        return len(await self.store.due_games(time.time() if now is None else now, limit=limit))


async def _until(condition: Any, timeout: float = 30.0) -> None:
    """Wait until ``condition()`` holds (bounded, so that a broken build fails instead of hanging)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


@pytest.fixture
def persistent_redis(tmp_path: Path) -> Iterator[RedisProcess]:
    require_redis_server()
    server = RedisProcess(tmp_path, persistent=True)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def unretrieved() -> AsyncIterator[list[dict[str, Any]]]:
    """Collect what asyncio reports to the loop's exception handler ("Task exception was never retrieved", ...)."""
    loop = asyncio.get_running_loop()
    reports: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: reports.append(context))
    yield reports
    loop.set_exception_handler(previous)


def _outage_records(caplog: pytest.LogCaptureFixture, level: int, marker: str) -> Counter[str]:
    """Count the records of ``level`` whose message has ``marker``, by the part they name."""
    return Counter(
        record.getMessage().split(":")[0]
        for record in caplog.records
        if record.levelno == level and marker in record.getMessage()
    )


async def test_a_redis_restart_is_waited_out_with_one_warning_and_one_info_per_part(
    persistent_redis: RedisProcess, caplog: pytest.LogCaptureFixture, unretrieved: list[dict[str, Any]]
) -> None:
    caplog.set_level(logging.INFO)
    server = persistent_redis
    parts = StubParts()
    turns = parts.computer_turns
    jobs = TaskiqJobs(server.url, sweep_interval=0.3, max_jobs=1, retry_after=1.0)
    live = RedisLive(server.url)
    store = RedisGameStore.from_url(server.url, timeout=1.0)
    periodic = PeriodicWork(store, parts.config, DueGames(store), DueGames(store))  # type: ignore[arg-type]
    direct = Redis.from_url(server.url)
    sweeping = asyncio.create_task(periodic.run(0.2))
    try:
        await jobs.start(parts)  # type: ignore[arg-type]
        async with live.subscribe("g-live") as versions:
            await asyncio.sleep(0.3)  # the receiver's consumer joins the group
            # a job that is running when Redis stops (so its acknowledgement fails) and two that wait in the queue
            # behind it (one job at a time here)
            turns.held["running"] = asyncio.Event()
            jobs.computer_turn("running", 0.0)
            await _until(lambda: turns.replies == ["running"])
            jobs.computer_turn("queued-1", 0.0)
            jobs.computer_turn("queued-2", 0.0)
            await jobs.settle()
            assert await direct.xlen(QUEUE_NAME) >= 3

            await asyncio.to_thread(server.shutdown)
            jobs.computer_turn("during", 0.0)  # cannot be queued: run in this process
            await jobs.settle()
            await live.publish("g-live", 1)  # not announced: Redis is down
            turns.held["running"].set()
            await _until(lambda: jobs.running == 0)
            assert len(jobs.receiving.late_acks) == 1  # the running job's acknowledgement waits for Redis
            await asyncio.sleep(2.0)  # the outage lasts about 2 s
            sweeps_before = parts.periodic.runs
            await asyncio.to_thread(server.start)

            await _until(lambda: Counter(turns.replies) == Counter(["running", "queued-1", "queued-2"]))
            await _until(lambda: not jobs.receiving.late_acks and not live.subscription.down)
            jobs.computer_turn("after", 0.0)
            await live.publish("g-live", 2)
            assert await asyncio.wait_for(versions.get(), timeout=30) == 2  # subscribed again
            await _until(lambda: "after" in turns.replies)
            # a job left pending would be claimed by the next read now (JOB_RETRY_AFTER is 1 s here)
            await asyncio.sleep(1.5)
            jobs.computer_turn("later", 0.0)
            await _until(lambda: "later" in turns.replies and jobs.running == 0)
            await _until(lambda: parts.periodic.runs > sweeps_before and not periodic.outage.down)
            assert Counter(turns.replies) == Counter(["running", "queued-1", "queued-2", "after", "later"])
            assert turns.woken == ["during"]
            # The last job's acknowledgement is sent after its reply: wait for it rather than race it.
            deadline = time.monotonic() + 30.0
            while (pending := await direct.xpending(QUEUE_NAME, CONSUMER_GROUP))["pending"] and (
                time.monotonic() < deadline
            ):
                await asyncio.sleep(0.05)
            assert pending["pending"] == 0
            # and no job was left pending to be claimed and run a second time meanwhile
            assert Counter(turns.replies) == Counter(["running", "queued-1", "queued-2", "after", "later"])
    finally:
        sweeping.cancel()
        await jobs.close(timeout=0)
        await live.close()
        await store.close()
        await direct.aclose()
    gc.collect()
    await asyncio.sleep(0)

    problems = [
        record
        for record in caplog.records
        if record.levelno >= logging.WARNING and record.getMessage() != TASKIQ_STOPPED
    ]
    assert Counter(record.getMessage().split(":")[0] for record in problems) == Counter(OUTAGE_PARTS), [
        record.getMessage() for record in problems
    ]
    assert _outage_records(caplog, logging.INFO, " is back after ") == Counter(OUTAGE_PARTS)
    assert [record.getMessage() for record in caplog.records if record.exc_info] == []
    assert unretrieved == []


async def test_a_restart_that_lost_the_queue_declares_its_consumer_group_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, unretrieved: list[dict[str, Any]]
) -> None:
    require_redis_server()
    caplog.set_level(logging.INFO)
    server = RedisProcess(tmp_path)  # no persistence: the restarted server has lost the stream and its group
    server.start()
    parts = StubParts()
    jobs = TaskiqJobs(server.url, sweep_interval=3600)
    try:
        await jobs.start(parts)  # type: ignore[arg-type]
        await asyncio.sleep(0.3)
        server.stop()
        await asyncio.sleep(0.5)
        await asyncio.to_thread(server.start)
        await _until(lambda: jobs.receiving.outage.failures == 0)
        jobs.computer_turn("after", 0.0)
        await _until(lambda: parts.computer_turns.replies == ["after"])
    finally:
        await jobs.close(timeout=0)
        server.stop()
    gc.collect()
    await asyncio.sleep(0)

    warnings = [
        record.getMessage()
        for record in caplog.records
        if record.levelno >= logging.WARNING and record.getMessage() != TASKIQ_STOPPED
    ]
    assert len(warnings) == 2, warnings
    assert warnings[0].startswith("job queue receiver: Redis is unavailable")
    assert warnings[1] == "job queue: the consumer group is gone (Redis lost its data): declaring it again"
    assert _outage_records(caplog, logging.INFO, " is back after ") == Counter(["job queue receiver"])
    assert [record.getMessage() for record in caplog.records if record.exc_info] == []
    assert unretrieved == []
