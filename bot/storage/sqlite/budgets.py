"""Send budgets on SQLite (:class:`~bot.storage.budgets.SendBudgets`): the ``sends`` and ``send_next`` tables, so
that the one process of the embedded store keeps Telegram's limits across a restart."""

from __future__ import annotations

import sqlite3

from ..budgets import SendLimits
from .connection import SqliteConnection

ALL_CHATS = "*"
"""The ``chat`` of the rows that count the bot's calls over all chats."""
SENDS_RETENTION = 3600.0
"""Seconds after which ``purge_expired`` deletes budget rows a chat no longer uses."""


class SqliteBudgets(SqliteConnection):
    """The send budgets of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def take_send(self, chat: str, now: float, count: int, limits: SendLimits, token: str) -> float:
        """See :meth:`bot.storage.budgets.SendBudgets.take_send`."""
        taken = max(1, min(int(count), limits.per_window))

        def room(conn: sqlite3.Connection, key: str, limit: int, span: float) -> float:
            conn.execute("DELETE FROM sends WHERE chat = ? AND at <= ?", (key, now - span))
            over = int(conn.execute("SELECT COUNT(*) FROM sends WHERE chat = ?", (key,)).fetchone()[0]) + taken - limit
            if over <= 0:
                return 0.0
            (oldest,) = conn.execute(
                "SELECT at FROM sends WHERE chat = ? ORDER BY at LIMIT 1 OFFSET ?", (key, over - 1)
            ).fetchone()
            return float(oldest) + span - now

        def op(conn: sqlite3.Connection) -> float:
            row = conn.execute("SELECT at FROM send_next WHERE chat = ?", (chat,)).fetchone()
            wait = max(
                0.0 if row is None else float(row[0]) - now,
                room(conn, chat, limits.per_window, limits.window),
                room(conn, ALL_CHATS, limits.per_second, 1.0),
            )
            if wait > 0:
                return wait
            rows = [(key, now, f"{token}#{i}") for i in range(1, taken + 1) for key in (chat, ALL_CHATS)]
            conn.executemany("INSERT INTO sends (chat, at, token) VALUES (?, ?, ?)", rows)
            conn.execute(
                "INSERT INTO send_next (chat, at) VALUES (?, ?) ON CONFLICT (chat) DO UPDATE SET at = excluded.at",
                (chat, now + limits.interval),
            )
            return 0.0

        return await self._run(op)

    async def refund_send(self, chat: str, token: str) -> None:
        """See :meth:`bot.storage.budgets.SendBudgets.refund_send`."""
        await self._run(
            lambda conn: conn.execute(
                "DELETE FROM sends WHERE chat IN (?, ?) AND token LIKE ? ESCAPE '\\'",
                (chat, ALL_CHATS, _like_prefix(token) + "#%"),
            )
        )

    async def hold_sends(self, chat: str, now: float, seconds: float) -> None:
        """See :meth:`bot.storage.budgets.SendBudgets.hold_sends`."""
        await self._run(
            lambda conn: conn.execute(
                "INSERT INTO send_next (chat, at) VALUES (?, ?)"
                " ON CONFLICT (chat) DO UPDATE SET at = MAX(at, excluded.at)",
                (chat, now + seconds),
            )
        )


def _like_prefix(text: str) -> str:
    """Return ``text`` escaped for a LIKE pattern (``\\`` is the escape)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
