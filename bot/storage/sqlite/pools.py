"""Pairing pools on SQLite (:class:`~bot.storage.pools.PairingPools`): the ``pool_entries``, ``pool_pairings``,
``pool_bound`` and ``pool_leads`` tables, each operation one transaction (``BEGIN IMMEDIATE``: a claim is exactly
once even with several processes on one file)."""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Sequence
from typing import Any

from ..pools import CLOSED_PAIRING_RETENTION, PoolEntry, StoredPairing, Withdrawal
from .connection import SqliteConnection
from .versioned import dumps

ENTRY_COLUMNS = "member, score, since, data, expires_at"
"""The columns of ``pool_entries`` that make a :class:`~bot.storage.pools.PoolEntry` (see :func:`_entry`)."""


def _check_pool(pool: str) -> None:
    """Raise ValueError when ``pool`` is empty (as the Redis store must)."""
    if not pool:
        raise ValueError("a pool needs a name")


def _check_entry(entry: PoolEntry) -> None:
    """Raise ValueError when the entry's score, since or expiry is not a finite number."""
    for what, value in (("score", entry.score), ("since", entry.since), ("expires", entry.expires)):
        if value is not None and not math.isfinite(float(value)):
            raise ValueError(f"{what} must be a finite number, not {value!r}")


def _entry(row: tuple[Any, ...]) -> PoolEntry:
    """Return the entry of a row of :data:`ENTRY_COLUMNS`."""
    member, score, since, data, expires = row
    return PoolEntry(member=member, score=score, since=since, data=json.loads(data), expires=expires)


def _entry_doc(entry: PoolEntry) -> dict[str, Any]:
    """Return the JSON form of an entry kept in an open pairing."""
    return {"m": entry.member, "s": entry.score, "t": entry.since, "x": entry.expires, "d": entry.data}


def _from_doc(doc: dict[str, Any]) -> PoolEntry:
    """Return the entry of :func:`_entry_doc`'s form."""
    return PoolEntry(member=doc["m"], score=doc["s"], since=doc["t"], data=doc["d"], expires=doc["x"])


def _pairing(pool: str, pairing_id: str, made: float, entries: str) -> StoredPairing:
    """Return the pairing of a ``pool_pairings`` row."""
    first, second = (_from_doc(doc) for doc in json.loads(entries))
    return StoredPairing(pairing_id=pairing_id, pool=pool, entries=(first, second), made=made)


def _unbind(conn: sqlite3.Connection, pool: str, member: str, pairing_id: str) -> bool:
    """Drop the member's binding when it names ``pairing_id``; return True when it did."""
    cur = conn.execute(
        "DELETE FROM pool_bound WHERE pool = ? AND member = ? AND pairing_id = ?", (pool, member, pairing_id)
    )
    return cur.rowcount == 1


def _put(conn: sqlite3.Connection, pool: str, entry: PoolEntry) -> None:
    """Insert or replace the member's row of ``pool_entries``."""
    conn.execute(
        f"INSERT OR REPLACE INTO pool_entries (pool, {ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
        (pool, entry.member, float(entry.score), float(entry.since), dumps(entry.data), entry.expires),
    )


def _check_pair(members: tuple[str, str]) -> None:
    """Raise ValueError when both members are the same."""
    if members[0] == members[1]:
        raise ValueError(f"a member cannot be paired with itself: {members[0]!r}")


def _claim(
    conn: sqlite3.Connection, pool: str, pairing_id: str, members: tuple[str, str], now: float
) -> StoredPairing | None:
    """Claim the pair within the transaction (see :meth:`~bot.storage.pools.PairingPools.claim_pair`); return the
    pairing, or None when refused (nothing changed)."""
    if conn.execute("SELECT 1 FROM pool_pairings WHERE pool = ? AND pairing_id = ?", (pool, pairing_id)).fetchone():
        return None
    entries = []
    for member in members:
        row = conn.execute(
            f"SELECT {ENTRY_COLUMNS} FROM pool_entries WHERE pool = ? AND member = ?"
            " AND (expires_at IS NULL OR expires_at > ?)",
            (pool, member, now),
        ).fetchone()
        if row is None:
            return None
        entries.append(_entry(row))
    conn.executemany("DELETE FROM pool_entries WHERE pool = ? AND member = ?", ((pool, member) for member in members))
    conn.executemany(
        "INSERT OR REPLACE INTO pool_bound (pool, member, pairing_id) VALUES (?, ?, ?)",
        ((pool, member, pairing_id) for member in members),
    )
    conn.execute(
        "INSERT INTO pool_pairings (pool, pairing_id, made, entries) VALUES (?, ?, ?, ?)",
        (pool, pairing_id, now, dumps([_entry_doc(entry) for entry in entries])),
    )
    return StoredPairing(pairing_id=pairing_id, pool=pool, entries=(entries[0], entries[1]), made=now)


