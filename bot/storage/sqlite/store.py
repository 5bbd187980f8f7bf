"""``Store`` on an SQLite file: the embedded default used when ``REDIS_URL`` is unset.

The store is the union of one class per aggregate (games, tournaments, ratings, challenges, settings, stats, update
claims, send budgets, rate buckets, pairing pools) over one connection
(:class:`~bot.storage.sqlite.connection.SqliteConnection`); the tables are in :mod:`bot.storage.sqlite.schema`.
Expired rows are invisible to readers; they are deleted only by ``purge_expired`` (in small batches, called
periodically by the bot), never inside another write.
"""

from __future__ import annotations

import asyncio
import sqlite3
from functools import partial
from typing import Any

from ..ratings import RATED_MATCHES_RETENTION
from ..stats import COUNTED_GAMES_RETENTION
from .budgets import SENDS_RETENTION, SqliteBudgets
from .challenges import SqliteChallenges
from .games import SqliteGames
from .pools import PURGE_CLOSED_PAIRINGS, PURGE_EXPIRED_ENTRIES, PURGE_EXPIRED_LEADS, SqlitePools
from .rates import SqliteRates
from .ratings import SqliteRatings
from .settings import SqliteSettings
from .stats import SqliteStats
from .tournaments import SqliteTournaments
from .updates import SqliteUpdates


def _delete_some(conn: sqlite3.Connection, *, jobs: tuple[tuple[str, tuple[Any, ...]], ...]) -> list[int]:
    """Run batched DELETEs (SQL, arguments) and return how many rows each deleted."""
    return [int(conn.execute(sql, args).rowcount) for sql, args in jobs]


class SqliteGameStore(
    SqliteGames,
    SqliteTournaments,
    SqliteRatings,
    SqliteChallenges,
    SqliteSettings,
    SqliteStats,
    SqliteUpdates,
    SqliteBudgets,
    SqliteRates,
    SqlitePools,
):
    """A :class:`~bot.storage.store.Store` in one SQLite file (or ``":memory:"``, not persistent)."""

    async def purge_expired(self, batch: int = 500) -> int:
        """See :meth:`bot.storage.store.Store.purge_expired`.

        Deletes expired games (with their chat, user and board rows), expired challenges and tournaments,
        counted-game entries older than :data:`~bot.storage.stats.COUNTED_GAMES_RETENTION` and applied match keys
        older than :data:`~bot.storage.ratings.RATED_MATCHES_RETENTION`, send-budget entries older than
        :data:`~bot.storage.sqlite.budgets.SENDS_RETENTION`, rate buckets that are full again (whose rows mean
        nothing any more), expired pool entries, expired leases on pools' pairing passes and the ids of pairings
        closed or released more than :data:`~bot.storage.pools.CLOSED_PAIRING_RETENTION` ago, at most ``batch``
        rows of each per transaction; other operations queued meanwhile run between two transactions.
        Returns: the number of rows deleted (games, challenges, tournaments, counted-game and applied-match
            entries, pool entries, leases and pairings; not the cascaded rows).
        """
        limit = max(1, int(batch))
        expired = (
            "DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table}"
            " WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?)"
        )
        old_keys = "DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} WHERE at <= ? LIMIT ?)"
        full_buckets = (
            "DELETE FROM rate_buckets WHERE rowid IN (SELECT rowid FROM rate_buckets WHERE full_at <= ? LIMIT ?)"
        )
        # Each transaction deletes at most ``limit`` rows of each table of one group (records; challenges, updates and
        # pool entries; keys and remembered pairing ids; send budgets and pool leases).
        groups: tuple[tuple[tuple[str, float], ...], ...] = (
            ((expired.format(table="games"), 0.0), (expired.format(table="tournaments"), 0.0)),
            ((expired.format(table="challenges"), 0.0), (expired.format(table="updates"), 0.0), PURGE_EXPIRED_ENTRIES),
            (
                (old_keys.format(table="counted_games"), COUNTED_GAMES_RETENTION),
                (old_keys.format(table="rated_matches"), RATED_MATCHES_RETENTION),
                PURGE_CLOSED_PAIRINGS,
            ),
            (
                (old_keys.format(table="sends"), SENDS_RETENTION),
                (old_keys.format(table="send_next"), SENDS_RETENTION),
                (full_buckets, 0.0),
                PURGE_EXPIRED_LEADS,
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

    async def ping(self) -> None:
        """See :meth:`bot.storage.store.Store.ping`."""
        await self._run(lambda conn: conn.execute("SELECT 1").fetchone())

    async def close(self) -> None:
        """See :meth:`bot.storage.store.Store.close`."""
        if self._closed:
            return
        self._closed = True

        def shutdown() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        await asyncio.get_running_loop().run_in_executor(self._executor, shutdown)
        self._executor.shutdown(wait=True)
