"""Shared fixtures for the bot tests: a dedicated, flushed Redis database per test, and stores."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from redis import Redis

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379").rstrip("/")
FIRST_DB, LAST_DB = 1, 15
"""The bot tests use Redis databases 1..15 in turn (database 0 is left alone); each is flushed before and after."""

_db_numbers = itertools.cycle(range(FIRST_DB, LAST_DB + 1))


def _base_url() -> str:
    """Return REDIS_URL without its database number (``redis://host:port``)."""
    parts = urlsplit(REDIS_URL)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


@pytest.fixture
def redis_url() -> Iterator[str]:
    """Yield the URL of a Redis database reserved for this test, flushed before and after it."""
    url = f"{_base_url()}/{next(_db_numbers)}"
    client = Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


@pytest.fixture
def sqlite_path(tmp_path: os.PathLike[str]) -> str:
    """Return the path of a fresh SQLite file for this test."""
    return os.path.join(os.fspath(tmp_path), "nardy.sqlite3")
