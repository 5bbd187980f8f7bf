"""The contract of the send budgets role (``SendBudgets``): a chat's interval and window, the bot's calls per
second, albums, refunds and holds, shared by two stores on one back end (two workers) — on a Redis server, a Redis
Cluster and the SQLite file."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import SendLimits, Store
from tests.bot.storage.backends import Backend

GROUP = SendLimits(interval=1.0, per_window=19, window=61.0, per_second=30)
T0 = 1_000_000.0


async def test_interval_and_window_of_a_chat(store: Store) -> None:
    assert await store.take_send("-100", T0, 1, GROUP, "a") == 0.0
    assert await store.take_send("-100", T0 + 0.4, 1, GROUP, "b") == pytest.approx(0.6)  # the interval
    assert await store.take_send("-200", T0 + 0.4, 1, GROUP, "c") == 0.0  # another chat is not held
    now = T0
    for n in range(18):  # one call a second until the window holds 19
        now = T0 + 1.0 + n
        assert await store.take_send("-100", now, 1, GROUP, f"t{n}") == 0.0
    # the 20th waits until the first of the window (at T0) leaves it, 61 s after it was made
    assert await store.take_send("-100", now + 1.0, 1, GROUP, "late") == pytest.approx(T0 + 61.0 - (now + 1.0))
    assert await store.take_send("-100", T0 + 61.0, 1, GROUP, "late") == 0.0


async def test_an_album_counts_each_picture(store: Store) -> None:
    assert await store.take_send("-100", T0, 10, GROUP, "album") == 0.0
    for n in range(9):
        assert await store.take_send("-100", T0 + 1.0 + n, 1, GROUP, f"t{n}") == 0.0
    wait = await store.take_send("-100", T0 + 10.0, 1, GROUP, "over")
    assert wait == pytest.approx(51.0)  # the album's ten leave together, 61 s after it


async def test_the_bots_calls_per_second_over_all_chats(store: Store) -> None:
    for n in range(30):
        assert await store.take_send(str(n), T0 + n * 0.01, 1, GROUP, f"t{n}") == 0.0
    assert await store.take_send("99", T0 + 0.5, 1, GROUP, "t99") == pytest.approx(0.5)
    assert await store.take_send("99", T0 + 1.0, 1, GROUP, "t99") == 0.0


async def test_refund_gives_the_calls_back_but_not_the_interval(store: Store) -> None:
    limits = SendLimits(interval=1.0, per_window=2, window=61.0, per_second=30)
    assert await store.take_send("-100", T0, 1, limits, "a") == 0.0
    assert await store.take_send("-100", T0 + 1.0, 1, limits, "b") == 0.0
    assert await store.take_send("-100", T0 + 2.0, 1, limits, "c") > 50
    await store.refund_send("-100", "b")
    assert await store.take_send("-100", T0 + 2.0, 1, limits, "c") == 0.0


async def test_a_hold_makes_everyone_wait(store: Store) -> None:
    await store.hold_sends("-100", T0, 30.0)
    await store.hold_sends("-100", T0, 5.0)  # an earlier hold does not shorten it
    assert await store.take_send("-100", T0 + 10.0, 1, GROUP, "a") == pytest.approx(20.0)
    assert await store.take_send("-100", T0 + 30.0, 1, GROUP, "a") == 0.0


async def test_two_workers_share_one_budget(backend: Backend, store: Store) -> None:
    other = backend.open()
    limits = SendLimits(interval=0.0, per_window=19, window=61.0, per_second=30)
    results = await asyncio.gather(
        *((store if n % 2 else other).take_send("-100", T0, 1, limits, f"t{n}") for n in range(40))
    )
    assert sum(1 for wait in results if wait == 0.0) == 19  # never more than the chat's budget, however split
