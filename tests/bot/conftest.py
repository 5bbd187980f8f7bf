"""Shared fixtures for the bot tests: stores (on the Redis database of ``tests/conftest.py``'s ``redis_url``).

Helpers (``BotApp``, ``build_app``) live in ``bot_testkit`` — import them from there, never ``from conftest``:
``tests/nardy`` has a conftest too, and which one ``conftest`` names depends on the collection order."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator

import pytest
from bot_testkit import BotApp, build_app
from virtual_time import VirtualClock

from bot.storage import RedisGameStore, SqliteGameStore, Store


@pytest.fixture
def sqlite_path(tmp_path: os.PathLike[str]) -> str:
    """Return the path of a fresh SQLite file for this test."""
    return os.path.join(os.fspath(tmp_path), "nardy.sqlite3")


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


@pytest.fixture(params=["sqlite", "redis"])
async def clocked_store(
    request: pytest.FixtureRequest, sqlite_path: str, redis_url: str
) -> AsyncIterator[tuple[Store, VirtualClock]]:
    """Yield a store of each back end whose clock (that of the board leases and the games' deadlines) the test
    moves, with that clock."""
    clock = VirtualClock(start=1_000_000.0)
    store: Store
    if request.param == "sqlite":
        store = SqliteGameStore(sqlite_path, clock=clock)
    else:
        store = RedisGameStore.from_url(redis_url, clock=clock)
    yield store, clock
    await store.close()


@pytest.fixture
async def app(sqlite_path: str) -> AsyncIterator[BotApp]:
    """Yield a bot on a fresh embedded (SQLite) store."""
    store = SqliteGameStore(sqlite_path)
    built = build_app(store)
    yield built
    await built.sender.close()
    await store.close()


@pytest.fixture(autouse=True)
def _telegram_accepts_every_text() -> Iterator[None]:
    """Fail any bot test in which the fake Bot API refused a text or caption as Telegram would (bad HTML or too
    long): the bot logs and swallows some of those errors, so the test would not notice otherwise."""
    modules = [sys.modules[name] for name in ("fake_telegram", "tests.bot.fake_telegram") if name in sys.modules]
    for module in modules:
        module.REJECTED.clear()
    yield
    rejected = [text for module in modules for text in module.REJECTED]
    assert not rejected, f"Telegram would refuse: {rejected}"
