"""The Redis job queue (taskiq): jobs run by whichever worker takes them, a job left by a dead worker claimed by
another, one sweep per tick across workers, a job the store failed left pending and run again (a game whose computer
replies come from the queue: ``tests/bot/e2e/test_job_queue.py``; a Redis restart under a worker:
``tests/bot/test_store_outage_logs.py``)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from redis.asyncio import Redis

from bot.jobs import CONSUMER_GROUP, QUEUE_NAME, TICKER_KEY, TaskiqJobs
from bot.services.game_config import GameConfig
from bot.storage import StoreUnavailableError


@dataclass
class StubTurns:
    """Records the replies asked of it; ``hang`` makes every reply wait forever (a worker that dies mid-job)."""

    calls: list[str] = field(default_factory=list)
    hang: bool = False

    async def reply(self, game_id: str, *, wait: bool = True) -> bool:
        self.calls.append(game_id)
        if self.hang:
            await asyncio.Event().wait()
        return False


@dataclass
class StubWatch:
    """Records the looks at games' clocks asked of it."""

    checks: list[str] = field(default_factory=list)

    async def check(self, game_id: str) -> bool:
        self.checks.append(game_id)
        return False


@dataclass
class StubParts:
    """The parts the jobs use (:class:`bot.jobs.JobParts`): the stub's replies and clock looks, the real sleep; the
    tournaments and the sweep are never run here."""

    computer_turns: StubTurns = field(default_factory=StubTurns)
    config: GameConfig = field(default_factory=lambda: GameConfig(computer=lambda *_: None))
    tournaments: Any = None
    periodic: Any = None
    clock_watch: StubWatch = field(default_factory=StubWatch)


async def _until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


@pytest.fixture
async def queues(redis_url: str) -> AsyncIterator[list[TaskiqJobs]]:
    made: list[TaskiqJobs] = []
    yield made
    for jobs in made:
        await jobs.close(timeout=0)


async def test_any_worker_runs_a_job_and_a_dead_workers_job_is_claimed(
    redis_url: str, queues: list[TaskiqJobs]
) -> None:
    first = TaskiqJobs(redis_url, retry_after=1.0, sweep_interval=3600)
    queues.append(first)
    hung = StubTurns(hang=True)
    await first.start(StubParts(hung))  # type: ignore[arg-type]
    await asyncio.sleep(0.3)  # its consumer joins the group
    first.computer_turn("g-1", 0.0)
    await _until(lambda: hung.calls == ["g-1"])
    # the worker dies mid-job: its receiver stops without acknowledging the job
    for task in first._tasks:
        task.cancel()
    await asyncio.gather(*first._tasks, return_exceptions=True)
    second = TaskiqJobs(redis_url, retry_after=1.0, sweep_interval=3600)
    queues.append(second)
    healthy = StubTurns()
    await second.start(StubParts(healthy))  # type: ignore[arg-type]
    await asyncio.sleep(1.2)
    # the next job read by the live worker makes it look for jobs pending longer than JOB_RETRY_AFTER (1 s here)
    second.computer_turn("g-2", 0.0)
    await _until(lambda: sorted(healthy.calls) == ["g-1", "g-2"])


async def test_one_worker_queues_each_sweep(redis_url: str, queues: list[TaskiqJobs]) -> None:
    workers = [TaskiqJobs(redis_url, sweep_interval=3600) for _ in range(3)]
    queues.extend(workers)
    for jobs in workers:
        jobs.broker.state.parts = StubParts()
        jobs.broker.state.jobs = jobs
        await jobs.broker.startup()
        jobs._redis = Redis.from_url(redis_url)
    ticks = [await jobs.tick() for jobs in workers]
    assert ticks.count(True) == 1  # the lease holder
    holder = workers[ticks.index(True)]
    assert await holder.tick() and not any([await j.tick() for j in workers if j is not holder])
    # the holder stops: another worker takes the lease at its next tick
    assert holder._redis is not None
    await holder._redis.delete(TICKER_KEY)
    others = [j for j in workers if j is not holder]
    assert [await j.tick() for j in others].count(True) == 1


async def test_a_clock_deadline_job_looks_at_the_game_after_its_delay(redis_url: str, queues: list[TaskiqJobs]) -> None:
    jobs = TaskiqJobs(redis_url, sweep_interval=3600)
    queues.append(jobs)
    parts = StubParts()
    await jobs.start(parts)  # type: ignore[arg-type]
    await asyncio.sleep(0.3)  # its consumer joins the group
    started = time.monotonic()
    jobs.clock_deadline("g-clock", 0.5)
    await _until(lambda: parts.clock_watch.checks == ["g-clock"])
    assert time.monotonic() - started >= 0.5


@dataclass
class FlakyStoreTurns:
    """Replies whose first call finds the store unavailable."""

    calls: list[str] = field(default_factory=list)

    async def reply(self, game_id: str, *, wait: bool = True) -> bool:
        self.calls.append(game_id)
        if len(self.calls) == 1:
            raise StoreUnavailableError("storage unavailable: ConnectionError: Connection refused")
        return False


async def test_a_job_the_store_failed_stays_pending_and_runs_again(
    redis_url: str, queues: list[TaskiqJobs], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    jobs = TaskiqJobs(redis_url, retry_after=1.0, sweep_interval=3600)
    queues.append(jobs)
    turns = FlakyStoreTurns()
    await jobs.start(StubParts(turns))  # type: ignore[arg-type]
    await asyncio.sleep(0.3)  # its consumer joins the group
    jobs.computer_turn("g-1", 0.0)
    await _until(lambda: turns.calls == ["g-1"] and jobs.running == 0)
    redis = Redis.from_url(redis_url)
    try:
        assert (await redis.xpending(QUEUE_NAME, CONSUMER_GROUP))["pending"] == 1  # not acknowledged
        await asyncio.sleep(1.2)
        # the next job read makes the worker claim the jobs pending longer than JOB_RETRY_AFTER (1 s here)
        jobs.computer_turn("g-2", 0.0)
        await _until(lambda: sorted(turns.calls) == ["g-1", "g-1", "g-2"] and jobs.running == 0)
        assert (await redis.xpending(QUEUE_NAME, CONSUMER_GROUP))["pending"] == 0
    finally:
        await redis.aclose()
    [warning, info] = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "bot.jobs"]
    assert warning == (
        "WARNING",
        "jobs: the store is unavailable (StoreUnavailableError: storage unavailable: ConnectionError: Connection "
        "refused); a job it fails is left to run again after JOB_RETRY_AFTER; waiting for it, trying again at most "
        "every 2 s",
    )
    assert info[0] == "INFO" and info[1].startswith("jobs: the store is back after ")
    assert not [r for r in caplog.records if r.exc_info]
