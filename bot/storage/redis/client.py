"""The connection of the Redis back end: the client, its scripts and the gate every operation passes.

:class:`RedisClient` is the base of every aggregate's class (``games.py``, ``tournaments.py``, ...); the store
(:class:`~bot.storage.redis.store.RedisGameStore`) combines them over one client.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Self

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster

from ..errors import StoreUnavailableError, map_store_errors
from . import scripts
from .keys import DEADLINES_KEY, GAME_KEY, TOURNAMENT_DEADLINES_KEY, TOURNAMENT_KEY, cluster_startup_url
from .versioned import VersionedDocs


def dumps(value: Any) -> str:
    """Return ``value`` as compact JSON (non-ASCII kept as is)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def text(value: Any) -> Any:
    """Return ``value`` decoded when it is bytes (the client decodes responses; this only satisfies typing)."""
    return value.decode() if isinstance(value, bytes) else value


def texts(values: Any) -> list[str]:
    """Return a list of response strings (decoded when bytes)."""
    return [str(text(v)) for v in values]


class RedisClient:
    """One ``redis.asyncio`` client with the store's Lua scripts registered on it."""

    CREATE_SCRIPT = scripts.CREATE_SCRIPT
    CAS_SCRIPT = scripts.CAS_SCRIPT
    SET_DEADLINE_SCRIPT = scripts.SET_DEADLINE_SCRIPT
    SET_BOARD_SCRIPT = scripts.SET_BOARD_SCRIPT
    FENCE_BOARD_SCRIPT = scripts.FENCE_BOARD_SCRIPT
    LAND_BOARD_SCRIPT = scripts.LAND_BOARD_SCRIPT
    DEMOTE_BOARD_SCRIPT = scripts.DEMOTE_BOARD_SCRIPT
    ADOPT_BOARD_SCRIPT = scripts.ADOPT_BOARD_SCRIPT
    FORGET_STALE_SCRIPT = scripts.FORGET_STALE_SCRIPT
    MARK_SEEN_SCRIPT = scripts.MARK_SEEN_SCRIPT
    QUARANTINE_SCRIPT = scripts.QUARANTINE_SCRIPT
    ADD_STATS_SCRIPT = scripts.ADD_STATS_SCRIPT
    ADD_GAME_STATS_SCRIPT = scripts.ADD_GAME_STATS_SCRIPT
    MIGRATE_STATS_SCRIPT = scripts.MIGRATE_STATS_SCRIPT
    CLAIM_CHAT_TOURNAMENT_SCRIPT = scripts.CLAIM_CHAT_TOURNAMENT_SCRIPT
    RELEASE_CHAT_TOURNAMENT_SCRIPT = scripts.RELEASE_CHAT_TOURNAMENT_SCRIPT
    BURY_TOURNAMENT_SCRIPT = scripts.BURY_TOURNAMENT_SCRIPT
    CREATE_TOURNAMENT_SCRIPT = scripts.CREATE_TOURNAMENT_SCRIPT
    TOURNAMENT_CAS_SCRIPT = scripts.TOURNAMENT_CAS_SCRIPT
    APPLY_RATINGS_SCRIPT = scripts.APPLY_RATINGS_SCRIPT
    TAKE_SEND_SCRIPT = scripts.TAKE_SEND_SCRIPT
    REFUND_SEND_SCRIPT = scripts.REFUND_SEND_SCRIPT
    HOLD_SENDS_SCRIPT = scripts.HOLD_SENDS_SCRIPT
    TAKE_TOKEN_SCRIPT = scripts.TAKE_TOKEN_SCRIPT

    def __init__(
        self,
        redis: Redis | RedisCluster,
        *,
        clock: Callable[[], float] = time.time,
        max_concurrency: int | None = None,
        timeout: float = 5.0,
    ) -> None:
        """Wrap a ``redis.asyncio`` client (``Redis`` or ``RedisCluster``) created with ``decode_responses=True``.

        ``max_concurrency``: when set, at most this many operations run at once and the others wait (up to
        ``timeout`` seconds, then StoreUnavailableError) — used for the cluster client, whose per-node pools
        refuse connections beyond their limit instead of queueing. A single-server client should get a
        ``BlockingConnectionPool`` instead (see :meth:`from_url`).
        """
        self._redis = redis
        self._clock = clock
        self._timeout = timeout
        self._gate = asyncio.Semaphore(max_concurrency) if max_concurrency else None
        self._cluster_ready = not isinstance(redis, RedisCluster)
        self._cluster_init_lock = asyncio.Lock()
        self._stats_checked: set[int] = set()
        self._create = redis.register_script(self.CREATE_SCRIPT)
        self._cas = redis.register_script(self.CAS_SCRIPT)
        self._set_deadline = redis.register_script(self.SET_DEADLINE_SCRIPT)
        self._set_board = redis.register_script(self.SET_BOARD_SCRIPT)
        self._fence_board = redis.register_script(self.FENCE_BOARD_SCRIPT)
        self._land_board = redis.register_script(self.LAND_BOARD_SCRIPT)
        self._demote_board = redis.register_script(self.DEMOTE_BOARD_SCRIPT)
        self._adopt_board = redis.register_script(self.ADOPT_BOARD_SCRIPT)
        self._forget_stale = redis.register_script(self.FORGET_STALE_SCRIPT)
        self._mark_seen = redis.register_script(self.MARK_SEEN_SCRIPT)
        self._quarantine = redis.register_script(self.QUARANTINE_SCRIPT)
        self._add_stats = redis.register_script(self.ADD_STATS_SCRIPT)
        self._add_game_stats = redis.register_script(self.ADD_GAME_STATS_SCRIPT)
        self._migrate_stats = redis.register_script(self.MIGRATE_STATS_SCRIPT)
        self._claim_chat_tournament = redis.register_script(self.CLAIM_CHAT_TOURNAMENT_SCRIPT)
        self._release_chat_tournament = redis.register_script(self.RELEASE_CHAT_TOURNAMENT_SCRIPT)
        self._bury_tournament = redis.register_script(self.BURY_TOURNAMENT_SCRIPT)
        self._create_tournament = redis.register_script(self.CREATE_TOURNAMENT_SCRIPT)
        self._tournament_cas = redis.register_script(self.TOURNAMENT_CAS_SCRIPT)
        self._apply_ratings = redis.register_script(self.APPLY_RATINGS_SCRIPT)
        self._take_send = redis.register_script(self.TAKE_SEND_SCRIPT)
        self._refund_send = redis.register_script(self.REFUND_SEND_SCRIPT)
        self._hold_sends = redis.register_script(self.HOLD_SENDS_SCRIPT)
        self._take_token = redis.register_script(self.TAKE_TOKEN_SCRIPT)
        self._game_docs = VersionedDocs(
            redis,
            key=lambda game_id: GAME_KEY.format(game_id=game_id),
            index_key=DEADLINES_KEY,
            set_deadline=self._set_deadline,
        )
        self._tournament_docs = VersionedDocs(
            redis,
            key=lambda tournament_id: TOURNAMENT_KEY.format(tournament_id=tournament_id),
            index_key=TOURNAMENT_DEADLINES_KEY,
            set_deadline=self._set_deadline,
        )

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        timeout: float = 5.0,
        max_connections: int = 50,
    ) -> Self:
        """Return a store on a new client for ``url``; connects lazily.

        ``redis://host:port/db`` (or ``rediss://``): one server, through a blocking pool of at most
        ``max_connections`` connections — a burst of operations waits for a free connection (up to ``timeout``
        seconds) instead of being refused. ``redis+cluster://host:port`` (or ``rediss+cluster://``): a Redis
        Cluster reached through any of its nodes; at most ``max_connections`` operations run at once.
        Raises: nothing (a malformed URL raises ValueError from redis-py).
        """
        startup = cluster_startup_url(url)
        if startup is not None:
            cluster = RedisCluster.from_url(
                startup,
                decode_responses=True,
                socket_connect_timeout=timeout,
                socket_timeout=timeout,
                health_check_interval=30,
                max_connections=max_connections,
            )
            return cls(cluster, clock=clock, max_concurrency=max_connections, timeout=timeout)
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=timeout,
            decode_responses=True,
            socket_connect_timeout=timeout,
            socket_timeout=timeout,
            health_check_interval=30,
        )
        return cls(Redis.from_pool(pool), clock=clock, timeout=timeout)

    @property
    def redis(self) -> Redis | RedisCluster:
        """Return the underlying client (for tests and diagnostics)."""
        return self._redis

    @property
    def is_cluster(self) -> bool:
        """Return True when the store talks to a Redis Cluster."""
        return isinstance(self._redis, RedisCluster)

    @asynccontextmanager
    async def _op(self) -> AsyncIterator[None]:
        """Run one store operation: wait for a free slot (cluster only) and map connection errors.

        Never nest two ``_op`` blocks (a full gate would then wait on itself).
        """
        with map_store_errors():
            if not self._cluster_ready:
                await self._initialize_cluster()
            if self._gate is None:
                yield
                return
            try:
                await asyncio.wait_for(self._gate.acquire(), self._timeout)
            except TimeoutError as exc:
                raise StoreUnavailableError("storage unavailable: too many concurrent operations") from exc
            try:
                yield
            finally:
                self._gate.release()

    async def _initialize_cluster(self) -> None:
        """Load the cluster's slot map once, before any concurrent use: redis-py's cluster client breaks
        ("'NoneType' object has no attribute 'writelines'") when several commands trigger its lazy
        initialisation at the same time."""
        async with self._cluster_init_lock:
            if not self._cluster_ready:
                if isinstance(self._redis, RedisCluster):
                    await self._redis.initialize()
                self._cluster_ready = True
