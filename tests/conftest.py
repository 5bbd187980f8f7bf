"""Fixtures shared by every test folder: a dedicated, flushed Redis database per test (``redis_url``).

Several test processes may share one Redis server (engineers, CI jobs, the Mini App's browser tests beside the bot's):
each test reserves a database number in database 0 before it flushes and uses it."""

from __future__ import annotations

import itertools
import os
import time
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from redis import Redis

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
