"""``GameStore`` on an SQLite file: the embedded default used when ``REDIS_URL`` is unset.

All database work runs on one dedicated worker thread with one connection, so operations are serialised;
each one is a single transaction (``BEGIN IMMEDIATE``), which makes the compare-and-set atomic even when
several processes share the file. Data survives a restart of the bot (WAL journal, ``synchronous=NORMAL``).
Expired rows are invisible to readers and purged from time to time.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from .base import UNSET, JSONDict, Stats, StoredChallenge, StoredGame
from .errors import GameNotFoundError, StoreUnavailableError, map_store_errors
from .ids import new_id

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    chat_ids TEXT NOT NULL,
    user_ids TEXT NOT NULL,
    deadline REAL,
    created_at REAL NOT NULL,
    finished_at REAL,
    expires_at REAL
);
CREATE INDEX IF NOT EXISTS games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_expires ON games (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS game_chats (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    chat_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, game_id)
);
CREATE TABLE IF NOT EXISTS game_users (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY,
    chat_id INTEGER,
    data TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_chat ON challenges (chat_id);
CREATE TABLE IF NOT EXISTS chat_settings (chat_id INTEGER PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS user_settings (user_id INTEGER PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stats (
    chat_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, user_id)
);
"""

PURGE_EVERY = 100
"""Expired rows are deleted on every this many writes."""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class SqliteGameStore:
    """A :class:`~bot.storage.base.GameStore` in one SQLite file (or ``":memory:"``, not persistent)."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time, timeout: float = 5.0) -> None:
        """Open (creating when missing, with parent directories) the database at ``path``; connects lazily."""
        self._path = str(path)
        self._clock = clock
        self._timeout = timeout
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nardy-sqlite")
        self._conn: sqlite3.Connection | None = None
        self._writes = 0
        self._closed = False

    # ---- plumbing ----------------------------------------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            if self._path != ":memory:":
                Path(self._path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self._path, timeout=self._timeout, isolation_level=None)
            self._enable_wal(conn)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.executescript(SCHEMA)
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

    def _maybe_purge(self, conn: sqlite3.Connection, now: float) -> None:
        self._writes += 1
        if self._writes % PURGE_EVERY == 0:
            conn.execute("DELETE FROM games WHERE expires_at IS NOT NULL AND expires_at <= ?", (now,))
            conn.execute("DELETE FROM challenges WHERE expires_at <= ?", (now,))

    # ---- games -------------------------------------------------------------------------------------------
    async def create_game(
        self,
        data: JSONDict,
        *,
        chat_ids: Iterable[int] = (),
        user_ids: Iterable[int] = (),
        deadline: float | None = None,
    ) -> str:
        """See :meth:`bot.storage.base.GameStore.create_game`."""
        chats, users = [int(c) for c in chat_ids], [int(u) for u in user_ids]
        record = _dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> str:
            self._maybe_purge(conn, now)
            while True:
                game_id = new_id()
                cur = conn.execute(
                    "INSERT OR IGNORE INTO games (id, version, data, chat_ids, user_ids, deadline,"
                    " created_at) VALUES (?, 1, ?, ?, ?, ?, ?)",
                    (game_id, record, _dumps(chats), _dumps(users), deadline, now),
                )
                if cur.rowcount == 1:
                    break
            conn.executemany("INSERT OR IGNORE INTO game_chats VALUES (?, ?)", [(game_id, c) for c in chats])
            conn.executemany("INSERT OR IGNORE INTO game_users VALUES (?, ?)", [(game_id, u) for u in users])
            return game_id

        return await self._run(op)

    def _live_row(self, conn: sqlite3.Connection, game_id: str, now: float) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = conn.execute(
            "SELECT version, data, finished, chat_ids, user_ids, deadline FROM games"
            " WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)",
            (game_id, now),
        ).fetchone()
        return row

    async def get_game(self, game_id: str) -> StoredGame | None:
        """See :meth:`bot.storage.base.GameStore.get_game`."""
        now = self._clock()
        row = await self._run(lambda conn: self._live_row(conn, game_id, now))
        if row is None:
            return None
        version, data, finished, chats, users, deadline = row
        return StoredGame(
            game_id=game_id,
            version=int(version),
            data=json.loads(data),
            finished=bool(finished),
            chat_ids=tuple(json.loads(chats)),
            user_ids=tuple(json.loads(users)),
            deadline=deadline,
        )

    async def update_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
    ) -> int | None:
        """See :meth:`bot.storage.base.GameStore.update_game`."""
        record = _dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> int | None:
            row = self._live_row(conn, game_id, now)
            if row is None:
                raise GameNotFoundError(game_id)
            if int(row[0]) != int(expected_version):
                return None
            new_version = int(expected_version) + 1
            if deadline is UNSET:
                conn.execute("UPDATE games SET version = ?, data = ? WHERE id = ?", (new_version, record, game_id))
            else:
                conn.execute(
                    "UPDATE games SET version = ?, data = ?, deadline = ? WHERE id = ?",
                    (new_version, record, deadline, game_id),
                )
            return new_version

        return await self._run(op)

    async def finish_game(self, game_id: str, expected_version: int, data: JSONDict, *, ttl: float) -> int | None:
        """See :meth:`bot.storage.base.GameStore.finish_game`."""
        record = _dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> int | None:
            self._maybe_purge(conn, now)
            row = self._live_row(conn, game_id, now)
            if row is None:
                raise GameNotFoundError(game_id)
            if int(row[0]) != int(expected_version) or row[2]:
                return None
            new_version = int(expected_version) + 1
            conn.execute(
                "UPDATE games SET version = ?, data = ?, finished = 1, deadline = NULL, finished_at = ?,"
                " expires_at = ? WHERE id = ?",
                (new_version, record, now, now + ttl, game_id),
            )
            return new_version

        return await self._run(op)

    async def _ids(self, sql: str, args: tuple[Any, ...]) -> list[str]:
        rows = await self._run(lambda conn: conn.execute(sql, args).fetchall())
        return [str(row[0]) for row in rows]

    async def chat_games(self, chat_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_games`."""
        return await self._ids(
            "SELECT g.id FROM game_chats c JOIN games g ON g.id = c.game_id"
            " WHERE c.chat_id = ? AND g.finished = 0 ORDER BY g.created_at, g.rowid",
            (chat_id,),
        )

    async def user_games(self, user_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.user_games`."""
        return await self._ids(
            "SELECT g.id FROM game_users u JOIN games g ON g.id = u.game_id"
            " WHERE u.user_id = ? AND g.finished = 0 ORDER BY g.created_at, g.rowid",
            (user_id,),
        )

    async def chat_history(self, chat_id: int, limit: int = 20) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_history`."""
        return await self._ids(
            "SELECT g.id FROM game_chats c JOIN games g ON g.id = c.game_id"
            " WHERE c.chat_id = ? AND g.finished = 1 AND g.expires_at > ?"
            " ORDER BY g.finished_at DESC, g.rowid DESC LIMIT ?",
            (chat_id, self._clock(), limit),
        )

    async def due_games(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.due_games`."""
        return await self._ids(
            "SELECT id FROM games WHERE finished = 0 AND deadline IS NOT NULL AND deadline <= ?"
            " ORDER BY deadline, rowid LIMIT ?",
            (now, limit),
        )

    # ---- challenges --------------------------------------------------------------------------------------
    async def create_challenge(self, data: JSONDict, *, ttl: float, chat_id: int | None = None) -> str:
        """See :meth:`bot.storage.base.GameStore.create_challenge`."""
        record = _dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> str:
            self._maybe_purge(conn, now)
            while True:
                challenge_id = new_id()
                cur = conn.execute(
                    "INSERT OR IGNORE INTO challenges (id, chat_id, data, created_at, expires_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (challenge_id, chat_id, record, now, now + ttl),
                )
                if cur.rowcount == 1:
                    return challenge_id

        return await self._run(op)

    async def get_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """See :meth:`bot.storage.base.GameStore.get_challenge`."""
        now = self._clock()
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT chat_id, data FROM challenges WHERE id = ? AND expires_at > ?", (challenge_id, now)
            ).fetchone()
        )
        if row is None:
            return None
        return StoredChallenge(challenge_id=challenge_id, data=json.loads(row[1]), chat_id=row[0])

    async def claim_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """See :meth:`bot.storage.base.GameStore.claim_challenge`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> tuple[Any, ...] | None:
            row: tuple[Any, ...] | None = conn.execute(
                "SELECT chat_id, data, expires_at FROM challenges WHERE id = ?", (challenge_id,)
            ).fetchone()
            if row is None:
                return None
            conn.execute("DELETE FROM challenges WHERE id = ?", (challenge_id,))
            return row if row[2] > now else None

        row = await self._run(op)
        if row is None:
            return None
        return StoredChallenge(challenge_id=challenge_id, data=json.loads(row[1]), chat_id=row[0])

    async def chat_challenges(self, chat_id: int) -> list[StoredChallenge]:
        """See :meth:`bot.storage.base.GameStore.chat_challenges`."""
        now = self._clock()
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT id, data FROM challenges WHERE chat_id = ? AND expires_at > ? ORDER BY expires_at, rowid",
                (chat_id, now),
            ).fetchall()
        )
        return [StoredChallenge(challenge_id=row[0], data=json.loads(row[1]), chat_id=chat_id) for row in rows]

    # ---- settings ----------------------------------------------------------------------------------------
    async def _get_json(self, table: str, column: str, key: int) -> JSONDict:
        row = await self._run(
            lambda conn: conn.execute(f"SELECT data FROM {table} WHERE {column} = ?", (key,)).fetchone()
        )
        return dict(json.loads(row[0])) if row else {}

    async def _set_json(self, table: str, column: str, key: int, value: Mapping[str, Any]) -> None:
        record = _dumps(dict(value))
        await self._run(
            lambda conn: conn.execute(f"INSERT OR REPLACE INTO {table} ({column}, data) VALUES (?, ?)", (key, record))
        )

    async def get_chat_settings(self, chat_id: int) -> JSONDict:
        """See :meth:`bot.storage.base.GameStore.get_chat_settings`."""
        return await self._get_json("chat_settings", "chat_id", chat_id)

    async def set_chat_settings(self, chat_id: int, settings: Mapping[str, Any]) -> None:
        """See :meth:`bot.storage.base.GameStore.set_chat_settings`."""
        await self._set_json("chat_settings", "chat_id", chat_id, settings)

    async def get_user_settings(self, user_id: int) -> JSONDict:
        """See :meth:`bot.storage.base.GameStore.get_user_settings`."""
        return await self._get_json("user_settings", "user_id", user_id)

    async def set_user_settings(self, user_id: int, settings: Mapping[str, Any]) -> None:
        """See :meth:`bot.storage.base.GameStore.set_user_settings`."""
        await self._set_json("user_settings", "user_id", user_id, settings)

    # ---- stats -------------------------------------------------------------------------------------------
    async def add_stats(self, chat_id: int, user_id: int, *, wins: int = 0, losses: int = 0, draws: int = 0) -> Stats:
        """See :meth:`bot.storage.base.GameStore.add_stats`."""

        def op(conn: sqlite3.Connection) -> tuple[int, int, int]:
            conn.execute(
                "INSERT INTO stats (chat_id, user_id, wins, losses, draws) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (chat_id, user_id) DO UPDATE SET wins = wins + excluded.wins,"
                " losses = losses + excluded.losses, draws = draws + excluded.draws",
                (chat_id, user_id, wins, losses, draws),
            )
            row: tuple[int, int, int] = conn.execute(
                "SELECT wins, losses, draws FROM stats WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)
            ).fetchone()
            return row

        w, lo, d = await self._run(op)
        return Stats(wins=w, losses=lo, draws=d)

    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        """See :meth:`bot.storage.base.GameStore.get_stats`."""
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT wins, losses, draws FROM stats WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)
            ).fetchone()
        )
        return Stats(*row) if row else Stats()

    async def chat_stats(self, chat_id: int) -> dict[int, Stats]:
        """See :meth:`bot.storage.base.GameStore.chat_stats`."""
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT user_id, wins, losses, draws FROM stats WHERE chat_id = ?", (chat_id,)
            ).fetchall()
        )
        return {int(row[0]): Stats(wins=row[1], losses=row[2], draws=row[3]) for row in rows}

    # ---- lifecycle ---------------------------------------------------------------------------------------
    async def ping(self) -> None:
        """See :meth:`bot.storage.base.GameStore.ping`."""
        await self._run(lambda conn: conn.execute("SELECT 1").fetchone())

    async def close(self) -> None:
        """See :meth:`bot.storage.base.GameStore.close`."""
        if self._closed:
            return
        self._closed = True

        def shutdown() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        await asyncio.get_running_loop().run_in_executor(self._executor, shutdown)
        self._executor.shutdown(wait=True)
