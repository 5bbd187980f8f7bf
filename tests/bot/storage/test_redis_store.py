"""Redis-only behaviour: crash safety of the indices, the lazy stats migration, bursts, cluster URLs and the
persistence warning (the shared behaviour is in ``test_store_contract.py``)."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.storage import (
    RedisGameStore,
    SqliteGameStore,
    Stats,
    StoreUnavailableError,
    check_persistence,
    new_id,
    open_store,
)
from bot.storage.redis import games as redis_games
from bot.storage.redis.keys import DEADLINES_KEY, cluster_startup_url


@pytest.fixture(params=["redis", "cluster"])
def url(request: pytest.FixtureRequest) -> str:
    """A single Redis database or the test cluster."""
    return str(request.getfixturevalue("redis_url" if request.param == "redis" else "redis_cluster_url"))


def _applied_then_lost(call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Wrap a script call: the server applies it, then the reply is lost (the connection drops)."""

    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        await call(*args, **kwargs)
        raise RedisConnectionError("connection lost before the reply")

    return wrapper


async def _no_sync(game_id: str) -> None:
    """Stands for a process that crashed before copying the deadline into the index."""


async def test_crash_after_earlier_deadline_never_leaves_a_later_index_entry(url: str) -> None:
    store = RedisGameStore.from_url(url)
    try:
        game_id = await store.create_game({"n": 0}, deadline=1000.0)
        # The CAS setting an earlier deadline is applied, then the process dies (reply lost, no read-back).
        store._cas = _applied_then_lost(store._cas)  # type: ignore[method-assign]
        store._game_docs.sync_deadline = _no_sync  # type: ignore[method-assign]
        with pytest.raises(StoreUnavailableError):
            await store.update_game(game_id, 1, {"n": 1}, deadline=100.0)
        game = await store.get_game(game_id)
        assert game is not None and game.version == 2 and game.deadline == 100.0
        score = await store.redis.zscore(DEADLINES_KEY, game_id)
        assert score is not None and score <= game.deadline
    finally:
        await store.close()
    fresh = RedisGameStore.from_url(url)
    try:
        assert await fresh.due_games(now=150.0) == [game_id]
    finally:
        await fresh.close()


async def test_crash_during_creation_leaves_an_indexed_game(url: str) -> None:
    store = RedisGameStore.from_url(url)
    try:
        store._create = _applied_then_lost(store._create)  # type: ignore[method-assign]
        with pytest.raises(StoreUnavailableError):
            await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[5], deadline=50.0)
    finally:
        await store.close()
    fresh = RedisGameStore.from_url(url)
    try:
        # Nobody retried: the game is still found through every index.
        [game_id] = await fresh.chat_games(-1)
        assert await fresh.user_games(5) == [game_id]
        assert await fresh.user_chat_games(-1, 5) == [game_id]
        assert await fresh.due_games(now=60.0) == [game_id]
    finally:
        await fresh.close()


async def test_lost_reply_with_caller_id_retries_into_the_same_game(url: str) -> None:
    store = RedisGameStore.from_url(url)
    game_id = new_id()
    real_create = store._create
    try:
        store._create = _applied_then_lost(real_create)  # type: ignore[method-assign]
        with pytest.raises(StoreUnavailableError):
            await store.create_game({"n": 0}, game_id=game_id, chat_ids=[-1], user_ids=[5])
        store._create = real_create  # type: ignore[method-assign]
        assert await store.create_game({"n": 0}, game_id=game_id, chat_ids=[-1], user_ids=[5]) == game_id
        assert await store.chat_games(-1) == [game_id]
        assert len([key async for key in _game_keys(store)]) == 1
    finally:
        await store.close()


async def _game_keys(store: RedisGameStore) -> Any:
    """Yield the keys of all game records (on every primary of a cluster)."""
    async for key in store.redis.scan_iter(match="nardy:{g:*}:game"):
        yield key


