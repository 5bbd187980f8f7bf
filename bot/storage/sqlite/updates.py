"""Update claims on SQLite (:class:`~bot.storage.updates.UpdateClaims`): the ``updates`` table."""

from __future__ import annotations

import sqlite3

from ..updates import UpdateClaim
from .connection import SqliteConnection


class SqliteUpdates(SqliteConnection):
    """The update claims of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def claim_update(self, update_id: int, *, lease: float) -> UpdateClaim:
        """See :meth:`bot.storage.updates.UpdateClaims.claim_update`."""
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
        """See :meth:`bot.storage.updates.UpdateClaims.finish_update`."""
        expires = self._clock() + ttl
        await self._run(
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO updates (update_id, state, expires_at) VALUES (?, 'done', ?)",
                (update_id, expires),
            )
        )

    async def release_update(self, update_id: int) -> None:
        """See :meth:`bot.storage.updates.UpdateClaims.release_update`."""
        await self._run(lambda conn: conn.execute("DELETE FROM updates WHERE update_id = ?", (update_id,)))
