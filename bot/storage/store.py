"""``Store``: every role of the storage in one protocol, the type the factory builds.

Services that need only part of it are typed with the role they use (:mod:`bot.storage.games`,
:mod:`~bot.storage.tournaments`, :mod:`~bot.storage.ratings`, :mod:`~bot.storage.challenges`,
:mod:`~bot.storage.settings`, :mod:`~bot.storage.stats`, :mod:`~bot.storage.updates`, :mod:`~bot.storage.budgets`,
:mod:`~bot.storage.rates`, :mod:`~bot.storage.pools`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .budgets import SendBudgets
from .challenges import ChallengeRecords
from .games import GameRecords
from .pools import PairingPools
from .rates import RateBuckets
from .ratings import RatingRecords
from .settings import SettingsRecords
from .stats import StatsRecords
from .tournaments import TournamentRecords
from .updates import UpdateClaims


@runtime_checkable
class Store(
    GameRecords,
    TournamentRecords,
    RatingRecords,
    ChallengeRecords,
    SettingsRecords,
    StatsRecords,
    UpdateClaims,
    SendBudgets,
    RateBuckets,
    PairingPools,
    Protocol,
):
    """Persistent storage of games, tournaments, ratings, challenges, settings, stats, update claims, the bot's
    send budgets, rate buckets and pairing pools.

    Every method raises :class:`~bot.storage.errors.StoreUnavailableError` when the back end cannot be
    reached; nothing else is raised for connection trouble.
    """

    async def purge_expired(self, batch: int = 500) -> int:
        """Delete expired records and trim stale index entries, in transactions of at most ``batch`` rows so
        that other operations are served in between. Meant to be called periodically (e.g. by the sweeper);
        no other operation purges.

        Returns: the number of records or index entries removed (0 when there was nothing to do).
        """
        ...

    async def ping(self) -> None:
        """Check that the back end answers.

        Raises: StoreUnavailableError when it does not.
        """
        ...

    async def close(self) -> None:
        """Release connections and threads. The store must not be used afterwards."""
        ...
