"""Shared fixtures for the bot tests: a dedicated, flushed Redis database per test, and stores.

Helpers (``BotApp``, ``build_app``) live in ``bot_testkit`` — import them from there, never ``from conftest``:
``tests/nardy`` has a conftest too, and which one ``conftest`` names depends on the collection order."""

from __future__ import annotations

import itertools
import os
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from bot_testkit import BotApp, build_app
from redis import Redis

from bot.storage import RedisGameStore, SqliteGameStore

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379").rstrip("/")
FIRST_DB, LAST_DB = 1, 15
"""The bot tests use Redis databases 1..15 (database 0 only holds the reservations below)."""
RESERVATION_KEY = "nardy-tests:db-reserved:{db}"
"""Key in database 0 that reserves a database number for one test, so that test runs in parallel processes
(several engineers, or CI jobs sharing a server) never flush each other's database."""
RESERVATION_SECONDS = 600

_db_numbers = itertools.cycle(range(FIRST_DB, LAST_DB + 1))


def _base_url() -> str:
    """Return REDIS_URL without its database number (``redis://host:port``)."""
    parts = urlsplit(REDIS_URL)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def _reserve_db(admin: Redis, token: str) -> int:
    """Return a database number reserved for ``token`` (waits while all 15 are taken by other processes)."""
    while True:
        for _ in range(LAST_DB - FIRST_DB + 1):
            db = next(_db_numbers)
            if admin.set(RESERVATION_KEY.format(db=db), token, nx=True, ex=RESERVATION_SECONDS):
                return db
        time.sleep(0.1)


@pytest.fixture
def redis_url() -> Iterator[str]:
    """Yield the URL of a Redis database reserved for this test, flushed before and after it."""
    admin = Redis.from_url(f"{_base_url()}/0")
    token = f"{os.getpid()}:{uuid.uuid4().hex}"
    db = _reserve_db(admin, token)
    url = f"{_base_url()}/{db}"
    client = Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()
        key = RESERVATION_KEY.format(db=db)
        if admin.get(key) == token.encode():
            admin.delete(key)
        admin.close()


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
