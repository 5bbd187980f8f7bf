"""The connection of the SQLite back end: one worker thread, one connection, one transaction per operation.

All database work runs on one dedicated worker thread with one connection, so operations are serialised;
each one is a single transaction (``BEGIN IMMEDIATE``), which makes the compare-and-set atomic even when
several processes share the file. Data survives a restart of the bot (WAL journal, ``synchronous=NORMAL``).
:class:`SqliteConnection` is the base of every aggregate's class (``games.py``, ``tournaments.py``, ...); the store
(:class:`~bot.storage.sqlite.store.SqliteGameStore`) combines them over one connection.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from ..errors import StoreUnavailableError, map_store_errors
from .schema import prepare

T = TypeVar("T")


class SqliteConnection:
    """One SQLite file (or ``":memory:"``, not persistent) served by one worker thread."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time, timeout: float = 5.0) -> None:
        """Open (creating when missing, with parent directories) the database at ``path``; connects lazily."""
        self._path = str(path)
        self._clock = clock
        self._timeout = timeout
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nardy-sqlite")
        self._conn: sqlite3.Connection | None = None
        self._closed = False

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            if self._path != ":memory:":
                Path(self._path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self._path, timeout=self._timeout, isolation_level=None)
            self._enable_wal(conn)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            prepare(conn)
            self._conn = conn
        return self._conn

    def _enable_wal(self, conn: sqlite3.Connection) -> None:
        """Switch the file to WAL. Switching does not wait on SQLite's busy handler (two processes opening a new
        file at once get "database is locked" at once), so it is retried here until the store timeout."""
        give_up = time.monotonic() + self._timeout
        while True:
            try:
                if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError:
                if time.monotonic() >= give_up:
                    conn.close()
                    raise
                time.sleep(0.01)

    def _tx(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = fn(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return result

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        if self._closed:
            raise StoreUnavailableError("the store is closed")
        loop = asyncio.get_running_loop()
        with map_store_errors():
            return await loop.run_in_executor(self._executor, partial(self._tx, fn))

    async def _ids(self, sql: str, args: tuple[Any, ...]) -> list[str]:
        rows = await self._run(lambda conn: conn.execute(sql, args).fetchall())
        return [str(row[0]) for row in rows]
