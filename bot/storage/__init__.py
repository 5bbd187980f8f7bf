"""Storage: one role protocol per aggregate, their union ``Store``, the Redis and SQLite back ends, and the factory.

Roles: :mod:`~bot.storage.games` (``GameRecords``), :mod:`~bot.storage.tournaments` (``TournamentRecords``),
:mod:`~bot.storage.ratings` (``RatingRecords``), :mod:`~bot.storage.challenges` (``ChallengeRecords``),
:mod:`~bot.storage.settings` (``SettingsRecords``), :mod:`~bot.storage.stats` (``StatsRecords``),
:mod:`~bot.storage.updates` (``UpdateClaims``), :mod:`~bot.storage.budgets` (``SendBudgets``),
:mod:`~bot.storage.rates` (``RateBuckets``) and
:mod:`~bot.storage.pools` (``PairingPools``);
:mod:`~bot.storage.store` (``Store``) is all of them.
"""

from .budgets import SendBudgets, SendLimits
from .challenges import ChallengeRecords, StoredChallenge
from .documents import UNSET, JSONDict
from .errors import GameNotFoundError, StoreError, StoreUnavailableError, map_store_errors
from .factory import check_persistence, open_store
from .games import BoardFence, BoardState, GameRecords, StoredGame
from .ids import is_valid_id, new_id
from .pools import CLOSED_PAIRING_RETENTION, PairingPools, PoolEntry, StoredPairing
from .rates import RateBuckets, RateLimit
from .ratings import RATED_MATCHES_RETENTION, RatingRecords, StoredRating, check_rating_change, check_variant
from .redis import RedisGameStore
from .settings import SettingsRecords
from .sqlite import SqliteGameStore
from .stats import COUNTED_GAMES_RETENTION, Stats, StatsRecords
from .store import Store
from .tournaments import TOURNAMENT_HISTORY_RETENTION, StoredTournament, TournamentRecords
from .updates import UpdateClaim, UpdateClaims

__all__ = [
    "CLOSED_PAIRING_RETENTION",
    "COUNTED_GAMES_RETENTION",
    "RATED_MATCHES_RETENTION",
    "TOURNAMENT_HISTORY_RETENTION",
    "UNSET",
    "BoardFence",
    "BoardState",
    "ChallengeRecords",
    "GameNotFoundError",
    "GameRecords",
    "JSONDict",
    "PairingPools",
    "PoolEntry",
    "RateBuckets",
    "RateLimit",
    "RatingRecords",
    "RedisGameStore",
    "SendBudgets",
    "SendLimits",
    "SettingsRecords",
    "SqliteGameStore",
    "Stats",
    "StatsRecords",
    "Store",
    "StoreError",
    "StoreUnavailableError",
    "StoredChallenge",
    "StoredGame",
    "StoredPairing",
    "StoredRating",
    "StoredTournament",
    "TournamentRecords",
    "UpdateClaim",
    "UpdateClaims",
    "check_persistence",
    "check_rating_change",
    "check_variant",
    "is_valid_id",
    "map_store_errors",
    "new_id",
    "open_store",
]
