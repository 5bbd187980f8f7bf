"""Rate buckets on Redis (:class:`~bot.storage.rates.RateBuckets`): one script per call on the bucket's one key,
``{rl:<bucket>}`` (see :mod:`bot.storage.redis.keys`)."""

from __future__ import annotations

from ..rates import RateLimit
from .client import RedisClient
from .keys import RATE_BUCKET_KEY

KEEP_MARGIN_MS = 60_000
"""Milliseconds a bucket's key is kept beyond the time it is full again (the callers' clocks may run ahead of the
server's; a key lost early only ever lets a request through that the bucket would have held)."""


class RedisRates(RedisClient):
    """The rate buckets of a :class:`~bot.storage.redis.store.RedisGameStore`."""

    async def take_token(self, bucket: str, now: float, limit: RateLimit) -> float:
        """See :meth:`bot.storage.rates.RateBuckets.take_token`."""
        async with self._op():
            result = await self._take_token(
                keys=[RATE_BUCKET_KEY.format(bucket=bucket)],
                args=[repr(float(now)), repr(1.0 / limit.rate), max(1, int(limit.burst)), KEEP_MARGIN_MS],
            )
        return max(0.0, float(result))
