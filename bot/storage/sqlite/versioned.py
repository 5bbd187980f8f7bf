"""The shared helper of games and tournaments on SQLite: versioned rows with an indexed deadline column.

A document is one row of its table (``id``, ``version``, ``data`` JSON, ``deadline``, ``expires_at``, ...); a
change is a compare-and-set on ``version`` inside the operation's transaction, and the deadline index is the
partial index on the ``deadline`` column, so record and index never disagree. Expired rows are invisible to
readers (:data:`LIVE`); ``purge_expired`` deletes them.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from ..documents import UNSET
from ..errors import GameNotFoundError

LIVE = "(expires_at IS NULL OR expires_at > ?)"
"""SQL condition: the row has not expired (one parameter: now)."""


def dumps(value: Any) -> str:
    """Return ``value`` as compact JSON (non-ASCII kept as is)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class VersionedTable:
    """The versioned documents of one table (``games`` or ``tournaments``) and their deadline column.

    Attributes:
        table: the table.
        due_filter: an SQL condition a row must also meet to be due (e.g. ``quarantined IS NULL``), or "".
    """

    table: str
    due_filter: str = ""

    def live(self, conn: sqlite3.Connection, doc_id: str, now: float, columns: str) -> tuple[Any, ...] | None:
        """Return the ``columns`` of the unexpired row ``doc_id``, or None when there is none."""
        row: tuple[Any, ...] | None = conn.execute(
            f"SELECT {columns} FROM {self.table} WHERE id = ? AND {LIVE}", (doc_id, now)
        ).fetchone()
        return row

    def require(self, conn: sqlite3.Connection, doc_id: str, now: float, columns: str) -> tuple[Any, ...]:
        """Return the ``columns`` of the unexpired row ``doc_id``.

        Raises: GameNotFoundError when there is none.
        """
        row = self.live(conn, doc_id, now, columns)
        if row is None:
            raise GameNotFoundError(doc_id)
        return row

    def write(
        self, conn: sqlite3.Connection, doc_id: str, version: int, record: str, deadline: Any, **extra: Any
    ) -> None:
        """Store ``record`` at ``version`` (after the caller checked the version), with ``deadline`` unless it is
        UNSET, and the ``extra`` columns."""
        values: dict[str, Any] = {"version": version, "data": record}
        if deadline is not UNSET:
            values["deadline"] = deadline
        values.update(extra)
        assignments = ", ".join(f"{column} = ?" for column in values)
        conn.execute(f"UPDATE {self.table} SET {assignments} WHERE id = ?", (*values.values(), doc_id))

    def set_deadline(
        self, conn: sqlite3.Connection, doc_id: str, expected_version: int, deadline: float | None, now: float
    ) -> bool:
        """Return True when the deadline of the unexpired row was set (its version equals ``expected_version``;
        the version is not bumped), False on a conflict or when there is no such row."""
        cur = conn.execute(
            f"UPDATE {self.table} SET deadline = ? WHERE id = ? AND version = ? AND {LIVE}",
            (deadline, doc_id, int(expected_version), now),
        )
        return cur.rowcount == 1

    def due_query(self, now: float, clock: float, limit: int) -> tuple[str, tuple[Any, ...]]:
        """Return the SQL and arguments listing the ids of unexpired rows whose deadline is at or before ``now``,
        earliest first (at most ``limit``); ``clock`` is the store's time, for expiry."""
        extra = f" AND {self.due_filter}" if self.due_filter else ""
        return (
            f"SELECT id FROM {self.table} WHERE deadline IS NOT NULL AND deadline <= ?{extra}"
            f" AND {LIVE} ORDER BY deadline, rowid LIMIT ?",
            (now, clock, limit),
        )
