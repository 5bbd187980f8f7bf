"""Game storage: the ``GameStore`` protocol, its Redis and SQLite implementations, and the factory."""

from .base import (
    COUNTED_GAMES_RETENTION,
    RATED_MATCHES_RETENTION,
    TOURNAMENT_HISTORY_RETENTION,
    UNSET,
    BoardState,
    GameStore,
    JSONDict,
    Stats,
    StoredChallenge,
    StoredGame,
    StoredRating,
    StoredTournament,
    check_rating_change,
    check_variant,
)
from .errors import GameNotFoundError, StoreError, StoreUnavailableError, map_store_errors
from .factory import check_persistence, open_store
from .ids import is_valid_id, new_id
from .redis_store import RedisGameStore
from .sqlite_store import SqliteGameStore

__all__ = [
    "COUNTED_GAMES_RETENTION",
    "RATED_MATCHES_RETENTION",
    "TOURNAMENT_HISTORY_RETENTION",
    "UNSET",
    "BoardState",
    "GameNotFoundError",
    "GameStore",
    "JSONDict",
    "RedisGameStore",
    "SqliteGameStore",
    "Stats",
    "StoreError",
    "StoreUnavailableError",
    "StoredChallenge",
    "StoredGame",
    "StoredRating",
    "StoredTournament",
    "check_persistence",
    "check_rating_change",
    "check_variant",
    "is_valid_id",
    "map_store_errors",
    "new_id",
    "open_store",
]
