"""Challenges on SQLite (:class:`~bot.storage.challenges.ChallengeRecords`): the ``challenges`` table."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ..challenges import StoredChallenge
from ..documents import JSONDict
from ..ids import new_id
from .connection import SqliteConnection
from .versioned import dumps


class SqliteChallenges(SqliteConnection):
    """The open challenges of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def create_challenge(self, data: JSONDict, *, ttl: float, chat_id: int | None = None) -> str:
        """See :meth:`bot.storage.challenges.ChallengeRecords.create_challenge`."""
        record = dumps(data)
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
        """See :meth:`bot.storage.challenges.ChallengeRecords.get_challenge`."""
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
        """See :meth:`bot.storage.challenges.ChallengeRecords.claim_challenge`."""
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
        """See :meth:`bot.storage.challenges.ChallengeRecords.chat_challenges`."""
        now = self._clock()
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT id, data FROM challenges WHERE chat_id = ? AND expires_at > ? ORDER BY expires_at, rowid",
                (chat_id, now),
            ).fetchall()
        )
        return [StoredChallenge(challenge_id=row[0], data=json.loads(row[1]), chat_id=chat_id) for row in rows]
