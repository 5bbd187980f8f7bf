"""The Mini App's refused requests, logged as one summary line an interval instead of one line each.

A flood of unsigned, forged or over-rate requests must cost as little as possible, and a log line each would be the
dearest part of answering them (and would bury everything else in the log). So each refusal is only counted by
reason (:meth:`RefusalSummary.count`), and at most once per interval one INFO line gives the counts and the users
refused most (:meth:`RefusalSummary.flush`, run by :meth:`RefusalSummary.run`): where the HTTP server's own counts
give the statuses, this line says why the Mini App refused them and who was refused.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable
from typing import Final

log = logging.getLogger(__name__)

SUMMARY_INTERVAL: Final = 60.0
"""Seconds between two summary lines, at the most."""


class RefusalSummary:
    """Counts of the refused requests since the last summary line (see the module docstring)."""

    def __init__(
        self,
        *,
        interval: float = SUMMARY_INTERVAL,
        logger: logging.Logger = log,
        clock: Callable[[], float] = time.monotonic,
        max_users: int = 1000,
    ) -> None:
        """Log a summary on ``logger`` at most every ``interval`` seconds of ``clock``; tell apart at most
        ``max_users`` signed-in users in one interval (the counts by reason stay exact beyond)."""
        self.interval = interval
        self.logger = logger
        self.clock = clock
        self.max_users = max_users
        self.reasons: Counter[str] = Counter()
        """Refused requests by reason since the last summary."""
        self.users: Counter[int] = Counter()
        """Requests of signed-in users refused (over the rate, malformed) by user since the last summary."""
        self.since = clock()

    def count(self, reason: str, user_id: int | None = None) -> None:
        """Count one refusal for ``reason`` (of ``user_id`` when the caller is signed in). Returns nothing."""
        self.reasons[reason] += 1
        if user_id is not None and (user_id in self.users or len(self.users) < self.max_users):
            self.users[user_id] += 1

    def flush(self) -> bool:
        """Log one INFO line with the counts since the last one, when there are any, and start counting afresh.
        Returns: whether a line was logged."""
        now = self.clock()
        if not self.reasons:
            self.since = now
            return False
        total = sum(self.reasons.values())
        by_reason = ", ".join(f"{reason} {count}" for reason, count in sorted(self.reasons.items()))
        users = ""
        if self.users:
            top, most = self.users.most_common(1)[0]
            many = f"{len(self.users)}+" if len(self.users) >= self.max_users else str(len(self.users))
            users = f"; signed-in users refused: {many}, most often user {top} ({most})"
        self.logger.info(
            "Mini App: %d %s refused in the last %.0f s (%s)%s",
            total,
            "request" if total == 1 else "requests",
            now - self.since,
            by_reason,
            users,
        )
        self.reasons.clear()
        self.users.clear()
        self.since = now
        return True

    async def run(self) -> None:
        """Log the summary every interval until cancelled. Returns: never."""
        while True:
            await asyncio.sleep(self.interval)
            self.flush()
