"""Waiting out an outage quietly: one WARNING when a part loses a back end, one INFO when it has it back.

A loop that talks to Redis (or the store) keeps one :class:`Outage` and tells it how each attempt went:
:meth:`Outage.failed` on a failure (it returns how long to wait before the next attempt: a doubling backoff, capped)
and :meth:`Outage.succeeded` on a success. The first failure of an outage is logged as one WARNING line, without a
traceback for an expected network failure (:data:`NETWORK_ERRORS`); the failures after it only at DEBUG; the first
success after them as one INFO line saying how long the outage lasted, as this part saw it (from its first failed
attempt to its first successful one). A part that tries only when asked (queueing a job) asks
:meth:`Outage.retry_due` whether its backoff has passed before it tries again.

This module imports nothing from the bot, so any layer can use it.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Final

from redis.exceptions import ClusterDownError, ReadOnlyError, RedisClusterException, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

NETWORK_ERRORS: Final[tuple[type[BaseException], ...]] = (
    RedisConnectionError,  # BusyLoadingError too: a restarted server still loading its data
    RedisTimeoutError,
    ReadOnlyError,  # a replica answering while a failover promotes another server
    ClusterDownError,
    TryAgainError,
    RedisClusterException,  # no node of the cluster answers
    OSError,  # refused or reset connections, DNS failures, socket timeouts
)
"""Failures that mean "the server cannot be reached right now" (waited out, logged without a traceback). The store
wraps them in :class:`bot.storage.errors.StoreUnavailableError`, which its callers add to this tuple."""


class Outage:
    """The outages of one part of the bot (see the module docstring)."""

    def __init__(
        self,
        part: str,
        logger: logging.Logger,
        *,
        needs: str = "Redis",
        meanwhile: str = "",
        first_delay: float = 0.25,
        max_delay: float = 2.0,
        jitter: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
        draw: Callable[[], float] = random.random,
    ) -> None:
        """Report as ``part`` (``"job queue receiver"``) on ``logger`` that ``needs`` (``"Redis"``, ``"the
        store"``) cannot be reached, adding ``meanwhile`` (what the part does instead, e.g. ``"jobs run in this
        process"``) to the WARNING. The waits double from ``first_delay`` up to ``max_delay`` seconds, each drawn
        within ±``jitter`` (a fraction) of that so that workers do not retry in step; ``clock`` measures the
        outage and ``draw`` returns numbers in [0, 1)."""
        self.part = part
        self.logger = logger
        self.needs = needs
        self.meanwhile = meanwhile
        self.first_delay = first_delay
        self.max_delay = max(max_delay, first_delay)
        self.jitter = jitter
        self.clock = clock
        self.draw = draw
        self.failures = 0
        """Failed attempts in the current outage (0: no outage)."""
        self.since = 0.0
        """When (on ``clock``) the current outage's first failure was seen."""
        self.backoff = 0.0
        """The wait after the latest failure (0 when there is no outage)."""
        self._last_failure = 0.0

    @property
    def down(self) -> bool:
        """Whether the part is in an outage (its latest attempt failed)."""
        return self.failures > 0

    def failed(self, error: BaseException, *, expected: bool = True) -> float:
        """Record a failed attempt with ``error``: the first of an outage is logged as a WARNING (with the traceback
        only when it is not ``expected``), the others at DEBUG. Returns: the seconds to wait before the next
        attempt (a doubling backoff, at most ``max_delay``)."""
        now = self.clock()
        self.failures += 1
        if self.failures == 1:
            self.since = now
            meanwhile = f"; {self.meanwhile}" if self.meanwhile else ""
            what = f"{self.needs} is unavailable" if expected else "unexpected failure"
            waiting = "waiting for it, trying" if expected else "trying"
            self.logger.warning(
                "%s: %s (%s)%s; %s again at most every %g s",
                self.part,
                what,
                describe(error),
                meanwhile,
                waiting,
                self.max_delay,
                exc_info=None if expected else error,
            )
        else:
            self.logger.debug("%s: %s is still unavailable (%s)", self.part, self.needs, describe(error))
        base = min(self.max_delay, self.first_delay * 2.0 ** min(self.failures - 1, 64))
        self.backoff = min(self.max_delay, base * (1.0 - self.jitter + 2.0 * self.jitter * self.draw()))
        self._last_failure = now
        return self.backoff

    def succeeded(self, detail: str = "") -> bool:
        """Record a successful attempt: when it ends an outage, log one INFO line with how long the outage lasted and
        ``detail`` (what was caught up, e.g. ``"finished jobs acknowledged late: 2"``) and reset the backoff.
        Returns: whether it ended an outage."""
        if not self.failures:
            return False
        lasted = self.clock() - self.since
        attempts = self.failures
        self.failures = 0
        self.backoff = 0.0
        self.logger.info(
            "%s: %s is back after %.1f s (%d failed %s)%s",
            self.part,
            self.needs,
            lasted,
            attempts,
            "attempt" if attempts == 1 else "attempts",
            f"; {detail}" if detail else "",
        )
        return True

    def retry_due(self) -> bool:
        """Return whether the part may try again now: True when there is no outage or the wait after the latest
        failure has passed."""
        return not self.failures or self.clock() - self._last_failure >= self.backoff


def describe(error: BaseException) -> str:
    """Return ``"<type>: <message>"`` of ``error`` (the type alone when it has no message), for one log line."""
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
