"""Pairing pools on Redis (:class:`~bot.storage.pools.PairingPools`): seven keys per pool under one hash tag
(:mod:`bot.storage.redis.keys`), every operation one Lua script (:mod:`bot.storage.redis.pool_scripts`)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from ..pools import CLOSED_PAIRING_RETENTION, PoolEntry, StoredPairing, Withdrawal
from . import pool_scripts
from .client import RedisClient, dumps, text, texts
from .keys import POOL_KEY, POOLS_KEY

POOL_PARTS = ("z", "e", "x", "p", "pm", "b", "d")
"""The keys of one pool, in the order the scripts expect them."""

IDLE_POOL_AGE = 7 * 24 * 3600.0
"""A pool nobody put an entry into for this long, and which holds nothing, leaves the pool list ``purge_expired``
visits (it comes back with its next entry)."""

FORGET_IDLE_POOL = """
-- KEYS[1]: the pool list; ARGV[1]: pool; ARGV[2]: its last put must be at or before this time.
-- Returns 1 when dropped.
local t = redis.call('ZSCORE', KEYS[1], ARGV[1])
if t and tonumber(t) <= tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""


def pool_keys(pool: str) -> list[str]:
    """Return the seven keys of ``pool`` (see :data:`POOL_PARTS`).

    Raises: ValueError when ``pool`` is empty (an empty hash tag would scatter the keys over the cluster).
    """
    if not pool:
        raise ValueError("a pool needs a name")
    return [POOL_KEY.format(pool=pool, part=part) for part in POOL_PARTS]


def lead_key(pool: str) -> str:
    """Return the key of the lease on ``pool``'s pairing passes (its part ``l``, under the pool's hash tag).

    Raises: ValueError when ``pool`` is empty.
    """
    if not pool:
        raise ValueError("a pool needs a name")
    return POOL_KEY.format(pool=pool, part="l")


