"""Rate buckets on SQLite (:class:`~bot.storage.rates.RateBuckets`): the ``rate_buckets`` table, one row per bucket
that is not full, each call one transaction."""

from __future__ import annotations

import sqlite3

from ..rates import RateLimit
from .connection import SqliteConnection


class SqliteRates(SqliteConnection):
    """The rate buckets of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def take_token(self, bucket: str, now: float, limit: RateLimit) -> float:
        """See :meth:`bot.storage.rates.RateBuckets.take_token` (the row's ``full_at`` is the time at which the bucket
        is full again; ``purge_expired`` deletes the rows whose time has passed)."""
        step = 1.0 / limit.rate
        slack = (max(1, int(limit.burst)) - 1) * step

        def op(conn: sqlite3.Connection) -> float:
            row = conn.execute("SELECT full_at FROM rate_buckets WHERE bucket = ?", (bucket,)).fetchone()
            full = max(now, float(row[0])) if row is not None else now
            wait = full - now - slack
            if wait > 1e-9:
                return wait
            conn.execute(
                "INSERT INTO rate_buckets (bucket, full_at) VALUES (?, ?)"
                " ON CONFLICT (bucket) DO UPDATE SET full_at = excluded.full_at",
                (bucket, full + step),
            )
            return 0.0

        return await self._run(op)
