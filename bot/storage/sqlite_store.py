"""``GameStore`` on an SQLite file: the embedded default used when ``REDIS_URL`` is unset.

All database work runs on one dedicated worker thread with one connection, so operations are serialised;
each one is a single transaction (``BEGIN IMMEDIATE``), which makes the compare-and-set atomic even when
several processes share the file. Data survives a restart of the bot (WAL journal, ``synchronous=NORMAL``).

Tables: ``games`` (one row per game: record, version, deadline, finished/expiry and quarantine columns),
``game_chats`` / ``game_users`` (which chats show a game, who plays it; indexed both ways), ``game_boards``
(board state per game and chat), ``board_claims`` (who may post a new board, ``claim_board``), ``challenges``,
``chat_settings`` / ``user_settings``, ``stats`` (counters per chat and user) and ``counted_games`` (which games
``add_game_stats`` counted in which chat). Rows of a game in the other game tables go with it (``ON DELETE
CASCADE``). ``tournaments`` (one row per tournament; a partial unique index on the chat of the unfinished ones
makes "one running tournament per chat" a constraint, so there is no separate pointer that could go stale),
``ratings`` (per variant and user), ``rated_matches`` (which match keys ``apply_ratings`` applied) and
``chat_rated_players`` (the chats' leaderboards).

Expired rows are invisible to readers; they are deleted only by ``purge_expired`` (in small batches, called
periodically by the bot), never inside another write. Files made by older versions get the new columns and
tables when opened.
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

from .base import (
    COUNTED_GAMES_RETENTION,
    RATED_MATCHES_RETENTION,
    TOURNAMENT_HISTORY_RETENTION,
    UNSET,
    BoardState,
    JSONDict,
    Stats,
    StoredChallenge,
    StoredGame,
    StoredRating,
    StoredTournament,
    UpdateClaim,
    check_rating_change,
    check_variant,
)
from .errors import GameNotFoundError, StoreUnavailableError, map_store_errors
from .ids import is_valid_id, new_id

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
    expires_at REAL,
    quarantined TEXT,
    quarantined_at REAL
);
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
CREATE TABLE IF NOT EXISTS game_boards (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    chat_id INTEGER NOT NULL,
    message_id INTEGER,
    shown_version INTEGER NOT NULL,
    PRIMARY KEY (game_id, chat_id)
);
CREATE TABLE IF NOT EXISTS board_claims (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    chat_id INTEGER NOT NULL,
    owner TEXT NOT NULL,
    until REAL NOT NULL,
    replaces INTEGER,
    PRIMARY KEY (game_id, chat_id)
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
CREATE TABLE IF NOT EXISTS counted_games (
    chat_id INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (chat_id, game_id)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    chat_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    deadline REAL,
    created_at REAL NOT NULL,
    finished_at REAL,
    expires_at REAL
);
CREATE TABLE IF NOT EXISTS ratings (
    variant TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    rating REAL NOT NULL,
    experience INTEGER NOT NULL,
    matches INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (variant, user_id)
);
CREATE TABLE IF NOT EXISTS rated_matches (
    variant TEXT NOT NULL,
    match_key TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (variant, match_key)
);
CREATE TABLE IF NOT EXISTS updates (
    update_id INTEGER PRIMARY KEY,
    state TEXT NOT NULL,
    expires_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chat_rated_players (
    chat_id INTEGER NOT NULL,
    variant TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, variant, user_id)
);
"""

ADDED_COLUMNS = {"games": (("quarantined", "TEXT"), ("quarantined_at", "REAL"))}
"""Columns added since the first schema: added to files made by older versions when they are opened."""

