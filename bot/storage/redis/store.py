"""``Store`` on Redis (redis.asyncio), a single server or a Redis Cluster (``redis+cluster://host:port``).

The store is the union of one class per aggregate (games, tournaments, ratings, challenges, settings, stats, update
claims, send budgets, rate buckets, pairing pools) over one client (:class:`~bot.storage.redis.client.RedisClient`);
the key layout is in :mod:`bot.storage.redis.keys`, the Lua scripts in :mod:`bot.storage.redis.scripts` (the pools'
in :mod:`bot.storage.redis.pool_scripts`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

from .budgets import RedisBudgets
from .challenges import RedisChallenges
from .client import text, texts
from .games import RedisGames
from .keys import GAME_KEY, QUARANTINE_KEY
from .pools import RedisPools
from .rates import RedisRates
from .ratings import RedisRatings
from .settings import RedisSettings
from .stats import RedisStats
from .tournaments import RedisTournaments
from .updates import RedisUpdates


class RedisGameStore(
    RedisGames,
    RedisTournaments,
    RedisRatings,
    RedisChallenges,
    RedisSettings,
    RedisStats,
    RedisUpdates,
    RedisBudgets,
    RedisRates,
    RedisPools,
):
    """A :class:`~bot.storage.store.Store` on a Redis server or a Redis Cluster."""

    async def purge_expired(self, batch: int = 500) -> int:
        """See :meth:`bot.storage.store.Store.purge_expired`.

        Redis expires records (games, finished tournaments) by itself, and ``apply_ratings`` trims the applied
        match keys in its script; this drops entries of vanished games from the quarantine list (other
        indices are repaired when read) and the expired entries of the pairing pools
        (:meth:`~bot.storage.redis.pools.RedisPools.purge_pools`). Returns the number of entries dropped.
        """
        removed = 0
        async with self._op():
            start = 0
            while True:
                ids = texts(await self._redis.zrange(QUARANTINE_KEY, start, start + batch - 1))
                if not ids:
                    break
                async with self._redis.pipeline(transaction=False) as pipe:
                    for game_id in ids:
                        pipe.exists(GAME_KEY.format(game_id=game_id))
                    exists = await pipe.execute()
                gone = [gid for gid, present in zip(ids, exists, strict=True) if not present]
                if gone:
                    removed += int(await self._redis.zrem(QUARANTINE_KEY, *gone))
                start += len(ids) - len(gone)
        removed += await self.purge_pools(batch)
        return removed

    async def persistence_warning(self) -> str | None:
        """Return a warning text when a Redis server of this store keeps nothing on disk (AOF off and no RDB
        snapshots), else None; None too when the server does not allow ``CONFIG GET``.

        Raises: StoreUnavailableError when the server cannot be reached.
        """
        async with self._op():
            try:
                if isinstance(self._redis, RedisCluster):
                    nodes = self._redis.get_primaries()
                    configs = [
                        (
                            {
                                **await self._redis.config_get("appendonly", target_nodes=node),
                                **await self._redis.config_get("save", target_nodes=node),
                            },
                            node.name,
                        )
                        for node in nodes
                    ]
                else:
                    config = {**await self._redis.config_get("appendonly"), **await self._redis.config_get("save")}
                    configs = [(config, "the Redis server")]
            except ResponseError:
                return None  # CONFIG is disabled or not allowed for this user (e.g. a managed Redis)
        volatile = [name for config, name in configs if _is_volatile(cast(Mapping[str, Any], config))]
        if not volatile:
            return None
        return (
            f'Redis persistence is off on {", ".join(volatile)} (appendonly no, save ""): a restart or crash of'
            " Redis loses every game, setting and statistic. Enable AOF (appendonly yes) or RDB snapshots (save)."
        )

    async def ping(self) -> None:
        """See :meth:`bot.storage.store.Store.ping`."""
        async with self._op():
            await self._redis.ping()

    async def close(self) -> None:
        """See :meth:`bot.storage.store.Store.close`."""
        await self._redis.aclose()


def _is_volatile(config: Mapping[str, Any]) -> bool:
    """Return True when a ``CONFIG GET appendonly`` + ``CONFIG GET save`` answer shows no persistence at all."""
    appendonly = str(text(config.get("appendonly", ""))).strip().lower()
    save = str(text(config.get("save", ""))).strip()
    return appendonly == "no" and save == ""
