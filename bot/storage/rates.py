"""The rate buckets role: token buckets kept in the store, so that every worker counts the same requests.

A bucket holds at most ``burst`` tokens and gains ``rate`` tokens a second; each request takes one, and a request
that finds none is refused with the time until the next token. The Mini App's per-user limits
(:mod:`bot.services.request_limits`) are buckets of this role: a user's requests may reach any webhook worker, so a
limit counted in one worker's memory would let ``workers × rate`` through.

The record of a bucket is one number: the time at which it will be full again (nothing is stored for a full bucket,
and a record whose time has passed is the same as none, so the back ends drop it then). Times are the caller's clock
(``now``): the workers' wall clocks, which must be kept in step (NTP, as the store's leases already need).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class RateLimit:
    """The size and the refill of one bucket, as :meth:`RateBuckets.take_token` applies them.

    Attributes:
        rate: tokens gained a second (more than 0).
        burst: the most tokens the bucket holds: requests that may come at once after a quiet spell (at least 1).
    """

    rate: float
    burst: int


@runtime_checkable
class RateBuckets(Protocol):
    """Token buckets shared by all workers (see the module docstring).

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back end
    cannot be reached.
    """

    async def take_token(self, bucket: str, now: float, limit: RateLimit) -> float:
        """Take one token of ``bucket`` at ``now``, the bucket holding ``limit.burst`` tokens and gaining
        ``limit.rate`` a second. A bucket never used, or not used for ``burst / rate`` seconds, is full.

        Returns: 0.0 when a token was taken (and recorded), else the seconds until the bucket has one again
        (nothing recorded: a refused request costs the caller nothing).
        """
        ...
