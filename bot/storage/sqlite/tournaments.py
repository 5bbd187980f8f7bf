"""Tournaments on SQLite (:class:`~bot.storage.tournaments.TournamentRecords`): the ``tournaments`` table.

A partial unique index on the chat of the unfinished tournaments makes "one running tournament per chat" a
constraint. Versions and deadlines go through :class:`~bot.storage.sqlite.versioned.VersionedTable`.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ..documents import UNSET, JSONDict
from ..ids import is_valid_id, new_id
from ..tournaments import TOURNAMENT_HISTORY_RETENTION, StoredTournament
from .connection import SqliteConnection
from .versioned import LIVE, VersionedTable, dumps

TOURNAMENTS = VersionedTable("tournaments")
"""The tournaments table as versioned documents."""


class SqliteTournaments(SqliteConnection):
    """The tournaments of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def create_tournament(
        self,
        chat_id: int,
        data: JSONDict,
        *,
        tournament_id: str | None = None,
        deadline: float | None = None,
    ) -> str | None:
        """See :meth:`bot.storage.tournaments.TournamentRecords.create_tournament`."""
        if tournament_id is not None and not is_valid_id(tournament_id):
            raise ValueError(f"malformed tournament id {tournament_id!r}: expected 10 characters of [A-Za-z0-9_-]")
        chat_id = int(chat_id)
        record = dumps(data)
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
        """See :meth:`bot.storage.tournaments.TournamentRecords.get_tournament`."""
        now = self._clock()
        row = await self._run(
            lambda conn: TOURNAMENTS.live(conn, tournament_id, now, "version, data, chat_id, finished, deadline")
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
        """See :meth:`bot.storage.tournaments.TournamentRecords.update_tournament`."""
        record = dumps(data)
        now = self._clock()

        def op(conn: sqlite3.Connection) -> int | None:
            version, was_finished = TOURNAMENTS.require(conn, tournament_id, now, "version, finished")
            if int(version) != int(expected_version):
                return None
            new_version = int(expected_version) + 1
            finishing: dict[str, Any] = {}
            if finished and not was_finished:
                finishing = {"finished": 1, "finished_at": now, "expires_at": now + TOURNAMENT_HISTORY_RETENTION}
            TOURNAMENTS.write(conn, tournament_id, new_version, record, deadline, **finishing)
            return new_version

        return await self._run(op)

    async def set_tournament_deadline(self, tournament_id: str, expected_version: int, deadline: float | None) -> bool:
        """See :meth:`bot.storage.tournaments.TournamentRecords.set_tournament_deadline`."""
        now = self._clock()
        return await self._run(
            lambda conn: TOURNAMENTS.set_deadline(conn, tournament_id, expected_version, deadline, now)
        )

    async def chat_tournament(self, chat_id: int) -> str | None:
        """See :meth:`bot.storage.tournaments.TournamentRecords.chat_tournament`."""
        ids = await self._ids("SELECT id FROM tournaments WHERE chat_id = ? AND finished = 0", (int(chat_id),))
        return ids[0] if ids else None

    async def chat_tournament_history(self, chat_id: int, limit: int = 10) -> list[str]:
        """See :meth:`bot.storage.tournaments.TournamentRecords.chat_tournament_history`."""
        return await self._ids(
            "SELECT id FROM tournaments WHERE chat_id = ? AND finished = 1 AND expires_at > ?"
            " ORDER BY finished_at DESC, rowid DESC LIMIT ?",
            (int(chat_id), self._clock(), max(0, int(limit))),
        )

    async def due_tournaments(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.tournaments.TournamentRecords.due_tournaments`."""
        return await self._ids(*TOURNAMENTS.due_query(now, self._clock(), limit))