async def test_index_entry_of_a_game_being_created_is_not_dropped(url: str) -> None:
    store = RedisGameStore.from_url(url)
    try:
        # The indices are written before the record: a reader in between must not drop the entry.
        await store.redis.zadd("nardy:chat:-1:games", {"abcdefghij": time.time()})
        assert await store.chat_games(-1) == []
        assert await store.redis.zscore("nardy:chat:-1:games", "abcdefghij") is not None
        # An entry of a vanished game older than the creation grace period is dropped.
        await store.redis.zadd("nardy:chat:-1:games", {"oldoldoldo": time.time() - 3600})
        assert await store.chat_games(-1) == []
        assert await store.redis.zscore("nardy:chat:-1:games", "oldoldoldo") is None
    finally:
        await store.close()


async def test_legacy_stats_are_migrated_once(url: str) -> None:
    seed = RedisGameStore.from_url(url)
    await seed.redis.hset("nardy:chat:-1:stats", mapping={"5:w": 3, "5:l": 1, "5:d": 0, "6:w": 1})
    await seed.close()
    # Two processes (fresh stores) reach the old counters at the same time: they are added once.
    stores = [RedisGameStore.from_url(url) for _ in range(4)]
    try:
        results = await asyncio.gather(*(s.chat_stats(-1) for s in stores))
        assert all(r == {5: Stats(3, 1, 0), 6: Stats(1, 0, 0)} for r in results)
        assert await stores[0].redis.exists("nardy:chat:-1:stats") == 0
        assert await stores[1].add_game_stats(-1, "game000001", {5: (1, 0, 0)}) is True
        assert await stores[2].add_stats(-1, 6, draws=1) == Stats(1, 0, 1)
        assert await stores[3].get_stats(-1, 5) == Stats(4, 1, 0)
    finally:
        for s in stores:
            await s.close()
    again = RedisGameStore.from_url(url)
    try:
        assert await again.chat_stats(-1) == {5: Stats(4, 1, 0), 6: Stats(1, 0, 1)}
    finally:
        await again.close()


async def test_counted_games_are_forgotten_after_the_retention(url: str) -> None:
    now = [1_000_000.0]
    store = RedisGameStore.from_url(url, clock=lambda: now[0])
    try:
        assert await store.add_game_stats(-1, "game000001", {5: (1, 0, 0)}) is True
        now[0] += 91 * 24 * 3600
        assert await store.add_game_stats(-1, "game000002", {5: (1, 0, 0)}) is True  # trims the old entry
        assert await store.redis.zrange("nardy:{cs:-1}:counted", 0, -1) == ["game000002"]
    finally:
        await store.close()


async def test_burst_is_queued_not_refused(url: str) -> None:
    store = RedisGameStore.from_url(url, max_connections=10)
    try:
        game_id = await store.create_game({"n": 0}, chat_ids=[-1])
        results = await asyncio.gather(
            *(
                [store.get_game(game_id) for _ in range(100)]
                + [store.add_stats(-1, 5, wins=1) for _ in range(100)]
                + [store.chat_games(-1) for _ in range(100)]
            )
        )
        assert all(r is not None for r in results[:100])
        assert await store.get_stats(-1, 5) == Stats(wins=100)
        assert all(r == [game_id] for r in results[200:])
        if isinstance(store.redis, RedisCluster):
            nodes = store.redis.get_nodes()
            assert all(len(node._connections) <= 10 for node in nodes)
        else:
            pool: Any = store.redis.connection_pool
            assert pool.max_connections == 10
            assert len(pool._available_connections) + len(pool._in_use_connections) <= 10
    finally:
        await store.close()


def test_cluster_urls() -> None:
    assert cluster_startup_url("redis+cluster://10.0.0.1:7000") == "redis://10.0.0.1:7000"
    assert cluster_startup_url("rediss+cluster://u:p@h:7000") == "rediss://u:p@h:7000"
    assert cluster_startup_url("redis://h:6379/0") is None


async def test_open_store_understands_cluster_urls(redis_cluster_url: str, sqlite_path: str) -> None:
    store = open_store(redis_cluster_url, sqlite_path)
    try:
        assert isinstance(store, RedisGameStore) and store.is_cluster
        game_id = await store.create_game({"n": 0}, chat_ids=[-1])
        assert await store.chat_games(-1) == [game_id]
    finally:
        await store.close()


