"""Shared fixtures for the bot tests: a dedicated, flushed Redis database per test, and stores."""

from __future__ import annotations

import itertools
import os
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import pytest
from aiogram import Bot, Dispatcher, Router
from fake_telegram import BOT_TOKEN, FakeTelegram, TelegramHarness
from pydantic import SecretStr
from redis import Redis
from virtual_time import VirtualClock

from bot.app import create_dispatcher
from bot.config import Settings
from bot.sender import Sender
from bot.storage import GameStore, SqliteGameStore

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


@dataclass
class BotApp:
    """A whole bot wired for tests: fake Telegram, real Bot and Dispatcher, a store and a virtual-time sender."""

    fake: FakeTelegram
    bot: Bot
    dp: Dispatcher
    store: GameStore
    sender: Sender
    settings: Settings
    clock: VirtualClock
    h: TelegramHarness


def build_app(store: GameStore, *, fake: FakeTelegram | None = None, extra_routers: Sequence[Router] = ()) -> BotApp:
    """Return a :class:`BotApp` on ``store`` (a new fake Telegram unless one is given)."""
    fake = fake or FakeTelegram()
    bot = fake.make_bot()
    clock = VirtualClock()
    sender = Sender(bot, clock=clock, sleep=clock.sleep)
    settings = Settings(bot_token=SecretStr(BOT_TOKEN), _env_file=None)  # type: ignore[call-arg]
    dp = create_dispatcher(store, settings, sender=sender, extra_routers=extra_routers)
    return BotApp(fake, bot, dp, store, sender, settings, clock, TelegramHarness(fake, bot, dp))


@pytest.fixture
async def app(sqlite_path: str) -> AsyncIterator[BotApp]:
    """Yield a bot on a fresh embedded (SQLite) store."""
    store = SqliteGameStore(sqlite_path)
    built = build_app(store)
    yield built
    await built.sender.close()
    await store.close()
