"""Choosing the store from the settings: Redis when ``REDIS_URL`` is set, else the embedded SQLite file."""

from __future__ import annotations

from pathlib import Path

from .redis import RedisGameStore
from .sqlite import SqliteGameStore
from .store import Store


def open_store(
    redis_url: str | None, embedded_path: str | Path, *, timeout: float = 5.0, max_connections: int = 50
) -> Store:
    """Return a Redis store for ``redis_url`` when it is set, else an SQLite store at ``embedded_path``.

    ``redis_url``: ``redis://host:port/db`` (one server) or ``redis+cluster://host:port`` (a Redis Cluster,
    any of its nodes); ``max_connections`` bounds the Redis connections (bursts wait for a free one up to
    ``timeout`` seconds). Neither store connects yet (call ``ping()`` to check). Raises nothing.
    """
    if redis_url:
        return RedisGameStore.from_url(redis_url, timeout=timeout, max_connections=max_connections)
    return SqliteGameStore(embedded_path, timeout=timeout)


async def check_persistence(store: Store) -> str | None:
    """Return a warning to log at start-up when the store keeps nothing on disk, else None.

    A Redis store warns when ``CONFIG GET appendonly`` is "no" and ``CONFIG GET save`` is empty (on a cluster:
    on any primary); None when the server does not allow CONFIG. The SQLite store always writes to its file.
    Raises: StoreUnavailableError when the back end cannot be reached.
    """
    if isinstance(store, RedisGameStore):
        return await store.persistence_warning()
    return None