async def test_plain_client_on_a_cluster_fails_clearly_but_cluster_client_works(redis_cluster_url: str) -> None:
    # Keys of many slots: the cluster client follows the slot map ...
    store = RedisGameStore.from_url(redis_cluster_url)
    try:
        ids = [await store.create_game({"n": i}, chat_ids=[-i], user_ids=[i]) for i in range(1, 30)]
        for i, game_id in enumerate(ids, start=1):
            assert await store.user_games(i) == [game_id]
    finally:
        await store.close()
    # ... while a plain redis:// URL of one node gets MOVED for most keys: reported as unavailable, with the fix.
    startup = cluster_startup_url(redis_cluster_url)
    assert startup is not None
    plain = RedisGameStore.from_url(startup)
    try:
        with pytest.raises(StoreUnavailableError, match=r"redis\+cluster://"):
            for game_id in ids:
                await plain.get_game(game_id)
    finally:
        await plain.close()


# ---- persistence warning ------------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def start_redis(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """Start private redis-server processes with extra arguments; return their URLs."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    processes: list[subprocess.Popen[bytes]] = []

    def start(*args: str) -> str:
        port = _free_port()
        process = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path), *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        processes.append(process)
        client = Redis(port=port, socket_connect_timeout=0.2)
        for _ in range(200):  # wait until it answers (bounded; not a timing assertion)
            try:
                client.ping()
                break
            except RedisConnectionError:
                time.sleep(0.05)
        client.close()
        return f"redis://127.0.0.1:{port}/0"

    yield start
    for process in processes:
        process.terminate()
        process.wait(timeout=30)


async def test_persistence_warning_when_nothing_is_saved(start_redis: Callable[..., str]) -> None:
    store = RedisGameStore.from_url(start_redis("--save", "", "--appendonly", "no"))
    try:
        warning = await check_persistence(store)
        assert warning is not None and "appendonly" in warning
    finally:
        await store.close()


@pytest.mark.parametrize(
    "args",
    [("--save", "", "--appendonly", "yes"), ("--save", "3600 1", "--appendonly", "no")],
    ids=["aof", "rdb"],
)
async def test_no_persistence_warning_with_aof_or_rdb(start_redis: Callable[..., str], args: tuple[str, ...]) -> None:
    store = RedisGameStore.from_url(start_redis(*args))
    try:
        assert await check_persistence(store) is None
    finally:
        await store.close()


async def test_no_persistence_warning_when_config_is_not_allowed(start_redis: Callable[..., str]) -> None:
    store = RedisGameStore.from_url(start_redis("--save", "", "--appendonly", "no", "--rename-command", "CONFIG", ""))
    try:
        assert await check_persistence(store) is None
    finally:
        await store.close()


async def test_persistence_warning_on_the_test_cluster(redis_cluster_url: str) -> None:
    store = RedisGameStore.from_url(redis_cluster_url)
    try:
        warning = await check_persistence(store)  # scripts/redis-cluster.sh runs it without persistence
        assert warning is not None and "127.0.0.1:" in warning
    finally:
        await store.close()


async def test_no_persistence_warning_for_sqlite(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path)
    try:
        assert await check_persistence(store) is None
    finally:
        await store.close()


async def test_persistence_check_of_unreachable_redis_is_unavailable() -> None:
    store = RedisGameStore.from_url("redis://127.0.0.1:1/0", timeout=0.5)
    try:
        with pytest.raises(StoreUnavailableError):
            await check_persistence(store)
    finally:
        await store.close()


async def test_count_chat_games_checks_small_indices_and_trusts_large_ones(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_games, "COUNT_CHECK_LIMIT", 3)
    store = RedisGameStore.from_url(url)
    try:
        ids = [await store.create_game({"n": i}, chat_ids=[-1]) for i in range(3)]
        # A crash left the entry of a vanished game behind.
        await store.redis.zadd("nardy:chat:-1:games", {"vanished00": time.time() - 3600})
        assert await store.count_chat_games(-1) == 4  # above the limit: the index size, unchecked
        assert await store.chat_games(-1) == ids  # a listing repairs the index
        assert await store.count_chat_games(-1) == 3
        assert await store.finish_game(ids[0], 1, {}, ttl=60) == 2
        assert await store.count_chat_games(-1) == 2  # at most the limit: exact
    finally:
        await store.close()
