"""Reports of lobby players, counted per reported user and shown to the operator (``/reports``); nothing automatic
follows from them (docs/rules.md "Lobby").

A report is counted with the stats role's exactly-once counter (:meth:`bot.storage.StatsRecords.add_game_stats`) in
a "chat" of its own, :data:`REPORTS_CHAT`, under the key ``report:<game id>:<reporter>``: a user reports a game's
opponent once however often they press, concurrent reports from any worker add up atomically, and the operator's
list is that chat's counters (the ``wins`` column counts the reports). Each report is also logged (INFO, with the
ids) for the operator's log search.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Final

from bot.storage import StatsRecords

log = logging.getLogger(__name__)

REPORTS_CHAT: Final = -(2**53) + 1
"""The "chat" whose counters are the reports (no Telegram chat has this id; next to the inline games' one)."""


@dataclass(frozen=True, slots=True)
class ReportCount:
    """How often ``user_id`` was reported (by distinct reporters and games)."""

    user_id: int
    reports: int


class Reports:
    """The reports of lobby players, on the stats records of the store."""

    def __init__(self, store: StatsRecords) -> None:
        """Count the reports in ``store``."""
        self._store = store

    async def report(self, reporter: int, reported: int, game_id: str) -> bool:
        """Count one report of ``reported`` by ``reporter`` after the game ``game_id`` (once per reporter and game).
        Returns: whether it was counted now (False: reported already). Raises: StoreUnavailableError."""
        counted = await self._store.add_game_stats(REPORTS_CHAT, f"report:{game_id}:{reporter}", {reported: (1, 0, 0)})
        if counted:
            log.info("lobby report: user %s reported user %s after game %s", reporter, reported, game_id)
        return counted

    async def counts(self, limit: int = 50) -> list[ReportCount]:
        """Return the reported users, most reported first (then by id), at most ``limit``. Raises:
        StoreUnavailableError."""
        counters = await self._store.chat_stats(REPORTS_CHAT)
        found = [ReportCount(user, stats.wins) for user, stats in counters.items() if stats.wins > 0]
        found.sort(key=lambda c: (-c.reports, c.user_id))
        return found[:limit]

    async def of_user(self, user_id: int) -> int:
        """Return how often ``user_id`` was reported. Raises: StoreUnavailableError."""
        return (await self._store.get_stats(REPORTS_CHAT, user_id)).wins
