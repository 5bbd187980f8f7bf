"""Errors raised by game stores and a helper that maps back-end failures to one error type."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from redis.exceptions import AskError, ClusterDownError, RedisClusterException, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class StoreError(Exception):
    """Base class of every error a :class:`~bot.storage.store.Store` raises on purpose."""


class StoreUnavailableError(StoreError):
    """The storage back end cannot be reached right now (network down, server stopped, disk locked).

    The operation may or may not have been applied; callers should tell the user to retry later.
    """


class GameNotFoundError(StoreError, KeyError):
    """No game with this id exists (never created, or finished and expired)."""

    def __init__(self, game_id: str) -> None:
        """Remember the missing game's id."""
        super().__init__(game_id)
        self.game_id = game_id

    def __str__(self) -> str:
        """Return "no game with id '<id>'"."""
        return f"no game with id {self.game_id!r}"


UNAVAILABLE_ERRORS: tuple[type[BaseException], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    ClusterDownError,
    TryAgainError,
    RedisClusterException,  # e.g. no startup node of the cluster answers
    ConnectionError,
    TimeoutError,
    sqlite3.OperationalError,
)
"""Exception types that mean "the back end is unreachable" rather than "the request is wrong"."""


@contextmanager
def map_store_errors() -> Iterator[None]:
    """Run a block, turning back-end connection failures into :class:`StoreUnavailableError`.

    Usable around ``await`` expressions (it is a plain context manager).

    Returns: nothing.
    Raises: StoreUnavailableError when the block raises one of :data:`UNAVAILABLE_ERRORS`, or a MOVED/ASK
        redirection (a plain ``redis://`` URL pointing at a cluster node: the message says to use
        ``redis+cluster://``); any other exception propagates unchanged.
    """
    try:
        yield
    except StoreError:
        raise
    except AskError as exc:  # MOVED/ASK reach us only from a single-server client talking to a cluster node
        raise StoreUnavailableError(
            f"storage unavailable: REDIS_URL names a Redis Cluster node; use redis+cluster://host:port ({exc})"
        ) from exc
    except UNAVAILABLE_ERRORS as exc:
        raise StoreUnavailableError(f"storage unavailable: {exc.__class__.__name__}: {exc}") from exc
