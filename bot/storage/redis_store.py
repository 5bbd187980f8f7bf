"""``GameStore`` on Redis (redis.asyncio), a single server or a Redis Cluster (``redis+cluster://host:port``).

Key layout (``P`` = :data:`PREFIX`):

- ``P{g:<id>}:game`` — hash: ``v`` version, ``d`` record JSON, ``s`` ``a``/``f`` (active/finished), ``c`` chat
  ids JSON, ``u`` user ids JSON, ``dl`` deadline ("" = none), ``n`` creation nonce (recognises a retried
  creation), ``q`` quarantine reason (only when quarantined), ``b:<chat>`` board state ``<message id>,<shown
  version>`` (message id "" = none), ``p:<chat>`` the claim to post a new board there ``<owner>,<until>,<message
  id it replaces>`` (``claim_board``). Everything of one game is this one key, under the hash tag ``{g:<id>}``,
  so the Lua scripts (``redis_scripts.py``) run unchanged on Redis Cluster; board states, claims and the
  quarantine flag expire with it.
- ``P{c:<id>}:challenge`` — string ``{"d": data, "c": chat_id}`` with a TTL.
- ``Pchat:<chat>:games`` / ``Pchat:<chat>:history`` / ``Puser:<user>:games`` /
  ``Puser:<user>:chat:<chat>:games`` — sorted sets of game ids (score: creation or finishing time);
  ``Pdeadlines`` — sorted set of game ids by deadline; ``Pquarantined`` — sorted set of game ids by quarantine
  time; ``Pchat:<chat>:challenges`` — sorted set of challenge ids by expiry time.
- ``Pchat:<chat>:settings``, ``Puser:<user>:settings`` — JSON strings.
- ``P{cs:<chat>}:stats`` — hash with fields ``<user>:w``, ``<user>:l``, ``<user>:d``; ``P{cs:<chat>}:counted`` —
  sorted set of the game ids counted by ``add_game_stats`` (score: time; trimmed after
  :data:`~bot.storage.base.COUNTED_GAMES_RETENTION`); ``P{cs:<chat>}:migrated`` — set once the counters of the
  old un-tagged key ``Pchat:<chat>:stats`` were merged in (lazily, on the chat's first stats access).
- ``P{t:<id>}:tournament`` — hash: ``v`` version, ``d`` record JSON, ``s`` ``a``/``f`` (running/finished; ``x``
  marks a tombstone, see below), ``chat`` chat id, ``dl`` deadline ("" = none), ``n`` creation nonce. Expires
  :data:`~bot.storage.base.TOURNAMENT_HISTORY_RETENTION` after finishing.
- ``Pchat:<chat>:tournament`` — string ``<id> <claim time>``: the chat's running tournament (the one-per-chat lock);
  ``Pchat:<chat>:tournaments`` — sorted set of the chat's finished tournament ids (score: finishing time);
  ``Ptournament_deadlines`` — sorted set of tournament ids by deadline.
- ``P{r:<variant>}:ratings`` — hash: field ``<user>``, value ``{"r": rating, "e": experience, "m": matches,
  "n": name}``; ``P{r:<variant>}:rated`` — sorted set of the match keys applied by ``apply_ratings`` (score: time;
  trimmed by the script after :data:`~bot.storage.base.RATED_MATCHES_RETENTION`). All ratings of a variant share
  the hash tag ``{r:<variant>}``, so one match's change is one script on Redis Cluster.
  ``Pchat:<chat>:rated:<variant>`` — set of the user ids on the chat's leaderboard of that variant.

Every change of a game is one Lua script on its hash (compare-and-set on the version for the record). The
indices live in other hash slots, so they cannot change in the same script: creation writes them first; a
deadline is lowered in the index (``ZADD LT``) before the record and copied from the record after it, so the
index never holds a deadline later than the record's. Readers repair the indices lazily (stale ids of finished,
quarantined or vanished games are dropped when listed).

A tournament is created in three steps: the chat's pointer is claimed (a script on the pointer), the deadline is
lowered in the index, and the record is written (a script on its hash). A pointer naming a finished tournament is
free; one naming a tournament that does not exist is free once it is :data:`CREATION_GRACE` seconds old (a crash
between the pointer and the record), and is taken over only after a tombstone was put on that id (a script on its
hash), so a creation still under way can no longer write its record — of two creations in a chat never both win.
Finishing releases the pointer and adds the history entry after the record (a crash in between leaves a pointer to
a finished tournament, which is free; a later update of the finished tournament completes both).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from typing import Any, cast

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

from . import redis_scripts as scripts
from .base import (
    COUNTED_GAMES_RETENTION,
    RATED_MATCHES_RETENTION,
    TOURNAMENT_HISTORY_RETENTION,
    UNSET,
    BoardState,
    JSONDict,
    Stats,
    StoredChallenge,
    StoredGame,
    StoredRating,
    StoredTournament,
    UpdateClaim,
    check_rating_change,
    check_variant,
)
from .errors import GameNotFoundError, StoreUnavailableError, map_store_errors
from .ids import is_valid_id, new_id

PREFIX = "nardy:"
GAME_KEY = PREFIX + "{{g:{game_id}}}:game"
CHALLENGE_KEY = PREFIX + "{{c:{challenge_id}}}:challenge"
CHAT_GAMES_KEY = PREFIX + "chat:{chat_id}:games"
CHAT_HISTORY_KEY = PREFIX + "chat:{chat_id}:history"
CHAT_CHALLENGES_KEY = PREFIX + "chat:{chat_id}:challenges"
CHAT_SETTINGS_KEY = PREFIX + "chat:{chat_id}:settings"
USER_GAMES_KEY = PREFIX + "user:{user_id}:games"
USER_CHAT_GAMES_KEY = PREFIX + "user:{user_id}:chat:{chat_id}:games"
USER_SETTINGS_KEY = PREFIX + "user:{user_id}:settings"
DEADLINES_KEY = PREFIX + "deadlines"
QUARANTINE_KEY = PREFIX + "quarantined"
STATS_KEY = PREFIX + "{{cs:{chat_id}}}:stats"
COUNTED_KEY = PREFIX + "{{cs:{chat_id}}}:counted"
STATS_MIGRATED_KEY = PREFIX + "{{cs:{chat_id}}}:migrated"
LEGACY_STATS_KEY = PREFIX + "chat:{chat_id}:stats"
TOURNAMENT_KEY = PREFIX + "{{t:{tournament_id}}}:tournament"
CHAT_TOURNAMENT_KEY = PREFIX + "chat:{chat_id}:tournament"
CHAT_TOURNAMENTS_KEY = PREFIX + "chat:{chat_id}:tournaments"
TOURNAMENT_DEADLINES_KEY = PREFIX + "tournament_deadlines"
RATINGS_KEY = PREFIX + "{{r:{variant}}}:ratings"
RATED_KEY = PREFIX + "{{r:{variant}}}:rated"
CHAT_RATED_KEY = PREFIX + "chat:{chat_id}:rated:{variant}"
UPDATE_KEY = PREFIX + "update:{update_id}"

CLUSTER_SCHEME = "redis+cluster://"
"""``REDIS_URL`` prefix selecting Redis Cluster mode (``redis+cluster://host:port``, any one node)."""
CLUSTER_TLS_SCHEME = "rediss+cluster://"
"""The same with TLS."""

CREATION_GRACE = 60.0
"""Seconds during which an index entry of a game whose record does not exist yet is kept (the indices are
written before the record, so a reader may see the entry of a game being created); likewise a chat's pointer to a
tournament not written yet keeps the chat busy for that long."""

TOMBSTONE_TTL = 24 * 3600.0
"""Seconds for which the tombstone on the id of a tournament whose creation was taken over is kept (longer than
any creation can be under way)."""

COUNT_CHECK_LIMIT = 500
"""``count_chat_games`` checks each game of a chat's index up to this many entries (beyond, the count serves a cap
that is exceeded anyway, and checking 10,000 games would take most of a second)."""

_KEEP = "-"
_STATS_CHECKED_LIMIT = 100_000
_CLAIM_ATTEMPTS = 20


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text(value: Any) -> Any:
    """Return ``value`` decoded when it is bytes (the client decodes responses; this only satisfies typing)."""
    return value.decode() if isinstance(value, bytes) else value


def _texts(values: Any) -> list[str]:
    """Return a list of response strings (decoded when bytes)."""
    return [str(_text(v)) for v in values]


def _deadline_arg(deadline: float | None) -> str:
    return "" if deadline is None else repr(float(deadline))


def _board_arg(message_id: int | None, shown_version: int) -> str:
    return f"{'' if message_id is None else int(message_id)},{int(shown_version)}"


def _parse_board(chat_id: int, value: str) -> BoardState:
    message_id, _, shown = value.partition(",")
    return BoardState(chat_id=chat_id, message_id=int(message_id) if message_id else None, shown_version=int(shown))


def _wanted_deadline(status: Any, dl: Any, quarantined: Any) -> float | None:
    """Return the deadline the index should hold for a game in this state (None: not indexed)."""
    if status not in ("a", "f") or quarantined is not None or not dl:
        return None
    return float(dl)


def _parse_pointer(value: str) -> tuple[str, float | None]:
    """Return (tournament id, claim time or None) of a chat's running-tournament pointer."""
    holder, _, stamp = value.partition(" ")
    try:
        return holder, float(stamp) if stamp else None
    except ValueError:
        return holder, None


def _rating_arg(rating: StoredRating) -> str:
    return _dumps({"r": float(rating.rating), "e": int(rating.experience), "m": int(rating.matches), "n": rating.name})


def _parse_rating(raw: Any) -> StoredRating:
    if not raw:
        return StoredRating()
    value = json.loads(_text(raw))
    return StoredRating(
        rating=float(value["r"]), experience=int(value["e"]), matches=int(value["m"]), name=str(value.get("n", ""))
    )


def cluster_startup_url(url: str) -> str | None:
    """Return the plain ``redis://`` (or ``rediss://``) URL of a ``redis+cluster://`` URL, None for other URLs."""
    for scheme, plain in ((CLUSTER_SCHEME, "redis://"), (CLUSTER_TLS_SCHEME, "rediss://")):
        if url.startswith(scheme):
            return plain + url[len(scheme) :]
    return None


class RedisGameStore:
    """A :class:`~bot.storage.base.GameStore` on a Redis server or a Redis Cluster."""

    CREATE_SCRIPT = scripts.CREATE_SCRIPT
    CAS_SCRIPT = scripts.CAS_SCRIPT
    SET_DEADLINE_SCRIPT = scripts.SET_DEADLINE_SCRIPT
    SET_BOARD_SCRIPT = scripts.SET_BOARD_SCRIPT
    CLAIM_BOARD_SCRIPT = scripts.CLAIM_BOARD_SCRIPT
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
        self._claim_board = redis.register_script(self.CLAIM_BOARD_SCRIPT)
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

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        timeout: float = 5.0,
        max_connections: int = 50,
    ) -> RedisGameStore:
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

    # ---- games -------------------------------------------------------------------------------------------
    async def create_game(
        self,
        data: JSONDict,
        *,
        game_id: str | None = None,
        chat_ids: Iterable[int] = (),
        user_ids: Iterable[int] = (),
        deadline: float | None = None,
    ) -> str:
        """See :meth:`bot.storage.base.GameStore.create_game`."""
        if game_id is not None and not is_valid_id(game_id):
            raise ValueError(f"malformed game id {game_id!r}: expected 10 characters of [A-Za-z0-9_-]")
        chats, users = [int(c) for c in chat_ids], [int(u) for u in user_ids]
        record = _dumps(data)
        nonce = new_id() + new_id()
        async with self._op():
            while True:
                candidate = game_id or new_id()
                if game_id is None and await self._redis.exists(GAME_KEY.format(game_id=candidate)):
                    continue  # a random id that is taken: do not touch that game's indices
                await self._index_new_game(candidate, chats, users, deadline)
                created = int(
                    await self._create(
                        keys=[GAME_KEY.format(game_id=candidate)],
                        args=[record, _dumps(chats), _dumps(users), _deadline_arg(deadline), nonce],
                    )
                )
                if created or game_id is not None:
                    break
            if not created:
                # A retry of a creation that had been applied: the deadline index follows the stored game.
                await self._sync_deadline(candidate)
        return candidate

    async def _index_new_game(self, game_id: str, chats: list[int], users: list[int], deadline: float | None) -> None:
        """Add a game about to be created to its indices (idempotent: existing entries keep their scores)."""
        now = self._clock()
        async with self._redis.pipeline(transaction=False) as pipe:
            for chat_id in chats:
                pipe.zadd(CHAT_GAMES_KEY.format(chat_id=chat_id), {game_id: now}, nx=True)
            for user_id in users:
                pipe.zadd(USER_GAMES_KEY.format(user_id=user_id), {game_id: now}, nx=True)
                for chat_id in chats:
                    pipe.zadd(USER_CHAT_GAMES_KEY.format(user_id=user_id, chat_id=chat_id), {game_id: now}, nx=True)
            if deadline is not None:
                pipe.zadd(DEADLINES_KEY, {game_id: float(deadline)}, lt=True)
            await pipe.execute()

    async def _read_game(self, game_id: str) -> StoredGame | None:
        raw = await self._redis.hgetall(GAME_KEY.format(game_id=game_id))
        fields = {str(_text(name)): str(_text(value)) for name, value in raw.items()}
        if not fields or "v" not in fields:
            return None
        dl = fields.get("dl", "")
        boards = {
            int(name[2:]): _parse_board(int(name[2:]), value) for name, value in fields.items() if name.startswith("b:")
        }
        return StoredGame(
            game_id=game_id,
            version=int(fields["v"]),
            data=json.loads(fields["d"]),
            finished=fields.get("s") == "f",
            chat_ids=tuple(json.loads(fields.get("c", "[]"))),
            user_ids=tuple(json.loads(fields.get("u", "[]"))),
            deadline=float(dl) if dl else None,
            boards=boards,
            quarantined="q" in fields,
        )

    async def get_game(self, game_id: str) -> StoredGame | None:
        """See :meth:`bot.storage.base.GameStore.get_game`."""
        async with self._op():
            return await self._read_game(game_id)

    async def _run_cas(
        self, game_id: str, expected_version: int, data: JSONDict, finish: bool, ttl: float, deadline: Any
    ) -> int | None:
        deadline_arg = _KEEP if deadline is UNSET else _deadline_arg(deadline)
        result = int(
            await self._cas(
                keys=[GAME_KEY.format(game_id=game_id)],
                args=[
                    int(expected_version),
                    _dumps(data),
                    "1" if finish else "0",
                    max(1, int(ttl * 1000)),
                    deadline_arg,
                ],
            )
        )
        if result == -1:
            raise GameNotFoundError(game_id)
        return result if result > 0 else None

    async def _lower_deadline(self, game_id: str, deadline: float | None) -> None:
        """Before a record gets ``deadline``: put it in the index unless the index already holds an earlier one."""
        if deadline is not None:
            await self._redis.zadd(DEADLINES_KEY, {game_id: float(deadline)}, lt=True)

    async def update_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
    ) -> int | None:
        """See :meth:`bot.storage.base.GameStore.update_game`."""
        async with self._op():
            if deadline is not UNSET:
                await self._lower_deadline(game_id, deadline)
            try:
                version = await self._run_cas(game_id, expected_version, data, False, 0, deadline)
            finally:
                if deadline is not UNSET:
                    await self._sync_deadline(game_id)
        return version

    async def _game_deadline_state(self, game_id: str) -> float | None:
        status, dl, quarantined = await self._redis.hmget(GAME_KEY.format(game_id=game_id), ["s", "dl", "q"])
        return _wanted_deadline(status, dl, quarantined)

    async def _sync_deadline(self, game_id: str) -> None:
        """Copy the game's current deadline from its hash into the deadline index.

        The copy is read back after it is written: when the record changed in between (a concurrent update, whose
        own copy may have come first), it is copied again, so that no index entry stays later than the record.
        """
        for _ in range(5):
            wanted = await self._game_deadline_state(game_id)
            if wanted is None:
                await self._redis.zrem(DEADLINES_KEY, game_id)
            else:
                await self._redis.zadd(DEADLINES_KEY, {game_id: wanted})
            if await self._game_deadline_state(game_id) == wanted:
                return
        # The record keeps changing under us: at least never leave the entry later than the record.
        await self._lower_deadline(game_id, await self._game_deadline_state(game_id))

    async def finish_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        ttl: float,
        deadline: float | None = None,
    ) -> int | None:
        """See :meth:`bot.storage.base.GameStore.finish_game`."""
        async with self._op():
            await self._lower_deadline(game_id, deadline)
            try:
                version = await self._run_cas(game_id, expected_version, data, True, ttl, deadline)
            finally:
                await self._sync_deadline(game_id)
            if version is None:
                return None
            game = await self._read_game(game_id)
            chats = game.chat_ids if game else ()
            users = game.user_ids if game else ()
            now = self._clock()
            async with self._redis.pipeline(transaction=False) as pipe:
                for chat_id in chats:
                    pipe.zrem(CHAT_GAMES_KEY.format(chat_id=chat_id), game_id)
                    history = CHAT_HISTORY_KEY.format(chat_id=chat_id)
                    pipe.zadd(history, {game_id: now})
                    pipe.zremrangebyscore(history, "-inf", now - ttl)
                for user_id in users:
                    pipe.zrem(USER_GAMES_KEY.format(user_id=user_id), game_id)
                    for chat_id in chats:
                        pipe.zrem(USER_CHAT_GAMES_KEY.format(user_id=user_id, chat_id=chat_id), game_id)
                await pipe.execute()
        return version

    async def set_deadline(self, game_id: str, expected_version: int, deadline: float | None) -> bool:
        """See :meth:`bot.storage.base.GameStore.set_deadline`."""
        async with self._op():
            await self._lower_deadline(game_id, deadline)
            try:
                result = int(
                    await self._set_deadline(
                        keys=[GAME_KEY.format(game_id=game_id)], args=[int(expected_version), _deadline_arg(deadline)]
                    )
                )
            finally:
                await self._sync_deadline(game_id)
        return result == 1

    async def set_board(self, game_id: str, chat_id: int, message_id: int | None, shown_version: int) -> bool:
        """See :meth:`bot.storage.base.GameStore.set_board`."""
        async with self._op():
            result = await self._set_board(
                keys=[GAME_KEY.format(game_id=game_id)],
                args=[f"b:{int(chat_id)}", _board_arg(message_id, shown_version), int(shown_version)],
            )
        return int(result) == 1

    async def claim_board(self, game_id: str, chat_id: int, message_id: int | None, owner: str, lease: float) -> bool:
        """See :meth:`bot.storage.base.GameStore.claim_board`."""
        now = self._clock()
        async with self._op():
            result = await self._claim_board(
                keys=[GAME_KEY.format(game_id=game_id)],
                args=[
                    f"b:{int(chat_id)}",
                    f"p:{int(chat_id)}",
                    "" if message_id is None else str(int(message_id)),
                    str(owner),
                    repr(float(now)),
                    repr(float(now + lease)) if lease > 0 else "",
                ],
            )
        return int(result) == 1

    async def quarantine_game(self, game_id: str, reason: str) -> None:
        """See :meth:`bot.storage.base.GameStore.quarantine_game`."""
        async with self._op():
            # Listed first, so that a crash after the flag never leaves a quarantined game unlisted.
            await self._redis.zadd(QUARANTINE_KEY, {game_id: self._clock()}, nx=True)
            flagged = int(await self._quarantine(keys=[GAME_KEY.format(game_id=game_id)], args=[str(reason)]))
            if not flagged:
                await self._redis.zrem(QUARANTINE_KEY, game_id)
                return
            game = await self._read_game(game_id)
            chats = game.chat_ids if game else ()
            users = game.user_ids if game else ()
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.zrem(DEADLINES_KEY, game_id)
                for chat_id in chats:
                    pipe.zrem(CHAT_GAMES_KEY.format(chat_id=chat_id), game_id)
                    pipe.zrem(CHAT_HISTORY_KEY.format(chat_id=chat_id), game_id)
                for user_id in users:
                    pipe.zrem(USER_GAMES_KEY.format(user_id=user_id), game_id)
                    for chat_id in chats:
                        pipe.zrem(USER_CHAT_GAMES_KEY.format(user_id=user_id, chat_id=chat_id), game_id)
                await pipe.execute()

    async def quarantined_games(self) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.quarantined_games`."""
        async with self._op():
            ids = _texts(await self._redis.zrange(QUARANTINE_KEY, 0, -1))
            if not ids:
                return []
            async with self._redis.pipeline(transaction=False) as pipe:
                for game_id in ids:
                    pipe.hexists(GAME_KEY.format(game_id=game_id), "q")
                flags = await pipe.execute()
            gone = [gid for gid, flag in zip(ids, flags, strict=True) if not flag]
            if gone:
                await self._redis.zrem(QUARANTINE_KEY, *gone)
        return [gid for gid, flag in zip(ids, flags, strict=True) if flag]

    async def _states(self, game_ids: list[str]) -> list[tuple[Any, Any, Any]]:
        """Return (status, deadline, quarantine reason) for each id; (None, None, None) for a vanished game."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hmget(GAME_KEY.format(game_id=game_id), ["s", "dl", "q"])
            rows = await pipe.execute()
        return [(row[0], row[1], row[2]) for row in rows]

    async def _active_from_index(self, key: str) -> list[str]:
        """Return the active games of an index, dropping entries of finished, quarantined and vanished games
        (except entries younger than :data:`CREATION_GRACE` of games not created yet)."""
        entries: list[Any] = list(await self._redis.zrange(key, 0, -1, withscores=True))
        if not entries:
            return []
        ids = [str(_text(gid)) for gid, _ in entries]
        states = await self._states(ids)
        recent = self._clock() - CREATION_GRACE
        active: list[str] = []
        stale: list[str] = []
        scores = [float(score) for _, score in entries]
        for game_id, score, (status, _, quarantined) in zip(ids, scores, states, strict=True):
            if status == "a" and quarantined is None:
                active.append(game_id)
            elif status is not None or score < recent:
                stale.append(game_id)
        if stale:
            await self._redis.zrem(key, *stale)
        return active

    async def chat_games(self, chat_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_games`."""
        async with self._op():
            return await self._active_from_index(CHAT_GAMES_KEY.format(chat_id=chat_id))

    async def user_games(self, user_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.user_games`."""
        async with self._op():
            return await self._active_from_index(USER_GAMES_KEY.format(user_id=user_id))

    async def user_chat_games(self, chat_id: int, user_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.user_chat_games`."""
        async with self._op():
            return await self._active_from_index(USER_CHAT_GAMES_KEY.format(user_id=user_id, chat_id=chat_id))

    async def count_chat_games(self, chat_id: int) -> int:
        """See :meth:`bot.storage.base.GameStore.count_chat_games`.

        Exact (every entry checked, stale ones dropped) while the chat's index has at most
        :data:`COUNT_CHECK_LIMIT` entries; above that, the index size is returned unchecked (one ``ZCARD``), which
        exceeds the true count only by entries that a crash left behind and no listing has repaired yet.
        """
        key = CHAT_GAMES_KEY.format(chat_id=chat_id)
        async with self._op():
            size = int(await self._redis.zcard(key))
            if size > COUNT_CHECK_LIMIT:
                return size
            return len(await self._active_from_index(key))

    async def chat_history(self, chat_id: int, limit: int = 20) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_history`."""
        key = CHAT_HISTORY_KEY.format(chat_id=chat_id)
        async with self._op():
            ids = _texts(await self._redis.zrevrange(key, 0, -1))
            if not ids:
                return []
            states = await self._states(ids)
            keep = [gid for gid, (status, _, q) in zip(ids, states, strict=True) if status == "f" and q is None]
            kept = set(keep)
            stale = [gid for gid in ids if gid not in kept]
            if stale:
                await self._redis.zrem(key, *stale)
        return keep[:limit]

    async def due_games(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.due_games`."""
        async with self._op():
            ids = _texts(await self._redis.zrangebyscore(DEADLINES_KEY, "-inf", now, start=0, num=limit))
            if not ids:
                return []
            states = await self._states(ids)
            result: list[str] = []
            unsure: list[str] = []
            for game_id, state in zip(ids, states, strict=True):
                wanted = _wanted_deadline(*state)
                if wanted is not None and wanted <= now:
                    result.append(game_id)
                else:
                    unsure.append(game_id)  # not indexed any more, or the index lagged behind a later deadline
            for game_id in unsure:
                await self._sync_deadline(game_id)
        return result

    # ---- tournaments -------------------------------------------------------------------------------------
    async def create_tournament(
        self,
        chat_id: int,
        data: JSONDict,
        *,
        tournament_id: str | None = None,
        deadline: float | None = None,
    ) -> str | None:
        """See :meth:`bot.storage.base.GameStore.create_tournament`."""
        if tournament_id is not None and not is_valid_id(tournament_id):
            raise ValueError(f"malformed tournament id {tournament_id!r}: expected 10 characters of [A-Za-z0-9_-]")
        chat_id = int(chat_id)
        record = _dumps(data)
        nonce = new_id() + new_id()
        async with self._op():
            if tournament_id is not None:
                if await self._redis.hexists(TOURNAMENT_KEY.format(tournament_id=tournament_id), "v"):
                    return tournament_id  # created before (a retry): nothing is overwritten
                candidate = tournament_id
            else:
                candidate = new_id()
                while await self._redis.exists(TOURNAMENT_KEY.format(tournament_id=candidate)):
                    candidate = new_id()
            if not await self._claim_chat(chat_id, candidate):
                return None
            key = TOURNAMENT_KEY.format(tournament_id=candidate)
            await self._lower_tournament_deadline(candidate, deadline)
            try:
                created = int(
                    await self._create_tournament(keys=[key], args=[record, chat_id, _deadline_arg(deadline), nonce])
                )
            finally:
                await self._sync_tournament_deadline(candidate)
            if created == -1:  # another creation found ours unfinished and took the chat over
                await self._release_chat_tournament(
                    keys=[CHAT_TOURNAMENT_KEY.format(chat_id=chat_id)], args=[candidate]
                )
                return None
        return candidate

    async def _claim_chat(self, chat_id: int, tournament_id: str) -> bool:
        """Point the chat at ``tournament_id`` unless another tournament runs there (or is being created).

        Returns: True when the chat's pointer names ``tournament_id``; False when the chat is busy.
        """
        key = CHAT_TOURNAMENT_KEY.format(chat_id=chat_id)
        stale = ""
        for _ in range(_CLAIM_ATTEMPTS):
            now = self._clock()
            answer = _text(await self._claim_chat_tournament(keys=[key], args=[tournament_id, repr(now), stale]))
            if not isinstance(answer, str):
                return True
            holder, claimed_at = _parse_pointer(answer)
            holder_key = TOURNAMENT_KEY.format(tournament_id=holder)
            status = _text(await self._redis.hget(holder_key, "s"))
            if status is None:
                if claimed_at is not None and claimed_at > now - CREATION_GRACE:
                    return False  # its creation may still be under way
                status = _text(await self._bury_tournament(keys=[holder_key], args=[int(TOMBSTONE_TTL * 1000)]))
            if status == "a":
                return False
            stale = holder  # finished, expired or buried: free (the next claim replaces it unless it changed)
        return False

    async def _read_tournament(self, tournament_id: str) -> StoredTournament | None:
        raw = await self._redis.hgetall(TOURNAMENT_KEY.format(tournament_id=tournament_id))
        fields = {str(_text(name)): str(_text(value)) for name, value in raw.items()}
        if "v" not in fields:
            return None
        dl = fields.get("dl", "")
        return StoredTournament(
            tournament_id=tournament_id,
            version=int(fields["v"]),
            data=json.loads(fields["d"]),
            chat_id=int(fields["chat"]),
            finished=fields.get("s") == "f",
            deadline=float(dl) if dl else None,
        )

    async def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        """See :meth:`bot.storage.base.GameStore.get_tournament`."""
        async with self._op():
            return await self._read_tournament(tournament_id)

    async def _lower_tournament_deadline(self, tournament_id: str, deadline: float | None) -> None:
        """Before a record gets ``deadline``: put it in the index unless the index already holds an earlier one."""
        if deadline is not None:
            await self._redis.zadd(TOURNAMENT_DEADLINES_KEY, {tournament_id: float(deadline)}, lt=True)

    async def _tournament_deadline_state(self, tournament_id: str) -> float | None:
        status, dl = await self._redis.hmget(TOURNAMENT_KEY.format(tournament_id=tournament_id), ["s", "dl"])
        return _wanted_deadline(status, dl, None)

    async def _sync_tournament_deadline(self, tournament_id: str) -> None:
        """Copy the tournament's deadline from its hash into the index, reading it back like ``_sync_deadline``."""
        for _ in range(5):
            wanted = await self._tournament_deadline_state(tournament_id)
            if wanted is None:
                await self._redis.zrem(TOURNAMENT_DEADLINES_KEY, tournament_id)
            else:
                await self._redis.zadd(TOURNAMENT_DEADLINES_KEY, {tournament_id: wanted})
            if await self._tournament_deadline_state(tournament_id) == wanted:
                return
        await self._lower_tournament_deadline(tournament_id, await self._tournament_deadline_state(tournament_id))

    async def update_tournament(
        self,
        tournament_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
        finished: bool = False,
    ) -> int | None:
        """See :meth:`bot.storage.base.GameStore.update_tournament`."""
        key = TOURNAMENT_KEY.format(tournament_id=tournament_id)
        ttl_ms = max(1, int(TOURNAMENT_HISTORY_RETENTION * 1000))
        deadline_arg = _KEEP if deadline is UNSET else _deadline_arg(deadline)
        async with self._op():
            if deadline is not UNSET:
                await self._lower_tournament_deadline(tournament_id, deadline)
            try:
                version, status = await self._tournament_cas(
                    keys=[key],
                    args=[int(expected_version), _dumps(data), "1" if finished else "0", ttl_ms, deadline_arg],
                )
            finally:
                if deadline is not UNSET:
                    await self._sync_tournament_deadline(tournament_id)
            version = int(version)
            if version == -1:
                raise GameNotFoundError(tournament_id)
            if version == 0:
                return None
            if _text(status) == "f":
                await self._file_finished_tournament(tournament_id)
        return version

    async def _file_finished_tournament(self, tournament_id: str) -> None:
        """Release the chat's pointer (when it names this finished tournament) and add it to the chat's history
        (idempotent: the first finishing time is kept)."""
        chat = _text(await self._redis.hget(TOURNAMENT_KEY.format(tournament_id=tournament_id), "chat"))
        if chat is None:
            return
        chat_id = int(chat)
        await self._release_chat_tournament(keys=[CHAT_TOURNAMENT_KEY.format(chat_id=chat_id)], args=[tournament_id])
        now = self._clock()
        history = CHAT_TOURNAMENTS_KEY.format(chat_id=chat_id)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(history, {tournament_id: now}, nx=True)
            pipe.zremrangebyscore(history, "-inf", now - TOURNAMENT_HISTORY_RETENTION)
            await pipe.execute()

    async def set_tournament_deadline(self, tournament_id: str, expected_version: int, deadline: float | None) -> bool:
        """See :meth:`bot.storage.base.GameStore.set_tournament_deadline`."""
        async with self._op():
            await self._lower_tournament_deadline(tournament_id, deadline)
            try:
                result = int(
                    await self._set_deadline(
                        keys=[TOURNAMENT_KEY.format(tournament_id=tournament_id)],
                        args=[int(expected_version), _deadline_arg(deadline)],
                    )
                )
            finally:
                await self._sync_tournament_deadline(tournament_id)
        return result == 1

    async def chat_tournament(self, chat_id: int) -> str | None:
        """See :meth:`bot.storage.base.GameStore.chat_tournament`.

        A pointer naming a finished or buried tournament is deleted here; one naming a missing tournament is left
        to ``create_tournament`` (that creation may still be under way).
        """
        key = CHAT_TOURNAMENT_KEY.format(chat_id=int(chat_id))
        async with self._op():
            value = _text(await self._redis.get(key))
            if not value:
                return None
            holder, _ = _parse_pointer(str(value))
            status = _text(await self._redis.hget(TOURNAMENT_KEY.format(tournament_id=holder), "s"))
            if status == "a":
                return holder
            if status is not None:
                await self._release_chat_tournament(keys=[key], args=[holder])
        return None

    async def chat_tournament_history(self, chat_id: int, limit: int = 10) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_tournament_history`."""
        key = CHAT_TOURNAMENTS_KEY.format(chat_id=int(chat_id))
        async with self._op():
            await self._redis.zremrangebyscore(key, "-inf", self._clock() - TOURNAMENT_HISTORY_RETENTION)
            ids = _texts(await self._redis.zrevrange(key, 0, -1))
            if not ids:
                return []
            async with self._redis.pipeline(transaction=False) as pipe:
                for tournament_id in ids:
                    pipe.hget(TOURNAMENT_KEY.format(tournament_id=tournament_id), "s")
                states = [_text(status) for status in await pipe.execute()]
            stale = [tid for tid, status in zip(ids, states, strict=True) if status != "f"]
            if stale:
                await self._redis.zrem(key, *stale)
        return [tid for tid, status in zip(ids, states, strict=True) if status == "f"][: max(0, int(limit))]

    async def due_tournaments(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.due_tournaments`."""
        async with self._op():
            ids = _texts(await self._redis.zrangebyscore(TOURNAMENT_DEADLINES_KEY, "-inf", now, start=0, num=limit))
            if not ids:
                return []
            async with self._redis.pipeline(transaction=False) as pipe:
                for tournament_id in ids:
                    pipe.hmget(TOURNAMENT_KEY.format(tournament_id=tournament_id), ["s", "dl"])
                rows = await pipe.execute()
            result: list[str] = []
            for tournament_id, (status, dl) in zip(ids, rows, strict=True):
                wanted = _wanted_deadline(status, dl, None)
                if wanted is not None and wanted <= now:
                    result.append(tournament_id)
                else:
                    await self._sync_tournament_deadline(tournament_id)
        return result

    # ---- ratings -----------------------------------------------------------------------------------------
    async def get_ratings(self, variant: str, user_ids: Iterable[int]) -> dict[int, StoredRating]:
        """See :meth:`bot.storage.base.GameStore.get_ratings`."""
        key = RATINGS_KEY.format(variant=check_variant(variant))
        users = list(dict.fromkeys(int(u) for u in user_ids))
        if not users:
            return {}
        async with self._op():
            raws = await self._redis.hmget(key, [str(u) for u in users])
        return {user: _parse_rating(raw) for user, raw in zip(users, raws, strict=True)}

    async def apply_ratings(
        self,
        variant: str,
        match_key: str,
        expected: Mapping[int, int],
        new: Mapping[int, StoredRating],
        *,
        chat_id: int | None = None,
    ) -> bool | None:
        """See :meth:`bot.storage.base.GameStore.apply_ratings`."""
        check_variant(variant)
        users = check_rating_change(expected, new)
        expected_by_user = {int(u): int(m) for u, m in expected.items()}
        now = self._clock()
        args: list[Any] = [str(match_key), repr(now), repr(now - RATED_MATCHES_RETENTION)]
        for user_id, rating in new.items():
            args += [int(user_id), expected_by_user[int(user_id)], _rating_arg(rating)]
        async with self._op():
            result = int(
                await self._apply_ratings(
                    keys=[RATINGS_KEY.format(variant=variant), RATED_KEY.format(variant=variant)], args=args
                )
            )
            if result == -1:
                return None
            if chat_id is not None and users:
                await self._redis.sadd(CHAT_RATED_KEY.format(chat_id=int(chat_id), variant=variant), *users)
        return result == 1

    async def chat_rated_players(self, chat_id: int, variant: str) -> list[int]:
        """See :meth:`bot.storage.base.GameStore.chat_rated_players`."""
        key = CHAT_RATED_KEY.format(chat_id=int(chat_id), variant=check_variant(variant))
        async with self._op():
            members = await self._redis.smembers(key)
        return [int(_text(member)) for member in members]

    # ---- challenges --------------------------------------------------------------------------------------
    async def create_challenge(self, data: JSONDict, *, ttl: float, chat_id: int | None = None) -> str:
        """See :meth:`bot.storage.base.GameStore.create_challenge`."""
        value = _dumps({"d": data, "c": chat_id})
        ttl_ms = max(1, int(ttl * 1000))
        async with self._op():
            while True:
                challenge_id = new_id()
                if await self._redis.set(CHALLENGE_KEY.format(challenge_id=challenge_id), value, px=ttl_ms, nx=True):
                    break
            if chat_id is not None:
                await self._redis.zadd(CHAT_CHALLENGES_KEY.format(chat_id=chat_id), {challenge_id: self._clock() + ttl})
        return challenge_id

    @staticmethod
    def _challenge(challenge_id: str, raw: str | None) -> StoredChallenge | None:
        if raw is None:
            return None
        value = json.loads(raw)
        return StoredChallenge(challenge_id=challenge_id, data=value["d"], chat_id=value["c"])

    async def get_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """See :meth:`bot.storage.base.GameStore.get_challenge`."""
        async with self._op():
            raw = _text(await self._redis.get(CHALLENGE_KEY.format(challenge_id=challenge_id)))
        return self._challenge(challenge_id, raw)

    async def claim_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """See :meth:`bot.storage.base.GameStore.claim_challenge`."""
        async with self._op():
            raw = _text(await self._redis.getdel(CHALLENGE_KEY.format(challenge_id=challenge_id)))
            challenge = self._challenge(challenge_id, raw)
            if challenge is not None and challenge.chat_id is not None:
                await self._redis.zrem(CHAT_CHALLENGES_KEY.format(chat_id=challenge.chat_id), challenge_id)
        return challenge

    async def chat_challenges(self, chat_id: int) -> list[StoredChallenge]:
        """See :meth:`bot.storage.base.GameStore.chat_challenges`."""
        key = CHAT_CHALLENGES_KEY.format(chat_id=chat_id)
        async with self._op():
            await self._redis.zremrangebyscore(key, "-inf", self._clock())
            ids = _texts(await self._redis.zrange(key, 0, -1))
            if not ids:
                return []
            async with self._redis.pipeline(transaction=False) as pipe:
                for challenge_id in ids:
                    pipe.get(CHALLENGE_KEY.format(challenge_id=challenge_id))
                raws = await pipe.execute()
            gone = [cid for cid, raw in zip(ids, raws, strict=True) if raw is None]
            if gone:
                await self._redis.zrem(key, *gone)
        return [
            challenge
            for cid, raw in zip(ids, raws, strict=True)
            if (challenge := self._challenge(cid, raw)) is not None
        ]

    # ---- settings ----------------------------------------------------------------------------------------
    async def _get_json(self, key: str) -> JSONDict:
        async with self._op():
            raw = await self._redis.get(key)
        return dict(json.loads(raw)) if raw else {}

    async def _set_json(self, key: str, value: Mapping[str, Any]) -> None:
        async with self._op():
            await self._redis.set(key, _dumps(dict(value)))

    async def get_chat_settings(self, chat_id: int) -> JSONDict:
        """See :meth:`bot.storage.base.GameStore.get_chat_settings`."""
        return await self._get_json(CHAT_SETTINGS_KEY.format(chat_id=chat_id))

    async def set_chat_settings(self, chat_id: int, settings: Mapping[str, Any]) -> None:
        """See :meth:`bot.storage.base.GameStore.set_chat_settings`."""
        await self._set_json(CHAT_SETTINGS_KEY.format(chat_id=chat_id), settings)

    async def get_user_settings(self, user_id: int) -> JSONDict:
        """See :meth:`bot.storage.base.GameStore.get_user_settings`."""
        return await self._get_json(USER_SETTINGS_KEY.format(user_id=user_id))

    async def set_user_settings(self, user_id: int, settings: Mapping[str, Any]) -> None:
        """See :meth:`bot.storage.base.GameStore.set_user_settings`."""
        await self._set_json(USER_SETTINGS_KEY.format(user_id=user_id), settings)

    # ---- stats -------------------------------------------------------------------------------------------
    async def _stats_key(self, chat_id: int) -> str:
        """Return the chat's stats hash, first merging in the counters of the old un-tagged key (once).

        The merge is one script guarded by a marker in the new hash tag, so two processes migrating the same
        chat at once add the old counters only once; the old key is deleted afterwards.
        """
        chat_id = int(chat_id)
        key = STATS_KEY.format(chat_id=chat_id)
        if chat_id in self._stats_checked:
            return key
        legacy = LEGACY_STATS_KEY.format(chat_id=chat_id)
        old = await self._redis.hgetall(legacy)
        if old:
            pairs = [item for name, value in old.items() for item in (str(_text(name)), int(_text(value)))]
            await self._migrate_stats(keys=[key, STATS_MIGRATED_KEY.format(chat_id=chat_id)], args=pairs)
            await self._redis.delete(legacy)
        if len(self._stats_checked) >= _STATS_CHECKED_LIMIT:
            self._stats_checked.clear()
        self._stats_checked.add(chat_id)
        return key

    async def add_stats(self, chat_id: int, user_id: int, *, wins: int = 0, losses: int = 0, draws: int = 0) -> Stats:
        """See :meth:`bot.storage.base.GameStore.add_stats`."""
        async with self._op():
            key = await self._stats_key(chat_id)
            w, lo, d = await self._add_stats(keys=[key], args=[int(user_id), int(wins), int(losses), int(draws)])
        return Stats(wins=int(w), losses=int(lo), draws=int(d))

    async def add_game_stats(self, chat_id: int, game_id: str, deltas: Mapping[int, tuple[int, int, int]]) -> bool:
        """See :meth:`bot.storage.base.GameStore.add_game_stats`."""
        now = self._clock()
        args: list[Any] = [str(game_id), repr(now), repr(now - COUNTED_GAMES_RETENTION)]
        for user_id, (wins, losses, draws) in deltas.items():
            args += [int(user_id), int(wins), int(losses), int(draws)]
        async with self._op():
            key = await self._stats_key(chat_id)
            result = await self._add_game_stats(keys=[key, COUNTED_KEY.format(chat_id=int(chat_id))], args=args)
        return int(result) == 1

    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        """See :meth:`bot.storage.base.GameStore.get_stats`."""
        async with self._op():
            key = await self._stats_key(chat_id)
            w, lo, d = await self._redis.hmget(key, [f"{user_id}:w", f"{user_id}:l", f"{user_id}:d"])
        return Stats(wins=int(w or 0), losses=int(lo or 0), draws=int(d or 0))

    async def chat_stats(self, chat_id: int) -> dict[int, Stats]:
        """See :meth:`bot.storage.base.GameStore.chat_stats`."""
        async with self._op():
            key = await self._stats_key(chat_id)
            raw = {_text(k): _text(v) for k, v in (await self._redis.hgetall(key)).items()}
        counters: dict[int, dict[str, int]] = {}
        for fieldname, value in raw.items():
            user, _, kind = fieldname.rpartition(":")
            counters.setdefault(int(user), {})[kind] = int(value)
        return {
            user: Stats(wins=c.get("w", 0), losses=c.get("l", 0), draws=c.get("d", 0)) for user, c in counters.items()
        }

    # ---- lifecycle ---------------------------------------------------------------------------------------
    async def purge_expired(self, batch: int = 500) -> int:
        """See :meth:`bot.storage.base.GameStore.purge_expired`.

        Redis expires records (games, finished tournaments) by itself, and ``apply_ratings`` trims the applied
        match keys in its script; this only drops entries of vanished games from the quarantine list (other
        indices are repaired when read). Returns the number of entries dropped.
        """
        removed = 0
        async with self._op():
            start = 0
            while True:
                ids = _texts(await self._redis.zrange(QUARANTINE_KEY, start, start + batch - 1))
                if not ids:
                    break
                async with self._redis.pipeline(transaction=False) as pipe:
                    for game_id in ids:
                        pipe.exists(GAME_KEY.format(game_id=game_id))
                    exists = await pipe.execute()
                gone = [gid for gid, present in zip(ids, exists, strict=True) if not present]
                if gone:
                    removed += int(await self._redis.zrem(QUARANTINE_KEY, *gone))
                start += len(ids) - len(gone)
        return removed

    async def persistence_warning(self) -> str | None:
        """Return a warning text when a Redis server of this store keeps nothing on disk (AOF off and no RDB
        snapshots), else None; None too when the server does not allow ``CONFIG GET``.

        Raises: StoreUnavailableError when the server cannot be reached.
        """
        async with self._op():
            try:
                if isinstance(self._redis, RedisCluster):
                    nodes = self._redis.get_primaries()
                    configs = [
                        (
                            {
                                **await self._redis.config_get("appendonly", target_nodes=node),
                                **await self._redis.config_get("save", target_nodes=node),
                            },
                            node.name,
                        )
                        for node in nodes
                    ]
                else:
                    config = {**await self._redis.config_get("appendonly"), **await self._redis.config_get("save")}
                    configs = [(config, "the Redis server")]
            except ResponseError:
                return None  # CONFIG is disabled or not allowed for this user (e.g. a managed Redis)
        volatile = [name for config, name in configs if _is_volatile(cast(Mapping[str, Any], config))]
        if not volatile:
            return None
        return (
            f'Redis persistence is off on {", ".join(volatile)} (appendonly no, save ""): a restart or crash of'
            " Redis loses every game, setting and statistic. Enable AOF (appendonly yes) or RDB snapshots (save)."
        )

    async def active_game_count(self) -> int:
        """See :meth:`bot.storage.base.GameStore.active_game_count` (``ZCARD`` of the deadlines)."""
        async with self._op():
            return int(await self._redis.zcard(DEADLINES_KEY))

    async def claim_update(self, update_id: int, *, lease: float) -> UpdateClaim:
        """See :meth:`bot.storage.base.GameStore.claim_update` (``SET NX PX``: one key per update)."""
        key = UPDATE_KEY.format(update_id=int(update_id))
        async with self._op():
            if await self._redis.set(key, "running", nx=True, px=max(1, int(lease * 1000))):
                return "new"
            state = await self._redis.get(key)
        if state is None:  # the other claim lapsed between the two commands: try once more
            return await self.claim_update(update_id, lease=lease)
        return "done" if _text(state) == "done" else "running"

    async def finish_update(self, update_id: int, *, ttl: float) -> None:
        """See :meth:`bot.storage.base.GameStore.finish_update`."""
        async with self._op():
            await self._redis.set(UPDATE_KEY.format(update_id=int(update_id)), "done", px=max(1, int(ttl * 1000)))

    async def release_update(self, update_id: int) -> None:
        """See :meth:`bot.storage.base.GameStore.release_update`."""
        async with self._op():
            await self._redis.delete(UPDATE_KEY.format(update_id=int(update_id)))

    async def ping(self) -> None:
        """See :meth:`bot.storage.base.GameStore.ping`."""
        async with self._op():
            await self._redis.ping()

    async def close(self) -> None:
        """See :meth:`bot.storage.base.GameStore.close`."""
        await self._redis.aclose()


def _is_volatile(config: Mapping[str, Any]) -> bool:
    """Return True when a ``CONFIG GET appendonly`` + ``CONFIG GET save`` answer shows no persistence at all."""
    appendonly = str(_text(config.get("appendonly", ""))).strip().lower()
    save = str(_text(config.get("save", ""))).strip()
    return appendonly == "no" and save == ""
