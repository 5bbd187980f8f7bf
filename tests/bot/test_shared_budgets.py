"""Telegram's limits are the bot's, not each process's: two senders (two workers) on one store keep a group within
its budget together, a call withdrawn by its guard gives its share back, a 429 seen by one holds the chat for both,
a restarted sender finds the budget spent by its predecessor, and a store that cannot be reached leaves each sender
pacing on its own counts (one WARNING, one INFO). On the event-driven virtual clock, on Redis and SQLite."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import SendMessage, TelegramMethod
from event_clock import EventClock

from bot.sender import Priority, Sender, SendWithdrawn
from bot.storage import RedisGameStore, SendLimits, SqliteGameStore, Store, StoreUnavailableError

GROUP = -100_777


class Telegram:
    """The Bot API of both senders: records (virtual time, method) of each call; can answer the next one 429."""

    def __init__(self, clock: EventClock) -> None:
        self.clock = clock
        self.calls: list[tuple[float, TelegramMethod[Any]]] = []
        self.retry_after: list[int] = []

    def caller(self) -> Any:
        async def call(method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
            self.calls.append((self.clock(), method))
            if self.retry_after:
                raise TelegramRetryAfter(method=method, message="Too Many Requests", retry_after=self.retry_after.pop())
            return True

        return call

    def times(self, chat_id: int = GROUP) -> list[float]:
        return sorted(t for t, m in self.calls if getattr(m, "chat_id", None) == chat_id)


def most_in_a_minute(times: list[float]) -> int:
    """Return the most calls in any 60 s window [t, t + 60)."""
    return max((sum(1 for u in times if t <= u < t + 60.0) for t in times), default=0)


@pytest.fixture(params=["redis", "sqlite"])
async def store(request: Any, redis_url: str, sqlite_path: str) -> AsyncIterator[Store]:
    opened: Store = RedisGameStore.from_url(redis_url) if request.param == "redis" else SqliteGameStore(sqlite_path)
    yield opened
    await opened.close()


@pytest.fixture
async def clock() -> AsyncIterator[EventClock]:
    running = EventClock()
    running.start()
    yield running
    await running.stop()


def _sender(telegram: Telegram, clock: EventClock, budgets: Store | None) -> Sender:
    return Sender(telegram.caller(), clock=clock, sleep=clock.sleep, budgets=budgets, budget_clock=clock)


async def _send_many(senders: list[Sender], count: int) -> None:
    await asyncio.gather(
        *(
            senders[n % len(senders)].send(SendMessage(chat_id=GROUP, text=f"m{n}"), priority=Priority.BOARD)
            for n in range(count)
        )
    )


async def test_two_workers_keep_a_group_within_its_budget_together(store: Store, clock: EventClock) -> None:
    telegram = Telegram(clock)
    senders = [_sender(telegram, clock, store) for _ in range(2)]
    await _send_many(senders, 40)
    times = telegram.times()
    assert len(times) == 40
    assert most_in_a_minute(times) <= 19  # the group's budget, however the calls were split
    assert min(b - a for a, b in itertools.pairwise(times)) >= 1.0 - 1e-9  # the interval too
    assert sum(sender.budget_waits for sender in senders) > 0


async def test_without_shared_budgets_two_workers_exceed_it(clock: EventClock) -> None:
    telegram = Telegram(clock)  # the control: each worker counts alone, as before
    senders = [_sender(telegram, clock, None) for _ in range(2)]
    await _send_many(senders, 40)
    assert most_in_a_minute(telegram.times()) > 19


async def test_a_restarted_worker_finds_the_budget_spent(store: Store, clock: EventClock) -> None:
    telegram = Telegram(clock)
    await _send_many([_sender(telegram, clock, store)], 19)
    await _send_many([_sender(telegram, clock, store)], 5)  # a new process: its own counts start empty
    assert most_in_a_minute(telegram.times()) <= 19


async def test_a_withdrawn_call_gives_its_share_back(store: Store, clock: EventClock) -> None:
    telegram = Telegram(clock)
    sender = _sender(telegram, clock, store)

    async def refuse() -> bool:
        return False

    for n in range(25):
        with pytest.raises(SendWithdrawn):
            await sender.send(SendMessage(chat_id=GROUP, text=f"w{n}"), guard=refuse)
    started = clock()
    await _send_many([sender], 19)
    assert telegram.times()[-1] - started < 61.0  # the 25 withdrawn calls took nothing of the minute


async def test_a_429_holds_the_chat_for_every_worker(store: Store, clock: EventClock) -> None:
    telegram = Telegram(clock)
    first, second = _sender(telegram, clock, store), _sender(telegram, clock, store)
    telegram.retry_after.append(30)
    await first.send(SendMessage(chat_id=GROUP, text="a"))  # 429, held 30 s, then retried
    refused_at = telegram.calls[0][0]
    await second.send(SendMessage(chat_id=GROUP, text="b"))
    assert telegram.times()[-1] >= refused_at + 30.0


class Unreachable:
    """A store whose send budgets cannot be reached."""

    async def take_send(self, chat: str, now: float, count: int, limits: SendLimits, token: str) -> float:
        raise StoreUnavailableError("down")

    async def refund_send(self, chat: str, token: str) -> None:
        raise StoreUnavailableError("down")

    async def hold_sends(self, chat: str, now: float, seconds: float) -> None:
        raise StoreUnavailableError("down")


async def test_an_unreachable_store_is_waited_for_then_local_pacing_takes_over(
    store: Store, clock: EventClock, caplog: pytest.LogCaptureFixture
) -> None:
    telegram = Telegram(clock)
    sender = Sender(telegram.caller(), clock=clock, sleep=clock.sleep, budgets=Unreachable(), budget_clock=clock)
    started = clock()
    with caplog.at_level(logging.INFO, logger="bot.sender"):
        await _send_many([sender], 25)
        times = telegram.times()
        # a store restart is waited out (no call goes by local counts alone while it may be back in a moment) ...
        assert times[0] - started >= sender.limits.budgets_outage_wait
        assert most_in_a_minute(times) <= 19  # ... and then this worker's own pacing holds
        sender.budgets = store
        await clock.sleep(5.0)  # past the outage's backoff: the store is asked again
        await sender.send(SendMessage(chat_id=GROUP, text="back"))
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    infos = [r for r in caplog.records if r.levelno == logging.INFO and "is back" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].exc_info is None
    assert len(infos) == 1


async def test_a_short_store_outage_costs_a_wait_not_a_burst(store: Store, clock: EventClock) -> None:
    telegram = Telegram(clock)
    flaky = Flaky(store)
    senders = [_sender(telegram, clock, flaky) for _ in range(2)]  # type: ignore[arg-type]
    await _send_many(senders, 10)
    flaky.down = True
    outage = asyncio.ensure_future(_send_many(senders, 30))
    await clock.sleep(3.0)  # the store restarts in 3 s
    flaky.down = False
    await outage
    assert most_in_a_minute(telegram.times()) <= 19  # the two workers still kept the group's budget together


class Flaky:
    """A store whose send budgets can be taken away for a while."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.down = False

    async def take_send(self, chat: str, now: float, count: int, limits: SendLimits, token: str) -> float:
        if self.down:
            raise StoreUnavailableError("restarting")
        return await self.store.take_send(chat, now, count, limits, token)

    async def refund_send(self, chat: str, token: str) -> None:
        if self.down:
            raise StoreUnavailableError("restarting")
        await self.store.refund_send(chat, token)

    async def hold_sends(self, chat: str, now: float, seconds: float) -> None:
        if self.down:
            raise StoreUnavailableError("restarting")
        await self.store.hold_sends(chat, now, seconds)
