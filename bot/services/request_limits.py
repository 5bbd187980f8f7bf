"""The Mini App's per-user request limits: a token bucket per user and kind of request, kept in the store.

Every signed request of the Mini App's API takes a token of its user's bucket of its kind (:class:`RequestKind`)
before any game is loaded; a request that finds none is refused (the server answers 429 with ``Retry-After``). The
buckets are the store's (:mod:`bot.storage.rates`), so a user's requests count the same whichever webhook worker
they reach, and a restart forgets nothing.

A refused request costs one store call at most: the store says how long the bucket stays empty, and as nothing but
time adds a token (a refusal takes none, other workers' requests only take more), every request of that user and
kind before then is refused here, from memory, with the rest of that wait — the same answer the store would give.

When the store cannot be reached, requests are let through: the game itself needs the store and refuses them
anyway, and an outage must not turn into a wall of 429s. The outage is reported once (one WARNING, one INFO when
the store is back, :class:`~bot.outage.Outage`), and while it lasts the store is asked again only after a backoff,
so an outage does not cost every request a store timeout on top of the one the game's own call pays.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Final

from bot.outage import Outage
from bot.storage import RateBuckets, RateLimit, StoreUnavailableError

log = logging.getLogger(__name__)

MAX_REMEMBERED: Final = 10_000
"""The most empty buckets remembered at once (beyond, the ones whose wait is over are forgotten, then all: a bucket
forgotten only costs a store call)."""


class RequestKind(StrEnum):
    """The kinds of the Mini App's requests, each limited on its own bucket."""

    ACTION = "action"
    """``POST …/actions``: an action on a game."""
    READ = "read"
    """``GET`` of a game or of a tournament (a page opening, reloading, polling a tournament)."""


class RequestLimiter:
    """Per-user limits of the Mini App's requests (see the module docstring)."""

    def __init__(
        self,
        store: RateBuckets,
        limits: Mapping[RequestKind, RateLimit],
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """Count requests in the buckets of ``store``, each kind with its limit of ``limits`` (a kind without one,
        or with a rate of 0, is not limited), at the times of ``clock`` (the wall clock: the buckets are shared by
        the workers, whose wall clocks agree); ``monotonic`` times the backoff of an outage."""
        self._store = store
        self._limits = {kind: limit for kind, limit in limits.items() if limit.rate > 0}
        self._clock = clock
        self._empty_until: dict[tuple[int, RequestKind], float] = {}
        """Buckets the store found empty, and until when (on ``clock``)."""
        self._outage = Outage(
            "Mini App rate limits",
            log,
            needs="the store",
            meanwhile="the Mini App's requests are let through unlimited",
            first_delay=1.0,
            max_delay=10.0,
            clock=monotonic,
        )

    def limit(self, kind: RequestKind) -> RateLimit | None:
        """Return the limit of ``kind``, or None when it is not limited."""
        return self._limits.get(kind)

    async def wait(self, user_id: int, kind: RequestKind) -> float:
        """Take one request of ``kind`` of the budget of ``user_id``.

        Returns: 0.0 when the request may go on (a token was taken; also when ``kind`` is not limited or the store
        cannot be reached), else the seconds until the user may make a request of that kind again. Raises nothing
        for an unreachable store.
        """
        limit = self._limits.get(kind)
        if limit is None or not self._outage.retry_due():
            return 0.0
        now = self._clock()
        until = self._empty_until.get((user_id, kind))
        if until is not None:
            if until > now:
                return until - now
            del self._empty_until[(user_id, kind)]
        try:
            wait = await self._store.take_token(f"webapp:{kind.value}:{user_id}", now, limit)
        except StoreUnavailableError as error:
            self._outage.failed(error)
            return 0.0
        self._outage.succeeded()
        if wait > 0:
            self._remember_empty(user_id, kind, now + wait, now)
        return wait

    def _remember_empty(self, user_id: int, kind: RequestKind, until: float, now: float) -> None:
        """Remember that the bucket of ``user_id`` and ``kind`` is empty until ``until``, within
        :data:`MAX_REMEMBERED` buckets."""
        if len(self._empty_until) >= MAX_REMEMBERED:
            self._empty_until = {key: at for key, at in self._empty_until.items() if at > now}
            if len(self._empty_until) >= MAX_REMEMBERED:
                self._empty_until.clear()
        self._empty_until[(user_id, kind)] = until
