"""The bound on updates handled at once: a burst waits its turn and is served, never refused; an update waiting
for the paced sender gives its slot back."""

from __future__ import annotations

import asyncio

import pytest
from bot_testkit import build_app

from bot.in_flight import UpdateSlots, outside_slot
from bot.keyboards.callbacks import LangCb
from bot.middlewares.in_flight import InFlightLimitMiddleware
from bot.storage import RedisGameStore


async def test_at_most_limit_hold_a_slot_and_all_are_served() -> None:
    slots = UpdateSlots(3)
    served: list[int] = []

    async def work(i: int) -> None:
        async with slots.hold():
            assert slots.busy <= 3
            await asyncio.sleep(0)
            served.append(i)

    await asyncio.gather(*(work(i) for i in range(50)))
    assert sorted(served) == list(range(50))
    assert slots.peak == 3 and slots.busy == 0


async def test_a_wait_outside_gives_the_slot_to_the_next_update() -> None:
    slots = UpdateSlots(1)
    release = asyncio.Event()
    order: list[str] = []

    async def waits_for_telegram() -> None:
        async with slots.hold():
            order.append("first starts")
            async with outside_slot():
                await release.wait()
            order.append("first ends")

    async def second() -> None:
        async with slots.hold():
            order.append("second runs")
            release.set()

    await asyncio.gather(waits_for_telegram(), second())
    assert order == ["first starts", "second runs", "first ends"]
    assert slots.busy == 0


async def test_an_update_coming_back_goes_before_new_ones() -> None:
    slots = UpdateSlots(1)
    back = asyncio.Event()
    order: list[str] = []

    async def returning() -> None:
        async with slots.hold():
            async with outside_slot():
                await back.wait()
            order.append("returning")

    async def new(name: str) -> None:
        async with slots.hold():
            back.set()
            await asyncio.sleep(0)
            order.append(name)

    await asyncio.gather(returning(), new("new1"), new("new2"), new("new3"))
    assert order == ["new1", "returning", "new2", "new3"]


async def test_cancelled_waiters_do_not_leak_slots() -> None:
    slots = UpdateSlots(1)
    gate = asyncio.Event()

    async def holder() -> None:
        async with slots.hold():
            await gate.wait()

    first = asyncio.create_task(holder())
    await asyncio.sleep(0)
    waiters = [asyncio.create_task(holder()) for _ in range(3)]
    await asyncio.sleep(0)
    for task in waiters:
        task.cancel()
    gate.set()
    await first
    await asyncio.gather(*waiters, return_exceptions=True)
    assert slots.busy == 0
    async with slots.hold():  # the slot is free again
        assert slots.busy == 1


async def test_tasks_started_by_an_update_do_not_give_its_slot_away() -> None:
    slots = UpdateSlots(1)
    seen: list[int] = []

    async def background() -> None:
        async with outside_slot():
            seen.append(slots.busy)

    async with slots.hold():
        await asyncio.create_task(background())  # inherits the update's context, not its slot
        assert seen == [1] and slots.busy == 1
    assert slots.busy == 0 and slots.active == 0


def test_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        UpdateSlots(0)


async def test_outside_an_update_nothing_happens() -> None:
    async with outside_slot():
        pass


async def test_a_thousand_simultaneous_updates_are_all_answered(redis_url: str) -> None:
    """Regression: redis-py's pool refuses the 101st concurrent connection, so 1,000 simultaneous presses without
    a bound were answered "temporarily unavailable" by the hundreds. Through the bounded path all are served."""
    store = RedisGameStore.from_url(redis_url)
    app = build_app(store)
    group = app.fake.group_chat(-4000)
    users = [app.fake.user(10_000 + i, f"u{i}", "en") for i in range(200)]
    updates = [
        app.fake.callback_update(user, group.id, 1, LangCb(code="ru" if round_ % 2 else "en").pack())
        for round_ in range(5)  # five presses each: within every user's burst, so none is throttled
        for user in users
    ]
    await asyncio.gather(*(app.h.feed(update) for update in updates))
    toasts = [t.text for t in app.fake.toasts]
    assert len(toasts) == 1000
    assert set(toasts) <= {"Language: English", "Язык: Русский"}
    limit = next(m for m in app.dp.update.outer_middleware if isinstance(m, InFlightLimitMiddleware))
    assert limit.slots.peak == app.settings.max_updates_in_flight
    await app.sender.close()
    await store.close()