INDEXES = """
CREATE INDEX IF NOT EXISTS games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_expires ON games (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_quarantined ON games (quarantined_at) WHERE quarantined IS NOT NULL;
CREATE INDEX IF NOT EXISTS game_chats_game ON game_chats (game_id);
CREATE INDEX IF NOT EXISTS game_users_game ON game_users (game_id);
CREATE INDEX IF NOT EXISTS challenges_expires ON challenges (expires_at);
CREATE INDEX IF NOT EXISTS counted_games_at ON counted_games (at);
CREATE UNIQUE INDEX IF NOT EXISTS tournaments_running ON tournaments (chat_id) WHERE finished = 0;
CREATE INDEX IF NOT EXISTS tournaments_history ON tournaments (chat_id, finished_at) WHERE finished = 1;
CREATE INDEX IF NOT EXISTS tournaments_deadline ON tournaments (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS tournaments_expires ON tournaments (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS rated_matches_at ON rated_matches (at);
"""
"""Indexes (created after the columns they use). ``game_chats_game`` and ``game_users_game`` serve the cascading
deletes of ``purge_expired``: without them every deleted game scans both tables."""

LIVE = "(expires_at IS NULL OR expires_at > ?)"
"""SQL condition: the game row has not expired (one parameter: now)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _delete_some(conn: sqlite3.Connection, *, jobs: tuple[tuple[str, tuple[Any, ...]], ...]) -> list[int]:
    """Run batched DELETEs (SQL, arguments) and return how many rows each deleted."""
    return [int(conn.execute(sql, args).rowcount) for sql, args in jobs]


class SqliteGameStore:
    """A :class:`~bot.storage.base.GameStore` in one SQLite file (or ``":memory:"``, not persistent)."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time, timeout: float = 5.0) -> None:
        """Open (creating when missing, with parent directories) the database at ``path``; connects lazily."""
        self._path = str(path)
        self._clock = clock
        self._timeout = timeout
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nardy-sqlite")
        self._conn: sqlite3.Connection | None = None
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
            self._add_missing_columns(conn)
            conn.executescript(INDEXES)
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

    @staticmethod
    def _add_missing_columns(conn: sqlite3.Connection) -> None:
        """Add the columns of :data:`ADDED_COLUMNS` that a file made by an older version lacks."""
        for table, columns in ADDED_COLUMNS.items():
            present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            for name, sql_type in columns:
                if name not in present:
                    try:
                        conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {sql_type}")
                    except sqlite3.OperationalError as exc:  # another process added it first
                        if "duplicate column" not in str(exc):
                            raise

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

    # ---- games -------------------------------------------------------------------------------------------
    async def create_game(
        self,
        data: JSONDict,
        *,
        game_id: str | None = None,
        chat_ids: Iterable[int] = (),
        user_ids: Iterable[int] = (),
        deadline: float | None = None,
    ) -> str:
        """See :meth:`bot.storage.base.GameStore.create_game`."""
        if game_id is not None and not is_valid_id(game_id):
            raise ValueError(f"malformed game id {game_id!r}: expected 10 characters of [A-Za-z0-9_-]")
        chats, users = [int(c) for c in chat_ids], [int(u) for u in user_ids]
        record = _dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> str:
            while True:
                candidate = game_id or new_id()
                cur = conn.execute(
                    "INSERT OR IGNORE INTO games (id, version, data, chat_ids, user_ids, deadline,"
                    " created_at) VALUES (?, 1, ?, ?, ?, ?, ?)",
                    (candidate, record, _dumps(chats), _dumps(users), deadline, now),
                )
                if cur.rowcount == 1:
                    break
                if game_id is not None:
                    return game_id  # created before (a retry): its rows are complete, nothing is written
            conn.executemany("INSERT OR IGNORE INTO game_chats VALUES (?, ?)", [(candidate, c) for c in chats])
            conn.executemany("INSERT OR IGNORE INTO game_users VALUES (?, ?)", [(candidate, u) for u in users])
            return candidate

        return await self._run(op)

    def _live_row(self, conn: sqlite3.Connection, game_id: str, now: float) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = conn.execute(
            "SELECT version, data, finished, chat_ids, user_ids, deadline, quarantined IS NOT NULL FROM games"
            f" WHERE id = ? AND {LIVE}",
            (game_id, now),
        ).fetchone()
        return row

    async def get_game(self, game_id: str) -> StoredGame | None:
        """See :meth:`bot.storage.base.GameStore.get_game`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> tuple[tuple[Any, ...] | None, list[Any]]:
            row = self._live_row(conn, game_id, now)
            if row is None:
                return None, []
            boards = conn.execute(
                "SELECT chat_id, message_id, shown_version FROM game_boards WHERE game_id = ?", (game_id,)
            ).fetchall()
            return row, boards

        row, boards = await self._run(op)
        if row is None:
            return None
        version, data, finished, chats, users, deadline, quarantined = row
        return StoredGame(
            game_id=game_id,
            version=int(version),
            data=json.loads(data),
            finished=bool(finished),
            chat_ids=tuple(json.loads(chats)),
            user_ids=tuple(json.loads(users)),
            deadline=deadline,
            boards={
                int(chat): BoardState(chat_id=int(chat), message_id=message_id, shown_version=int(shown))
                for chat, message_id, shown in boards
            },
            quarantined=bool(quarantined),
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

    async def finish_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        ttl: float,
        deadline: float | None = None,
    ) -> int | None:
        """See :meth:`bot.storage.base.GameStore.finish_game`."""
        record = _dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> int | None:
            row = self._live_row(conn, game_id, now)
            if row is None:
                raise GameNotFoundError(game_id)
            if int(row[0]) != int(expected_version) or row[2]:
                return None
            new_version = int(expected_version) + 1
            conn.execute(
                "UPDATE games SET version = ?, data = ?, finished = 1, deadline = ?, finished_at = ?,"
                " expires_at = ? WHERE id = ?",
                (new_version, record, deadline, now, now + ttl, game_id),
            )
            return new_version

        return await self._run(op)

    async def set_deadline(self, game_id: str, expected_version: int, deadline: float | None) -> bool:
        """See :meth:`bot.storage.base.GameStore.set_deadline`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                f"UPDATE games SET deadline = ? WHERE id = ? AND version = ? AND {LIVE}",
                (deadline, game_id, int(expected_version), now),
            )
            return cur.rowcount == 1

        return await self._run(op)

    async def set_board(self, game_id: str, chat_id: int, message_id: int | None, shown_version: int) -> bool:
        """See :meth:`bot.storage.base.GameStore.set_board`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> bool:
            if self._live_row(conn, game_id, now) is None:
                return False
            cur = conn.execute(
                "INSERT INTO game_boards (game_id, chat_id, message_id, shown_version) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, chat_id) DO UPDATE SET message_id = excluded.message_id,"
                " shown_version = excluded.shown_version WHERE excluded.shown_version >= game_boards.shown_version",
                (game_id, int(chat_id), message_id, int(shown_version)),
            )
            return cur.rowcount == 1

        return await self._run(op)

    async def claim_board(self, game_id: str, chat_id: int, message_id: int | None, owner: str, lease: float) -> bool:
        """See :meth:`bot.storage.base.GameStore.claim_board`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> bool:
            if self._live_row(conn, game_id, now) is None:
                return False
            board = conn.execute(
                "SELECT message_id FROM game_boards WHERE game_id = ? AND chat_id = ?", (game_id, int(chat_id))
            ).fetchone()
            if board is not None and board[0] != message_id:
                return False
            claim = conn.execute(
                "SELECT owner, until, replaces FROM board_claims WHERE game_id = ? AND chat_id = ?",
                (game_id, int(chat_id)),
            ).fetchone()
            if claim is not None and claim[0] != owner and claim[1] > now and claim[2] == message_id:
                return False
            if lease > 0:
                conn.execute(
                    "INSERT INTO board_claims (game_id, chat_id, owner, until, replaces) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (game_id, chat_id) DO UPDATE SET owner = excluded.owner, until = excluded.until,"
                    " replaces = excluded.replaces",
                    (game_id, int(chat_id), owner, now + lease, message_id),
                )
            return True

        return await self._run(op)

    async def quarantine_game(self, game_id: str, reason: str) -> None:
        """See :meth:`bot.storage.base.GameStore.quarantine_game`."""
        now = self._clock()
        await self._run(
            lambda conn: conn.execute(
                "UPDATE games SET quarantined = ?, quarantined_at = COALESCE(quarantined_at, ?)"
                f" WHERE id = ? AND {LIVE}",
                (str(reason), now, game_id, now),
            )
        )

    async def quarantined_games(self) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.quarantined_games`."""
        return await self._ids(
            f"SELECT id FROM games WHERE quarantined IS NOT NULL AND {LIVE} ORDER BY quarantined_at, rowid",
            (self._clock(),),
        )

    async def _ids(self, sql: str, args: tuple[Any, ...]) -> list[str]:
        rows = await self._run(lambda conn: conn.execute(sql, args).fetchall())
        return [str(row[0]) for row in rows]

    async def chat_games(self, chat_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_games`."""
        return await self._ids(
            "SELECT g.id FROM game_chats c JOIN games g ON g.id = c.game_id"
            " WHERE c.chat_id = ? AND g.finished = 0 AND g.quarantined IS NULL ORDER BY g.created_at, g.rowid",
            (chat_id,),
        )

    async def user_games(self, user_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.user_games`."""
        return await self._ids(
            "SELECT g.id FROM game_users u JOIN games g ON g.id = u.game_id"
            " WHERE u.user_id = ? AND g.finished = 0 AND g.quarantined IS NULL ORDER BY g.created_at, g.rowid",
            (user_id,),
        )

    async def user_chat_games(self, chat_id: int, user_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.user_chat_games`.

        Starts from the user's games (primary key of ``game_users``) and looks each up in the chat (primary key
        of ``game_chats``), so the chat's other games are never read.
        """
        return await self._ids(
            "SELECT g.id FROM game_users u CROSS JOIN game_chats c ON c.chat_id = ? AND c.game_id = u.game_id"
            " JOIN games g ON g.id = u.game_id"
            " WHERE u.user_id = ? AND g.finished = 0 AND g.quarantined IS NULL ORDER BY g.created_at, g.rowid",
            (chat_id, user_id),
        )

    async def count_chat_games(self, chat_id: int) -> int:
        """See :meth:`bot.storage.base.GameStore.count_chat_games`."""
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT COUNT(*) FROM game_chats c JOIN games g ON g.id = c.game_id"
                " WHERE c.chat_id = ? AND g.finished = 0 AND g.quarantined IS NULL",
                (chat_id,),
            ).fetchone()
        )
        return int(row[0])

    async def chat_history(self, chat_id: int, limit: int = 20) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_history`."""
        return await self._ids(
            "SELECT g.id FROM game_chats c JOIN games g ON g.id = c.game_id"
            " WHERE c.chat_id = ? AND g.finished = 1 AND g.expires_at > ? AND g.quarantined IS NULL"
            " ORDER BY g.finished_at DESC, g.rowid DESC LIMIT ?",
            (chat_id, self._clock(), limit),
        )

    async def due_games(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.due_games`."""
        return await self._ids(
            "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= ? AND quarantined IS NULL"
            f" AND {LIVE} ORDER BY deadline, rowid LIMIT ?",
            (now, self._clock(), limit),
        )

    # ---- tournaments -------------------------------------------------------------------------------------
    async def create_tournament(
        self,
        chat_id: int,
        data: JSONDict,
        *,
        tournament_id: str | None = None,
        deadline: float | None = None,
    ) -> str | None:
        """See :meth:`bot.storage.base.GameStore.create_tournament`."""
        if tournament_id is not None and not is_valid_id(tournament_id):
            raise ValueError(f"malformed tournament id {tournament_id!r}: expected 10 characters of [A-Za-z0-9_-]")
        chat_id = int(chat_id)
        record = _dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> str | None:
            if tournament_id is not None:
                # An expired row (not purged yet) is gone for readers: it must not block its id.
                conn.execute(f"DELETE FROM tournaments WHERE id = ? AND NOT {LIVE}", (tournament_id, now))
                if conn.execute("SELECT 1 FROM tournaments WHERE id = ?", (tournament_id,)).fetchone():
                    return tournament_id  # created before (a retry): nothing is overwritten
            if conn.execute("SELECT 1 FROM tournaments WHERE chat_id = ? AND finished = 0", (chat_id,)).fetchone():
                return None
            while True:
                candidate = tournament_id or new_id()
                cur = conn.execute(
                    "INSERT OR IGNORE INTO tournaments (id, chat_id, version, data, deadline, created_at)"
                    " VALUES (?, ?, 1, ?, ?, ?)",
                    (candidate, chat_id, record, deadline, now),
                )
                if cur.rowcount == 1:
                    return candidate

        return await self._run(op)

    async def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        """See :meth:`bot.storage.base.GameStore.get_tournament`."""
        now = self._clock()
        row = await self._run(
            lambda conn: conn.execute(
                f"SELECT version, data, chat_id, finished, deadline FROM tournaments WHERE id = ? AND {LIVE}",
                (tournament_id, now),
            ).fetchone()
        )
        if row is None:
            return None
        version, data, chat_id, finished, deadline = row
        return StoredTournament(
            tournament_id=tournament_id,
            version=int(version),
            data=json.loads(data),
            chat_id=int(chat_id),
            finished=bool(finished),
            deadline=deadline,
        )

    async def update_tournament(
        self,
        tournament_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
        finished: bool = False,
    ) -> int | None:
        """See :meth:`bot.storage.base.GameStore.update_tournament`."""
        record = _dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> int | None:
            row = conn.execute(
                f"SELECT version, finished FROM tournaments WHERE id = ? AND {LIVE}", (tournament_id, now)
            ).fetchone()
            if row is None:
                raise GameNotFoundError(tournament_id)
            if int(row[0]) != int(expected_version):
                return None
            new_version = int(expected_version) + 1
            conn.execute(
                "UPDATE tournaments SET version = ?, data = ? WHERE id = ?", (new_version, record, tournament_id)
            )
            if deadline is not UNSET:
                conn.execute("UPDATE tournaments SET deadline = ? WHERE id = ?", (deadline, tournament_id))
            if finished and not row[1]:
                conn.execute(
                    "UPDATE tournaments SET finished = 1, finished_at = ?, expires_at = ? WHERE id = ?",
                    (now, now + TOURNAMENT_HISTORY_RETENTION, tournament_id),
                )
            return new_version

        return await self._run(op)

    async def set_tournament_deadline(self, tournament_id: str, expected_version: int, deadline: float | None) -> bool:
        """See :meth:`bot.storage.base.GameStore.set_tournament_deadline`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                f"UPDATE tournaments SET deadline = ? WHERE id = ? AND version = ? AND {LIVE}",
                (deadline, tournament_id, int(expected_version), now),
            )
            return cur.rowcount == 1

        return await self._run(op)

    async def chat_tournament(self, chat_id: int) -> str | None:
        """See :meth:`bot.storage.base.GameStore.chat_tournament`."""
        ids = await self._ids("SELECT id FROM tournaments WHERE chat_id = ? AND finished = 0", (int(chat_id),))
        return ids[0] if ids else None

    async def chat_tournament_history(self, chat_id: int, limit: int = 10) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_tournament_history`."""
        return await self._ids(
            "SELECT id FROM tournaments WHERE chat_id = ? AND finished = 1 AND expires_at > ?"
            " ORDER BY finished_at DESC, rowid DESC LIMIT ?",
            (int(chat_id), self._clock(), max(0, int(limit))),
        )

    async def due_tournaments(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.due_tournaments`."""
        return await self._ids(
            f"SELECT id FROM tournaments WHERE deadline IS NOT NULL AND deadline <= ? AND {LIVE}"
            " ORDER BY deadline, rowid LIMIT ?",
            (now, self._clock(), limit),
        )

    # ---- ratings -----------------------------------------------------------------------------------------
    async def get_ratings(self, variant: str, user_ids: Iterable[int]) -> dict[int, StoredRating]:
        """See :meth:`bot.storage.base.GameStore.get_ratings`."""
        check_variant(variant)
        users = list(dict.fromkeys(int(u) for u in user_ids))
        if not users:
            return {}

        def op(conn: sqlite3.Connection) -> list[Any]:
            marks = ",".join("?" * len(users))
            return conn.execute(
                "SELECT user_id, rating, experience, matches, name FROM ratings"
                f" WHERE variant = ? AND user_id IN ({marks})",
                (variant, *users),
            ).fetchall()

        found = {
            int(user): StoredRating(rating=float(rating), experience=int(exp), matches=int(matches), name=str(name))
            for user, rating, exp, matches, name in await self._run(op)
        }
        return {user: found.get(user, StoredRating()) for user in users}

    async def apply_ratings(
        self,
        variant: str,
        match_key: str,
        expected: Mapping[int, int],
        new: Mapping[int, StoredRating],
        *,
        chat_id: int | None = None,
    ) -> bool | None:
        """See :meth:`bot.storage.base.GameStore.apply_ratings`."""
        check_variant(variant)
        users = check_rating_change(expected, new)
        wanted = {int(u): int(m) for u, m in expected.items()}
        rows = [
            (variant, int(u), float(r.rating), int(r.experience), int(r.matches), str(r.name)) for u, r in new.items()
        ]
        now = self._clock()

        def op(conn: sqlite3.Connection) -> bool | None:
            applied = conn.execute(
                "SELECT 1 FROM rated_matches WHERE variant = ? AND match_key = ?", (variant, str(match_key))
            ).fetchone()
            if applied:
                result = False
            else:
                for user in users:
                    row = conn.execute(
                        "SELECT matches FROM ratings WHERE variant = ? AND user_id = ?", (variant, user)
                    ).fetchone()
                    if (int(row[0]) if row else 0) != wanted[user]:
                        return None
                conn.executemany(
                    "INSERT OR REPLACE INTO ratings (variant, user_id, rating, experience, matches, name)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
                conn.execute(
                    "INSERT INTO rated_matches (variant, match_key, at) VALUES (?, ?, ?)",
                    (variant, str(match_key), now),
                )
                result = True
            if chat_id is not None:
                conn.executemany(
                    "INSERT OR IGNORE INTO chat_rated_players (chat_id, variant, user_id) VALUES (?, ?, ?)",
                    [(int(chat_id), variant, user) for user in users],
                )
            return result

        return await self._run(op)

    async def chat_rated_players(self, chat_id: int, variant: str) -> list[int]:
        """See :meth:`bot.storage.base.GameStore.chat_rated_players`."""
        check_variant(variant)
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT user_id FROM chat_rated_players WHERE chat_id = ? AND variant = ?", (int(chat_id), variant)
            ).fetchall()
        )
        return [int(row[0]) for row in rows]

    # ---- challenges --------------------------------------------------------------------------------------
    async def create_challenge(self, data: JSONDict, *, ttl: float, chat_id: int | None = None) -> str:
        """See :meth:`bot.storage.base.GameStore.create_challenge`."""
        record = _dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> str:
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

    async def add_game_stats(self, chat_id: int, game_id: str, deltas: Mapping[int, tuple[int, int, int]]) -> bool:
        """See :meth:`bot.storage.base.GameStore.add_game_stats`."""
        rows = [(int(chat_id), int(user), int(w), int(lo), int(d)) for user, (w, lo, d) in deltas.items()]
        now = self._clock()

        def op(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "INSERT OR IGNORE INTO counted_games (chat_id, game_id, at) VALUES (?, ?, ?)",
                (int(chat_id), str(game_id), now),
            )
            if cur.rowcount != 1:
                return False
            conn.executemany(
                "INSERT INTO stats (chat_id, user_id, wins, losses, draws) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (chat_id, user_id) DO UPDATE SET wins = wins + excluded.wins,"
                " losses = losses + excluded.losses, draws = draws + excluded.draws",
                rows,
            )
            return True

        return await self._run(op)

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
    async def purge_expired(self, batch: int = 500) -> int:
        """See :meth:`bot.storage.base.GameStore.purge_expired`.

        Deletes expired games (with their chat, user and board rows), expired challenges and tournaments,
        counted-game entries older than :data:`~bot.storage.base.COUNTED_GAMES_RETENTION` and applied match keys
        older than :data:`~bot.storage.base.RATED_MATCHES_RETENTION`, at most ``batch`` rows of each per
        transaction; other operations queued meanwhile run between two transactions.
        Returns: the number of rows deleted (games, challenges, tournaments, counted-game and applied-match
            entries; not the cascaded rows).
        """
        limit = max(1, int(batch))
        expired = (
            "DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table}"
            " WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?)"
        )
        old_keys = "DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} WHERE at <= ? LIMIT ?)"
        # Each transaction deletes at most ``limit`` rows of each table of one group (records; challenges; keys).
        groups: tuple[tuple[tuple[str, float], ...], ...] = (
            ((expired.format(table="games"), 0.0), (expired.format(table="tournaments"), 0.0)),
            ((expired.format(table="challenges"), 0.0), (expired.format(table="updates"), 0.0)),
            (
                (old_keys.format(table="counted_games"), COUNTED_GAMES_RETENTION),
                (old_keys.format(table="rated_matches"), RATED_MATCHES_RETENTION),
            ),
        )
        total = 0
        for group in groups:
            pending = list(group)
            while pending:
                now = self._clock()
                jobs = tuple((sql, (now - retention, limit)) for sql, retention in pending)
                counts = await self._run(partial(_delete_some, jobs=jobs))
                total += sum(counts)
                pending = [job for job, deleted in zip(pending, counts, strict=True) if deleted >= limit]
        return total

    async def active_game_count(self) -> int:
        """See :meth:`bot.storage.base.GameStore.active_game_count`."""
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT COUNT(*) FROM games WHERE finished = 0 AND quarantined IS NULL"
            ).fetchone()
        )
        return int(row[0])

    async def claim_update(self, update_id: int, *, lease: float) -> UpdateClaim:
        """See :meth:`bot.storage.base.GameStore.claim_update`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> UpdateClaim:
            row = conn.execute(
                "SELECT state FROM updates WHERE update_id = ? AND expires_at > ?", (update_id, now)
            ).fetchone()
            if row is not None:
                return "done" if row[0] == "done" else "running"
            conn.execute(
                "INSERT OR REPLACE INTO updates (update_id, state, expires_at) VALUES (?, 'running', ?)",
                (update_id, now + lease),
            )
            return "new"

        return await self._run(op)

    async def finish_update(self, update_id: int, *, ttl: float) -> None:
        """See :meth:`bot.storage.base.GameStore.finish_update`."""
        expires = self._clock() + ttl
        await self._run(
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO updates (update_id, state, expires_at) VALUES (?, 'done', ?)",
                (update_id, expires),
            )
        )

    async def release_update(self, update_id: int) -> None:
        """See :meth:`bot.storage.base.GameStore.release_update`."""
        await self._run(lambda conn: conn.execute("DELETE FROM updates WHERE update_id = ?", (update_id,)))

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
