"""Fixtures of the Mini App server's tests: stores (SQLite file, or a flushed Redis database)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import RedisGameStore, SqliteGameStore


@pytest.fixture
async def sqlite_store(sqlite_path: str) -> AsyncIterator[SqliteGameStore]:
    """Yield an SQLite store on a fresh file."""
    store = SqliteGameStore(sqlite_path)
    yield store
    await store.close()


@pytest.fixture
async def redis_store(redis_url: str) -> AsyncIterator[RedisGameStore]:
    """Yield a Redis store on a flushed database."""
    store = RedisGameStore.from_url(redis_url)
    yield store
    await store.close()
