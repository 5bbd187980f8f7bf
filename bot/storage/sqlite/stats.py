"""Statistics on SQLite (:class:`~bot.storage.stats.StatsRecords`): ``stats`` and ``counted_games``."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from ..stats import Stats
from .connection import SqliteConnection


class SqliteStats(SqliteConnection):
    """The result counters of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def add_stats(self, chat_id: int, user_id: int, *, wins: int = 0, losses: int = 0, draws: int = 0) -> Stats:
        """See :meth:`bot.storage.stats.StatsRecords.add_stats`."""

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
        """See :meth:`bot.storage.stats.StatsRecords.add_game_stats`."""
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
        """See :meth:`bot.storage.stats.StatsRecords.get_stats`."""
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT wins, losses, draws FROM stats WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)
            ).fetchone()
        )
        return Stats(*row) if row else Stats()

    async def chat_stats(self, chat_id: int) -> dict[int, Stats]:
        """See :meth:`bot.storage.stats.StatsRecords.chat_stats`."""
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT user_id, wins, losses, draws FROM stats WHERE chat_id = ?", (chat_id,)
            ).fetchall()
        )
        return {int(row[0]): Stats(wins=row[1], losses=row[2], draws=row[3]) for row in rows}
