"""Choosing the store from the settings: Redis when ``REDIS_URL`` is set, else the embedded SQLite file."""

from __future__ import annotations

from pathlib import Path

from .base import GameStore
from .redis_store import RedisGameStore
from .sqlite_store import SqliteGameStore


def open_store(redis_url: str | None, embedded_path: str | Path, *, timeout: float = 5.0) -> GameStore:
    """Return a Redis store for ``redis_url`` when it is set, else an SQLite store at ``embedded_path``.

    Neither connects yet (call ``ping()`` to check). Raises nothing.
    """
    if redis_url:
        return RedisGameStore.from_url(redis_url, timeout=timeout)
    return SqliteGameStore(embedded_path, timeout=timeout)
