"""Games on SQLite (:class:`~bot.storage.games.GameRecords`): the ``games`` table and its chat, user, board and
claim tables; versions and deadlines through :class:`~bot.storage.sqlite.versioned.VersionedTable`."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from ..documents import UNSET, JSONDict
from ..games import BoardFence, BoardState, StoredGame
from ..ids import is_valid_id, new_id
from .connection import SqliteConnection
from .versioned import LIVE, VersionedTable, dumps

GAME_COLUMNS = "version, data, finished, chat_ids, user_ids, deadline, quarantined IS NOT NULL"
"""The columns of a game row that ``get_game`` reads."""

GAMES = VersionedTable("games", due_filter="quarantined IS NULL")
"""The games table as versioned documents (a quarantined game is never due)."""


class SqliteGames(SqliteConnection):
    """The games of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def create_game(
        self,
        data: JSONDict,
        *,
        game_id: str | None = None,
        chat_ids: Iterable[int] = (),
        user_ids: Iterable[int] = (),
        deadline: float | None = None,
    ) -> str:
        """See :meth:`bot.storage.games.GameRecords.create_game`."""
        if game_id is not None and not is_valid_id(game_id):
            raise ValueError(f"malformed game id {game_id!r}: expected 10 characters of [A-Za-z0-9_-]")
        chats, users = [int(c) for c in chat_ids], [int(u) for u in user_ids]
        record = dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> str:
            while True:
                candidate = game_id or new_id()
                cur = conn.execute(
                    "INSERT OR IGNORE INTO games (id, version, data, chat_ids, user_ids, deadline,"
                    " created_at) VALUES (?, 1, ?, ?, ?, ?, ?)",
                    (candidate, record, dumps(chats), dumps(users), deadline, now),
                )
                if cur.rowcount == 1:
                    break
                if game_id is not None:
                    return game_id  # created before (a retry): its rows are complete, nothing is written
            conn.executemany("INSERT OR IGNORE INTO game_chats VALUES (?, ?)", [(candidate, c) for c in chats])
            conn.executemany("INSERT OR IGNORE INTO game_users VALUES (?, ?)", [(candidate, u) for u in users])
            return candidate

        return await self._run(op)

    async def get_game(self, game_id: str) -> StoredGame | None:
        """See :meth:`bot.storage.games.GameRecords.get_game`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> tuple[tuple[Any, ...] | None, list[Any], tuple[int, float] | None]:
            row = GAMES.live(conn, game_id, now, GAME_COLUMNS)
            if row is None:
                return None, [], None
            boards = conn.execute(
                "SELECT chat_id, message_id, shown_version, stale FROM game_boards WHERE game_id = ?", (game_id,)
            ).fetchall()
            seen = conn.execute("SELECT action, seen_at FROM clock_seen WHERE game_id = ?", (game_id,)).fetchone()
            return row, boards, None if seen is None else (int(seen[0]), float(seen[1]))

        row, boards, seen = await self._run(op)
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
                int(chat): BoardState(
                    chat_id=int(chat), message_id=message_id, shown_version=int(shown), stale=_stale_ids(stale)
                )
                for chat, message_id, shown, stale in boards
            },
            quarantined=bool(quarantined),
            seen=seen,
        )

    async def update_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
    ) -> int | None:
        """See :meth:`bot.storage.games.GameRecords.update_game`."""
        record = dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> int | None:
            (version,) = GAMES.require(conn, game_id, now, "version")
            if int(version) != int(expected_version):
                return None
            new_version = int(expected_version) + 1
            GAMES.write(conn, game_id, new_version, record, deadline)
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
        """See :meth:`bot.storage.games.GameRecords.finish_game`."""
        record = dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> int | None:
            version, finished = GAMES.require(conn, game_id, now, "version, finished")
            if int(version) != int(expected_version) or finished:
                return None
            new_version = int(expected_version) + 1
            GAMES.write(conn, game_id, new_version, record, deadline, finished=1, finished_at=now, expires_at=now + ttl)
            return new_version

        return await self._run(op)

    async def set_deadline(self, game_id: str, expected_version: int, deadline: float | None) -> bool:
        """See :meth:`bot.storage.games.GameRecords.set_deadline`."""
        now = self._clock()
        return await self._run(lambda conn: GAMES.set_deadline(conn, game_id, expected_version, deadline, now))

    async def set_board(self, game_id: str, chat_id: int, message_id: int | None, shown_version: int) -> bool:
        """See :meth:`bot.storage.games.GameRecords.set_board`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> bool:
            if GAMES.live(conn, game_id, now, "1") is None:
                return False
            cur = conn.execute(
                "INSERT INTO game_boards (game_id, chat_id, message_id, shown_version) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, chat_id) DO UPDATE SET message_id = excluded.message_id,"
                " shown_version = excluded.shown_version WHERE excluded.shown_version >= game_boards.shown_version",
                (game_id, int(chat_id), message_id, int(shown_version)),
            )
            return cur.rowcount == 1

        return await self._run(op)

    async def fence_board(
        self,
        game_id: str,
        chat_id: int,
        message_id: int | None,
        owner: str,
        lease: float,
        *,
        version: int | None = None,
        post: bool = False,
    ) -> BoardFence:
        """See :meth:`bot.storage.games.GameRecords.fence_board`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> BoardFence:
            row = GAMES.live(conn, game_id, now, "version")
            if row is None:
                return BoardFence.GONE
            board = conn.execute(
                "SELECT message_id, shown_version FROM game_boards WHERE game_id = ? AND chat_id = ?",
                (game_id, int(chat_id)),
            ).fetchone()
            if board is not None and board[0] != message_id:
                return BoardFence.MOVED
            if _leased_by_other(conn, game_id, chat_id, owner, now, message_id):
                return BoardFence.BUSY
            if version is not None:
                if version < int(row[0]):
                    return BoardFence.OUTDATED
                if not post and board is not None and int(board[1]) >= version:
                    return BoardFence.SHOWN
            if lease > 0:
                conn.execute(
                    "INSERT INTO board_claims (game_id, chat_id, owner, until, replaces) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (game_id, chat_id) DO UPDATE SET owner = excluded.owner, until = excluded.until,"
                    " replaces = excluded.replaces",
                    (game_id, int(chat_id), owner, now + lease, message_id),
                )
            return BoardFence.GRANTED

        return await self._run(op)

    async def land_board(
        self, game_id: str, chat_id: int, owner: str, message_id: int | None, shown_version: int | None
    ) -> int | None:
        """See :meth:`bot.storage.games.GameRecords.land_board`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> int | None:
            row = GAMES.live(conn, game_id, now, "version")
            if row is None:
                return None
            lease = conn.execute(
                "SELECT owner, until FROM board_claims WHERE game_id = ? AND chat_id = ?", (game_id, int(chat_id))
            ).fetchone()
            mine = lease is None or lease[0] == owner or lease[1] <= now
            if lease is not None and lease[0] == owner:
                conn.execute("DELETE FROM board_claims WHERE game_id = ? AND chat_id = ?", (game_id, int(chat_id)))
            if shown_version is not None:
                _record_landing(conn, game_id, int(chat_id), message_id, int(shown_version), mine=mine)
            return int(row[0])

        return await self._run(op)

    async def demote_board(
        self, game_id: str, chat_id: int, message_id: int, seen_version: int, recorded_version: int
    ) -> bool:
        """See :meth:`bot.storage.games.GameRecords.demote_board`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> bool:
            if conn.execute(
                "SELECT 1 FROM board_claims WHERE game_id = ? AND chat_id = ? AND until > ?",
                (game_id, int(chat_id), now),
            ).fetchone():
                return False
            cur = conn.execute(
                "UPDATE game_boards SET shown_version = ? WHERE game_id = ? AND chat_id = ? AND message_id = ?"
                " AND shown_version = ? AND shown_version > ?",
                (int(seen_version), game_id, int(chat_id), int(message_id), int(recorded_version), int(seen_version)),
            )
            return cur.rowcount == 1

        return await self._run(op)

    async def adopt_board(self, game_id: str, chat_id: int, message_id: int, seen_version: int) -> BoardFence:
        """See :meth:`bot.storage.games.GameRecords.adopt_board`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> BoardFence:
            if GAMES.live(conn, game_id, now, "1") is None:
                return BoardFence.GONE
            if conn.execute(
                "SELECT 1 FROM board_claims WHERE game_id = ? AND chat_id = ? AND until > ?",
                (game_id, int(chat_id), now),
            ).fetchone():
                return BoardFence.BUSY
            board = conn.execute(
                "SELECT message_id FROM game_boards WHERE game_id = ? AND chat_id = ?", (game_id, int(chat_id))
            ).fetchone()
            if board is not None and board[0] is not None and int(board[0]) >= message_id:
                return BoardFence.MOVED
            _record_landing(conn, game_id, int(chat_id), int(message_id), int(seen_version), mine=True)
            return BoardFence.GRANTED

        return await self._run(op)

    async def mark_seen(self, game_id: str, action: int, at: float, *, deadline: float | None = None) -> float | None:
        """See :meth:`bot.storage.games.GameRecords.mark_seen`."""
        now = self._clock()

        def op(conn: sqlite3.Connection) -> float | None:
            if GAMES.live(conn, game_id, now, "1") is None:
                return None
            row = conn.execute("SELECT action, seen_at FROM clock_seen WHERE game_id = ?", (game_id,)).fetchone()
            if row is not None and int(row[0]) == int(action):
                return float(row[1])
            if row is not None and int(row[0]) > int(action):
                return None  # a later action is marked: this sight came too late to matter
            conn.execute(
                "INSERT INTO clock_seen (game_id, action, seen_at) VALUES (?, ?, ?) ON CONFLICT (game_id)"
                " DO UPDATE SET action = excluded.action, seen_at = excluded.seen_at",
                (game_id, int(action), float(at)),
            )
            if deadline is not None:
                conn.execute(
                    "UPDATE games SET deadline = ? WHERE id = ? AND finished = 0 AND quarantined IS NULL"
                    " AND (deadline IS NULL OR deadline > ?)",
                    (float(deadline), game_id, float(deadline)),
                )
            return float(at)

        return await self._run(op)

    async def forget_stale(self, game_id: str, chat_id: int, message_id: int) -> None:
        """See :meth:`bot.storage.games.GameRecords.forget_stale`."""

        def op(conn: sqlite3.Connection) -> None:
            row = conn.execute(
                "SELECT stale FROM game_boards WHERE game_id = ? AND chat_id = ?", (game_id, int(chat_id))
            ).fetchone()
            if row is None:
                return
            left = [each for each in _stale_ids(row[0]) if each != int(message_id)]
            conn.execute(
                "UPDATE game_boards SET stale = ? WHERE game_id = ? AND chat_id = ?",
                (_stale_text(left), game_id, int(chat_id)),
            )

        await self._run(op)

    async def quarantine_game(self, game_id: str, reason: str) -> None:
        """See :meth:`bot.storage.games.GameRecords.quarantine_game`."""
        now = self._clock()
        await self._run(
            lambda conn: conn.execute(
                "UPDATE games SET quarantined = ?, quarantined_at = COALESCE(quarantined_at, ?)"
                f" WHERE id = ? AND {LIVE}",
                (str(reason), now, game_id, now),
            )
        )

    async def quarantined_games(self) -> list[str]:
        """See :meth:`bot.storage.games.GameRecords.quarantined_games`."""
        return await self._ids(
            f"SELECT id FROM games WHERE quarantined IS NOT NULL AND {LIVE} ORDER BY quarantined_at, rowid",
            (self._clock(),),
        )

    async def chat_games(self, chat_id: int) -> list[str]:
        """See :meth:`bot.storage.games.GameRecords.chat_games`."""
        return await self._ids(
            "SELECT g.id FROM game_chats c JOIN games g ON g.id = c.game_id"
            " WHERE c.chat_id = ? AND g.finished = 0 AND g.quarantined IS NULL ORDER BY g.created_at, g.rowid",
            (chat_id,),
        )

    async def user_games(self, user_id: int) -> list[str]:
        """See :meth:`bot.storage.games.GameRecords.user_games`."""
        return await self._ids(
            "SELECT g.id FROM game_users u JOIN games g ON g.id = u.game_id"
            " WHERE u.user_id = ? AND g.finished = 0 AND g.quarantined IS NULL ORDER BY g.created_at, g.rowid",
            (user_id,),
        )

    async def user_chat_games(self, chat_id: int, user_id: int) -> list[str]:
        """See :meth:`bot.storage.games.GameRecords.user_chat_games`.

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
        """See :meth:`bot.storage.games.GameRecords.count_chat_games`."""
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT COUNT(*) FROM game_chats c JOIN games g ON g.id = c.game_id"
                " WHERE c.chat_id = ? AND g.finished = 0 AND g.quarantined IS NULL",
                (chat_id,),
            ).fetchone()
        )
        return int(row[0])

    async def chat_history(self, chat_id: int, limit: int = 20) -> list[str]:
        """See :meth:`bot.storage.games.GameRecords.chat_history`."""
        return await self._ids(
            "SELECT g.id FROM game_chats c JOIN games g ON g.id = c.game_id"
            " WHERE c.chat_id = ? AND g.finished = 1 AND g.expires_at > ? AND g.quarantined IS NULL"
            " ORDER BY g.finished_at DESC, g.rowid DESC LIMIT ?",
            (chat_id, self._clock(), limit),
        )

    async def due_games(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.games.GameRecords.due_games`."""
        return await self._ids(*GAMES.due_query(now, self._clock(), limit))

    async def active_game_count(self) -> int:
        """See :meth:`bot.storage.games.GameRecords.active_game_count`."""
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT COUNT(*) FROM games WHERE finished = 0 AND quarantined IS NULL"
            ).fetchone()
        )
        return int(row[0])


