"""The contract of the statistics role (``StatsRecords``),
run against a real Redis server, a real 3-node Redis Cluster (``redis_cluster_url``, see ``conftest.py``) and the
embedded SQLite store."""

from __future__ import annotations

import asyncio

from bot.storage import Stats, Store
from tests.bot.storage.backends import Backend


async def test_stats(store: Store) -> None:
    assert await store.get_stats(-1, 5) == Stats()
    assert await store.add_stats(-1, 5, wins=1) == Stats(wins=1)
    assert await store.add_stats(-1, 5, losses=2, draws=1) == Stats(wins=1, losses=2, draws=1)
    await store.add_stats(-1, 6, wins=3)
    await store.add_stats(-2, 5, wins=7)
    assert await store.get_stats(-1, 5) == Stats(1, 2, 1)
    assert (await store.get_stats(-1, 5)).played == 4
    assert await store.chat_stats(-1) == {5: Stats(1, 2, 1), 6: Stats(3, 0, 0)}
    assert await store.chat_stats(-3) == {}


async def test_stats_concurrent_increments(backend: Backend, store: Store) -> None:
    stores = [store, backend.open()]
    await asyncio.gather(*(stores[i % 2].add_stats(-1, 5, wins=1) for i in range(40)))
    assert await store.get_stats(-1, 5) == Stats(wins=40)


async def test_add_game_stats_counts_a_game_once_per_chat(store: Store) -> None:
    deltas = {5: (1, 0, 0), 6: (0, 1, 0)}
    assert await store.add_game_stats(-1, "game000001", deltas) is True
    assert await store.add_game_stats(-1, "game000001", deltas) is False
    assert await store.chat_stats(-1) == {5: Stats(1, 0, 0), 6: Stats(0, 1, 0)}
    # The same game shown in another chat counts there too; another game counts again.
    assert await store.add_game_stats(-2, "game000001", deltas) is True
    assert await store.add_game_stats(-1, "game000002", {5: (0, 0, 1), 6: (0, 0, 1)}) is True
    assert await store.get_stats(-1, 5) == Stats(1, 0, 1)
    assert await store.get_stats(-2, 6) == Stats(0, 1, 0)
    # add_stats still works beside it.
    assert await store.add_stats(-1, 5, wins=2) == Stats(3, 0, 1)


async def test_add_game_stats_concurrent_exactly_once(backend: Backend, store: Store) -> None:
    stores = [store, backend.open()]
    results = await asyncio.gather(
        *(stores[i % 2].add_game_stats(-1, "game000001", {5: (1, 0, 0), 6: (0, 1, 0)}) for i in range(30))
    )
    assert sum(results) == 1
    assert await store.chat_stats(-1) == {5: Stats(1, 0, 0), 6: Stats(0, 1, 0)}
