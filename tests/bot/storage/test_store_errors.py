"""Back-end failures surface as one ``StoreUnavailableError``."""

from __future__ import annotations

import sqlite3

import pytest
from redis.exceptions import ClusterDownError, MaxConnectionsError, MovedError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.storage import (
    GameNotFoundError,
    RedisGameStore,
    SqliteGameStore,
    StoreUnavailableError,
    map_store_errors,
    open_store,
)


@pytest.mark.parametrize(
    "exc",
    [RedisConnectionError("down"), RedisTimeoutError("slow"), ConnectionRefusedError(), TimeoutError()],
)
def test_map_store_errors_maps_connection_errors(exc: Exception) -> None:
    with pytest.raises(StoreUnavailableError) as info, map_store_errors():
        raise exc
    assert info.value.__cause__ is exc


def test_map_store_errors_keeps_other_errors() -> None:
    with pytest.raises(ValueError), map_store_errors():
        raise ValueError("bad")
    with pytest.raises(GameNotFoundError), map_store_errors():
        raise GameNotFoundError("x")


async def test_unreachable_redis_is_unavailable() -> None:
    store = RedisGameStore.from_url("redis://127.0.0.1:1/0", timeout=0.5)
    try:
        with pytest.raises(StoreUnavailableError):
            await store.get_game("abcdefghij")
        with pytest.raises(StoreUnavailableError):
            await store.ping()
    finally:
        await store.close()


async def test_closed_sqlite_store_is_unavailable(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path)
    await store.ping()
    await store.close()
    with pytest.raises(StoreUnavailableError):
        await store.get_game("abcdefghij")


async def test_locked_sqlite_maps_operational_error(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path, timeout=0.01)
    await store.ping()
    blocker = sqlite3.connect(sqlite_path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreUnavailableError):
            await store.create_game({})
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
        await store.close()


async def test_open_store_chooses_backend(redis_url: str, sqlite_path: str) -> None:
    redis_store = open_store(redis_url, sqlite_path)
    sqlite_store = open_store(None, sqlite_path)
    try:
        assert isinstance(redis_store, RedisGameStore)
        assert isinstance(sqlite_store, SqliteGameStore)
    finally:
        await redis_store.close()
        await sqlite_store.close()


@pytest.mark.parametrize(
    "exc",
    [
        MovedError("3999 127.0.0.1:6381"),
        ClusterDownError("CLUSTERDOWN The cluster is down"),
        MaxConnectionsError("Too many connections"),
    ],
)
def test_map_store_errors_maps_cluster_errors(exc: Exception) -> None:
    with pytest.raises(StoreUnavailableError) as info, map_store_errors():
        raise exc
    assert info.value.__cause__ is exc
    if isinstance(exc, MovedError):
        assert "redis+cluster://" in str(info.value)