STALE_KEPT = 20
"""At most this many older board messages of a chat wait to have their keyboards taken off (the oldest go first)."""


def _stale_ids(value: str | None) -> tuple[int, ...]:
    return tuple(int(each) for each in value.split(",") if each) if value else ()


def _stale_text(ids: Iterable[int]) -> str | None:
    listed = [str(each) for each in ids]
    return ",".join(listed[-STALE_KEPT:]) if listed else None


def _leased_by_other(
    conn: sqlite3.Connection, game_id: str, chat_id: int, owner: str, now: float, message_id: int | None
) -> bool:
    """Return whether another owner holds an unexpired lease on the chat's board ``message_id``."""
    lease = conn.execute(
        "SELECT owner, until, replaces FROM board_claims WHERE game_id = ? AND chat_id = ?", (game_id, int(chat_id))
    ).fetchone()
    return lease is not None and lease[0] != owner and lease[1] > now and lease[2] == message_id


def _record_landing(
    conn: sqlite3.Connection, game_id: str, chat_id: int, message_id: int | None, shown: int, *, mine: bool
) -> None:
    """Record that the chat shows ``message_id`` at version ``shown`` (see ``land_board`` for ``mine``)."""
    board = conn.execute(
        "SELECT message_id, shown_version, stale FROM game_boards WHERE game_id = ? AND chat_id = ?",
        (game_id, chat_id),
    ).fetchone()
    if board is None:
        conn.execute(
            "INSERT INTO game_boards (game_id, chat_id, message_id, shown_version) VALUES (?, ?, ?, ?)",
            (game_id, chat_id, message_id, shown),
        )
        return
    recorded, recorded_shown, stale = board
    ids = list(_stale_ids(stale))
    if recorded == message_id:
        if mine or shown < int(recorded_shown):
            conn.execute(
                "UPDATE game_boards SET shown_version = ? WHERE game_id = ? AND chat_id = ?", (shown, game_id, chat_id)
            )
        return
    if mine:
        if recorded is not None:
            ids = [each for each in ids if each != recorded] + [int(recorded)]
        conn.execute(
            "UPDATE game_boards SET message_id = ?, shown_version = ?, stale = ? WHERE game_id = ? AND chat_id = ?",
            (message_id, shown, _stale_text(ids), game_id, chat_id),
        )
    elif message_id is not None:
        ids = [each for each in ids if each != message_id] + [message_id]
        conn.execute(
            "UPDATE game_boards SET stale = ? WHERE game_id = ? AND chat_id = ?", (_stale_text(ids), game_id, chat_id)
        )