def _number(value: float, what: str) -> str:
    """Return ``value`` as exact text for a sorted set. Raises: ValueError when it is not finite."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{what} must be a finite number, not {value!r}")
    return repr(number)


def entry_json(entry: PoolEntry) -> str:
    """Return the stored JSON of ``entry``. Raises: ValueError for a score, since or expiry that is not finite."""
    _number(entry.since, "since")
    expires = "" if entry.expires is None else _number(entry.expires, "expires")
    return dumps(
        {"m": entry.member, "s": _number(entry.score, "score"), "t": entry.since, "x": expires, "d": entry.data}
    )


def parse_entry(raw: str) -> PoolEntry:
    """Return the entry stored as ``raw`` (:func:`entry_json`)."""
    value = json.loads(raw)
    expires = value["x"]
    return PoolEntry(
        member=value["m"],
        score=float(value["s"]),
        since=float(value["t"]),
        data=value["d"],
        expires=float(expires) if expires else None,
    )


def parse_pairing(pool: str, pairing_id: str, value: str) -> StoredPairing:
    """Return the pairing stored as ``<made>\\n<entry>\\n<entry>``."""
    made, first, second = value.split("\n", 2)
    return StoredPairing(
        pairing_id=pairing_id, pool=pool, entries=(parse_entry(first), parse_entry(second)), made=float(made)
    )


class RedisPools(RedisClient):
    """The pairing pools of a :class:`~bot.storage.redis.store.RedisGameStore`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Register the pool scripts on the client (see :class:`~bot.storage.redis.client.RedisClient`)."""
        super().__init__(*args, **kwargs)
        self._pool_put = self._redis.register_script(pool_scripts.POOL_PUT_SCRIPT)
        self._pool_remove = self._redis.register_script(pool_scripts.POOL_REMOVE_SCRIPT)
        self._pool_withdraw = self._redis.register_script(pool_scripts.POOL_WITHDRAW_SCRIPT)
        self._pool_entries = self._redis.register_script(pool_scripts.POOL_ENTRIES_SCRIPT)
        self._claim_pair = self._redis.register_script(pool_scripts.CLAIM_PAIR_SCRIPT)
        self._claim_pairs = self._redis.register_script(pool_scripts.CLAIM_PAIRS_SCRIPT)
        self._close_pairings = self._redis.register_script(pool_scripts.CLOSE_PAIRINGS_SCRIPT)
        self._lead_pool = self._redis.register_script(pool_scripts.LEAD_POOL_SCRIPT)
        self._unlead_pool = self._redis.register_script(pool_scripts.UNLEAD_POOL_SCRIPT)
        self._open_pairings = self._redis.register_script(pool_scripts.OPEN_PAIRINGS_SCRIPT)
        self._close_pairing = self._redis.register_script(pool_scripts.CLOSE_PAIRING_SCRIPT)
        self._release_pairing = self._redis.register_script(pool_scripts.RELEASE_PAIRING_SCRIPT)
        self._purge_pool = self._redis.register_script(pool_scripts.PURGE_POOL_SCRIPT)
        self._forget_idle_pool = self._redis.register_script(FORGET_IDLE_POOL)

    async def pool_put(self, pool: str, entry: PoolEntry) -> None:
        """See :meth:`bot.storage.pools.PairingPools.pool_put` (the pool list is touched after the entry is
        written, so that ``purge_expired`` never drops a pool that holds one)."""
        keys = pool_keys(pool)
        raw = entry_json(entry)
        expires = "" if entry.expires is None else repr(float(entry.expires))
        async with self._op():
            await self._pool_put(keys=keys, args=[entry.member, repr(float(entry.score)), raw, expires])
            await self._redis.zadd(POOLS_KEY, {pool: self._clock()})

    async def pool_remove(self, pool: str, member: str) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.pool_remove`."""
        keys = pool_keys(pool)
        async with self._op():
            return bool(await self._pool_remove(keys=keys, args=[member]))

    async def pool_withdraw(self, pool: str, member: str) -> Withdrawal:
        """See :meth:`bot.storage.pools.PairingPools.pool_withdraw`."""
        keys = pool_keys(pool)
        async with self._op():
            found = int(await self._pool_withdraw(keys=keys, args=[member]))
        return (Withdrawal.ABSENT, Withdrawal.REMOVED, Withdrawal.PAIRED)[found]

    async def pool_binding(self, pool: str, member: str) -> str | None:
        """See :meth:`bot.storage.pools.PairingPools.pool_binding`."""
        keys = pool_keys(pool)
        async with self._op():
            found = text(await self._redis.hget(keys[5], member))
        return None if found is None else str(found)

    async def pool_entry(self, pool: str, member: str, now: float) -> PoolEntry | None:
        """See :meth:`bot.storage.pools.PairingPools.pool_entry`."""
        keys = pool_keys(pool)
        async with self._op():
            raw = text(await self._redis.hget(keys[1], member))
        if raw is None:
            return None
        entry = parse_entry(raw)
        return None if entry.expires is not None and entry.expires <= now else entry

    async def pool_entries(
        self, pool: str, now: float, limit: int = 1000, *, after: tuple[float, str] | None = None
    ) -> list[PoolEntry]:
        """See :meth:`bot.storage.pools.PairingPools.pool_entries`."""
        keys = pool_keys(pool)
        if limit <= 0:
            return []
        cursor = ["", ""] if after is None else [_number(after[0], "the cursor's score"), after[1]]
        async with self._op():
            raws = texts(await self._pool_entries(keys=keys, args=[repr(float(now)), int(limit), *cursor]))
        return [parse_entry(raw) for raw in raws]

    async def claim_pair(
        self, pool: str, pairing_id: str, members: tuple[str, str], now: float
    ) -> StoredPairing | None:
        """See :meth:`bot.storage.pools.PairingPools.claim_pair`."""
        keys = pool_keys(pool)
        first, second = members
        if first == second:
            raise ValueError(f"a member cannot be paired with itself: {first!r}")
        made = repr(float(now))
        async with self._op():
            raws = await self._claim_pair(keys=keys, args=[pairing_id, first, second, made])
        if not raws:
            return None
        a, b = texts(raws)
        return StoredPairing(pairing_id=pairing_id, pool=pool, entries=(parse_entry(a), parse_entry(b)), made=now)

    async def claim_pairs(
        self, pool: str, claims: Sequence[tuple[str, tuple[str, str]]], now: float
    ) -> list[StoredPairing]:
        """See :meth:`bot.storage.pools.PairingPools.claim_pairs` (one script call for the batch)."""
        keys = pool_keys(pool)
        args: list[str] = [repr(float(now))]
        for pairing_id, (first, second) in claims:
            if first == second:
                raise ValueError(f"a member cannot be paired with itself: {first!r}")
            args += [pairing_id, first, second]
        if not claims:
            return []
        async with self._op():
            flat = await self._claim_pairs(keys=keys, args=args)
        made = []
        for i in range(0, len(flat), 3):
            pairing_id = claims[int(flat[i]) - 1][0]
            a, b = texts(flat[i + 1 : i + 3])
            made.append(
                StoredPairing(pairing_id=pairing_id, pool=pool, entries=(parse_entry(a), parse_entry(b)), made=now)
            )
        return made

    async def open_pairings(self, pool: str, made_before: float, limit: int = 100) -> list[StoredPairing]:
        """See :meth:`bot.storage.pools.PairingPools.open_pairings`."""
        keys = pool_keys(pool)
        if limit <= 0:
            return []
        async with self._op():
            flat = texts(await self._open_pairings(keys=keys, args=[repr(float(made_before)), int(limit)]))
        return [parse_pairing(pool, flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]

    async def close_pairing(self, pool: str, pairing_id: str) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.close_pairing`."""
        return await self._end_pairing(self._close_pairing, pool, pairing_id)

    async def close_pairings(self, pool: str, pairing_ids: Sequence[str]) -> int:
        """See :meth:`bot.storage.pools.PairingPools.close_pairings` (one script call)."""
        keys = pool_keys(pool)
        if not pairing_ids:
            return 0
        now = self._clock()
        async with self._op():
            closed = await self._close_pairings(
                keys=keys, args=[repr(now), repr(now - CLOSED_PAIRING_RETENTION), *pairing_ids]
            )
        return int(closed)

    async def release_pairing(self, pool: str, pairing_id: str) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.release_pairing`."""
        return await self._end_pairing(self._release_pairing, pool, pairing_id)

    async def _end_pairing(self, script: Any, pool: str, pairing_id: str) -> bool:
        """Run the close or release script on the pairing; return True when it was open."""
        keys = pool_keys(pool)
        now = self._clock()
        async with self._op():
            done = await script(keys=keys, args=[pairing_id, repr(now), repr(now - CLOSED_PAIRING_RETENTION)])
        return bool(done)

    async def try_lead_pool(self, pool: str, owner: str, ttl: float, now: float) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.try_lead_pool` (the key ``l`` of the pool, under its hash tag;
        it also expires on the server's clock after ``ttl``)."""
        key = lead_key(pool)
        if not (math.isfinite(ttl) and ttl > 0):
            raise ValueError(f"a lease lasts a positive finite time, not {ttl!r}")
        until = _number(now + ttl, "the lease's end")
        async with self._op():
            granted = await self._lead_pool(
                keys=[key], args=[owner, repr(float(now)), until, max(1, math.ceil(ttl * 1000))]
            )
        return bool(granted)

    async def release_pool_lead(self, pool: str, owner: str) -> bool:
        """See :meth:`bot.storage.pools.PairingPools.release_pool_lead`."""
        key = lead_key(pool)
        async with self._op():
            return bool(await self._unlead_pool(keys=[key], args=[owner]))

    async def purge_pools(self, batch: int) -> int:
        """Delete the expired entries of every pool (at most ``batch`` per script call) and trim the remembered
        pairing ids; drop from the pool list the pools idle for :data:`IDLE_POOL_AGE` that hold nothing.

        Returns: the number of entries deleted. Raises: StoreUnavailableError (see the role).
        """
        removed = 0
        size = max(1, int(batch))
        now = self._clock()
        async with self._op():
            pools = texts(await self._redis.zrange(POOLS_KEY, 0, -1))
            for pool in pools:
                keys = pool_keys(pool)
                while True:
                    count, empty = await self._purge_pool(
                        keys=keys, args=[repr(now), size, repr(now - CLOSED_PAIRING_RETENTION)]
                    )
                    removed += int(count)
                    if int(count) < size:
                        break
                if int(empty):
                    await self._forget_idle_pool(keys=[POOLS_KEY], args=[pool, repr(now - IDLE_POOL_AGE)])
        return removed