def _end(conn: sqlite3.Connection, pool: str, pairing_id: str, now: float, *, put_back: bool) -> bool:
    """Close (``put_back`` False) or release the open pairing within the transaction; return True when it was
    open (see :meth:`~bot.storage.pools.PairingPools.release_pairing`)."""
    row = conn.execute(
        "SELECT made, entries FROM pool_pairings WHERE pool = ? AND pairing_id = ? AND closed_at IS NULL",
        (pool, pairing_id),
    ).fetchone()
    if row is None:
        return False
    for entry in _pairing(pool, pairing_id, row[0], row[1]).entries:
        if _unbind(conn, pool, entry.member, pairing_id) and put_back:
            conn.execute(
                f"INSERT OR IGNORE INTO pool_entries (pool, {ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (pool, entry.member, entry.score, entry.since, dumps(entry.data), entry.expires),
            )
    conn.execute(
        "UPDATE pool_pairings SET entries = NULL, closed_at = ? WHERE pool = ? AND pairing_id = ?",
        (now, pool, pairing_id),
    )
    return True


class SqlitePools(SqliteConnection):
    """The pairing pools of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def pool_put(self, pool: str, entry: PoolEntry) -> None:
        """See :meth:`bot.storage.pools.PairingPools.pool_put`."""
        _check_pool(pool)
        _check_entry(entry)

        def op(conn: sqlite3.Connection) -> None:
            _put(conn, pool, entry)
            conn.execute("DELETE FROM pool_bound WHERE pool = ? AND member = ?", (pool, entry.member))

        await self._run(op)

    async def pool_remove(self, pool: str, member: str) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.pool_remove`."""
        _check_pool(pool)

        def op(conn: sqlite3.Connection) -> bool:
            removed = conn.execute("DELETE FROM pool_entries WHERE pool = ? AND member = ?", (pool, member)).rowcount
            unbound = conn.execute("DELETE FROM pool_bound WHERE pool = ? AND member = ?", (pool, member)).rowcount
            return removed + unbound > 0

        return await self._run(op)

    async def pool_withdraw(self, pool: str, member: str) -> Withdrawal:
        """See :meth:`bot.storage.pools.PairingPools.pool_withdraw`."""
        _check_pool(pool)

        def op(conn: sqlite3.Connection) -> Withdrawal:
            if conn.execute("SELECT 1 FROM pool_bound WHERE pool = ? AND member = ?", (pool, member)).fetchone():
                return Withdrawal.PAIRED
            removed = conn.execute("DELETE FROM pool_entries WHERE pool = ? AND member = ?", (pool, member)).rowcount
            return Withdrawal.REMOVED if removed else Withdrawal.ABSENT

        return await self._run(op)

    async def pool_binding(self, pool: str, member: str) -> str | None:
        """See :meth:`bot.storage.pools.PairingPools.pool_binding`."""
        _check_pool(pool)
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT pairing_id FROM pool_bound WHERE pool = ? AND member = ?", (pool, member)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    async def pool_entry(self, pool: str, member: str, now: float) -> PoolEntry | None:
        """See :meth:`bot.storage.pools.PairingPools.pool_entry`."""
        _check_pool(pool)
        row = await self._run(
            lambda conn: conn.execute(
                f"SELECT {ENTRY_COLUMNS} FROM pool_entries WHERE pool = ? AND member = ?"
                " AND (expires_at IS NULL OR expires_at > ?)",
                (pool, member, now),
            ).fetchone()
        )
        return None if row is None else _entry(row)

    async def pool_entries(
        self, pool: str, now: float, limit: int = 1000, *, after: tuple[float, str] | None = None
    ) -> list[PoolEntry]:
        """See :meth:`bot.storage.pools.PairingPools.pool_entries`."""
        _check_pool(pool)
        if limit <= 0:
            return []
        where, args = "", [pool, now]
        if after is not None:
            where, args = " AND (score, member) > (?, ?)", [pool, now, float(after[0]), after[1]]
        rows = await self._run(
            lambda conn: conn.execute(
                f"SELECT {ENTRY_COLUMNS} FROM pool_entries WHERE pool = ? AND (expires_at IS NULL OR expires_at > ?)"
                f"{where} ORDER BY score, member LIMIT ?",
                (*args, int(limit)),
            ).fetchall()
        )
        return [_entry(row) for row in rows]

    async def claim_pair(
        self, pool: str, pairing_id: str, members: tuple[str, str], now: float
    ) -> StoredPairing | None:
        """See :meth:`bot.storage.pools.PairingPools.claim_pair`."""
        _check_pool(pool)
        _check_pair(members)
        return await self._run(lambda conn: _claim(conn, pool, pairing_id, members, now))

    async def claim_pairs(
        self, pool: str, claims: Sequence[tuple[str, tuple[str, str]]], now: float
    ) -> list[StoredPairing]:
        """See :meth:`bot.storage.pools.PairingPools.claim_pairs` (one transaction for the batch)."""
        _check_pool(pool)
        for _, members in claims:
            _check_pair(members)
        if not claims:
            return []

        def op(conn: sqlite3.Connection) -> list[StoredPairing]:
            made = (_claim(conn, pool, pairing_id, members, now) for pairing_id, members in claims)
            return [pairing for pairing in made if pairing is not None]

        return await self._run(op)

    async def open_pairings(self, pool: str, made_before: float, limit: int = 100) -> list[StoredPairing]:
        """See :meth:`bot.storage.pools.PairingPools.open_pairings`."""
        _check_pool(pool)
        if limit <= 0:
            return []
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT pairing_id, made, entries FROM pool_pairings WHERE pool = ? AND closed_at IS NULL"
                " AND made < ? ORDER BY made, pairing_id LIMIT ?",
                (pool, made_before, int(limit)),
            ).fetchall()
        )
        return [_pairing(pool, row[0], row[1], row[2]) for row in rows]

    async def close_pairing(self, pool: str, pairing_id: str) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.close_pairing`."""
        return await self._end_pairing(pool, pairing_id, put_back=False)

    async def close_pairings(self, pool: str, pairing_ids: Sequence[str]) -> int:
        """See :meth:`bot.storage.pools.PairingPools.close_pairings` (one transaction)."""
        _check_pool(pool)
        if not pairing_ids:
            return 0
        now = self._clock()
        return await self._run(
            lambda conn: sum(_end(conn, pool, pairing_id, now, put_back=False) for pairing_id in pairing_ids)
        )

    async def release_pairing(self, pool: str, pairing_id: str) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.release_pairing`."""
        return await self._end_pairing(pool, pairing_id, put_back=True)

    async def _end_pairing(self, pool: str, pairing_id: str, *, put_back: bool) -> bool:
        """Close (``put_back`` False) or release the open pairing; return True when it was open."""
        _check_pool(pool)
        now = self._clock()
        return await self._run(lambda conn: _end(conn, pool, pairing_id, now, put_back=put_back))

    async def try_lead_pool(self, pool: str, owner: str, ttl: float, now: float) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.try_lead_pool` (a row of ``pool_leads``)."""
        _check_pool(pool)
        if not (math.isfinite(ttl) and ttl > 0):
            raise ValueError(f"a lease lasts a positive finite time, not {ttl!r}")

        def op(conn: sqlite3.Connection) -> bool:
            row = conn.execute("SELECT owner, until FROM pool_leads WHERE pool = ?", (pool,)).fetchone()
            if row is not None and row[0] != owner and row[1] > now:
                return False
            conn.execute(
                "INSERT OR REPLACE INTO pool_leads (pool, owner, until) VALUES (?, ?, ?)", (pool, owner, now + ttl)
            )
            return True

        return await self._run(op)

    async def release_pool_lead(self, pool: str, owner: str) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.release_pool_lead`."""
        _check_pool(pool)
        return await self._run(
            lambda conn: (
                conn.execute("DELETE FROM pool_leads WHERE pool = ? AND owner = ?", (pool, owner)).rowcount == 1
            )
        )


PURGE_EXPIRED_ENTRIES = (
    "DELETE FROM pool_entries WHERE rowid IN (SELECT rowid FROM pool_entries"
    " WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?)",
    0.0,
)
"""The batched delete of expired pool entries for ``purge_expired``: SQL taking ``now - retention`` and a batch
size, and the retention (none)."""

PURGE_CLOSED_PAIRINGS = (
    "DELETE FROM pool_pairings WHERE rowid IN (SELECT rowid FROM pool_pairings"
    " WHERE closed_at IS NOT NULL AND closed_at <= ? LIMIT ?)",
    CLOSED_PAIRING_RETENTION,
)
"""The same for the remembered ids of pairings closed or released more than
:data:`~bot.storage.pools.CLOSED_PAIRING_RETENTION` ago."""

PURGE_EXPIRED_LEADS = (
    "DELETE FROM pool_leads WHERE rowid IN (SELECT rowid FROM pool_leads WHERE until <= ? LIMIT ?)",
    0.0,
)
"""The same for the leases on pools' pairing passes that ran out (a pool's row comes back with its next pass)."""
