"""``GameStore`` on Redis (redis.asyncio).

Key layout (``P`` = :data:`PREFIX`):

- ``P{g:<id>}:game`` — hash: ``v`` version, ``d`` record JSON, ``s`` ``a``/``f`` (active/finished), ``c`` chat
  ids JSON, ``u`` user ids JSON, ``dl`` deadline ("" = none). Every key of one game is under the hash tag
  ``{g:<id>}`` so the scripts below run unchanged on Redis Cluster.
- ``P{c:<id>}:challenge`` — string ``{"d": data, "c": chat_id}`` with a TTL.
- ``Pchat:<chat>:games`` / ``Pchat:<chat>:history`` / ``Puser:<user>:games`` — sorted sets of game ids (score:
  creation or finishing time); ``Pdeadlines`` — sorted set of game ids by turn deadline;
  ``Pchat:<chat>:challenges`` — sorted set of challenge ids by expiry time.
- ``Pchat:<chat>:settings``, ``Puser:<user>:settings`` — JSON strings; ``Pchat:<chat>:stats`` — hash with
  fields ``<user>:w``, ``<user>:l``, ``<user>:d``.

Every change of a game is one Lua compare-and-set on its version; index updates follow it and are repaired
lazily by the readers (stale ids of finished or vanished games are dropped when listed).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from redis.asyncio import Redis

from .base import UNSET, JSONDict, Stats, StoredChallenge, StoredGame
from .errors import GameNotFoundError, map_store_errors
from .ids import new_id

PREFIX = "nardy:"
GAME_KEY = PREFIX + "{{g:{game_id}}}:game"
CHALLENGE_KEY = PREFIX + "{{c:{challenge_id}}}:challenge"
CHAT_GAMES_KEY = PREFIX + "chat:{chat_id}:games"
CHAT_HISTORY_KEY = PREFIX + "chat:{chat_id}:history"
CHAT_CHALLENGES_KEY = PREFIX + "chat:{chat_id}:challenges"
CHAT_SETTINGS_KEY = PREFIX + "chat:{chat_id}:settings"
CHAT_STATS_KEY = PREFIX + "chat:{chat_id}:stats"
USER_GAMES_KEY = PREFIX + "user:{user_id}:games"
USER_SETTINGS_KEY = PREFIX + "user:{user_id}:settings"
DEADLINES_KEY = PREFIX + "deadlines"

_KEEP = "-"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text(value: Any) -> Any:
    """Return ``value`` decoded when it is bytes (the client decodes responses; this only satisfies typing)."""
    return value.decode() if isinstance(value, bytes) else value


def _texts(values: Any) -> list[str]:
    """Return a list of response strings (decoded when bytes)."""
    return [str(_text(v)) for v in values]


def _texts_or_none(values: Any) -> list[str | None]:
    """Return response values as strings, keeping None for missing ones."""
    return [None if v is None else str(_text(v)) for v in values]


def _deadline_arg(deadline: float | None) -> str:
    return "" if deadline is None else repr(float(deadline))


class RedisGameStore:
    """A :class:`~bot.storage.base.GameStore` on a Redis server (single node or cluster-compatible keys)."""

    CREATE_SCRIPT = """
-- KEYS[1]: the game hash
-- ARGV[1]: record JSON; ARGV[2]: chat ids JSON; ARGV[3]: user ids JSON; ARGV[4]: deadline ("" = none)
-- Returns 1 when created, 0 when a game with this id already exists.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'd', ARGV[1], 's', 'a', 'c', ARGV[2], 'u', ARGV[3], 'dl', ARGV[4])
return 1
"""

    CAS_SCRIPT = """
-- KEYS[1]: the game hash
-- ARGV[1]: expected version
-- ARGV[2]: new record JSON
-- ARGV[3]: "1" to finish the game (refused if already finished), "0" for a plain update
-- ARGV[4]: TTL in milliseconds set when finishing
-- ARGV[5]: new deadline: "-" keeps it, "" clears it, else a number
-- Returns the new version; 0 on a version conflict (or finishing a finished game); -1 when there is no game.
local cur = redis.call('HMGET', KEYS[1], 'v', 's')
if not cur[1] then return -1 end
if tonumber(cur[1]) ~= tonumber(ARGV[1]) then return 0 end
if ARGV[3] == '1' and cur[2] == 'f' then return 0 end
local nv = tonumber(cur[1]) + 1
redis.call('HSET', KEYS[1], 'v', nv, 'd', ARGV[2])
if ARGV[5] ~= '-' then redis.call('HSET', KEYS[1], 'dl', ARGV[5]) end
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 's', 'f', 'dl', '')
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return nv
"""

    def __init__(self, redis: Redis, *, clock: Callable[[], float] = time.time) -> None:
        """Wrap a ``redis.asyncio.Redis`` client created with ``decode_responses=True``."""
        self._redis = redis
        self._clock = clock
        self._create = redis.register_script(self.CREATE_SCRIPT)
        self._cas = redis.register_script(self.CAS_SCRIPT)

    @classmethod
    def from_url(cls, url: str, *, clock: Callable[[], float] = time.time, timeout: float = 5.0) -> RedisGameStore:
        """Return a store on a new client for ``url`` (``redis://host:port/db``); connects lazily."""
        client = Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=timeout,
            socket_timeout=timeout,
            health_check_interval=30,
        )
        return cls(client, clock=clock)

    @property
    def redis(self) -> Redis:
        """Return the underlying client (for tests and diagnostics)."""
        return self._redis

    # ---- games -------------------------------------------------------------------------------------------
    async def create_game(
        self,
        data: JSONDict,
        *,
        chat_ids: Iterable[int] = (),
        user_ids: Iterable[int] = (),
        deadline: float | None = None,
    ) -> str:
        """See :meth:`bot.storage.base.GameStore.create_game`."""
        chats, users = [int(c) for c in chat_ids], [int(u) for u in user_ids]
        record = _dumps(data)
        with map_store_errors():
            while True:
                game_id = new_id()
                created = await self._create(
                    keys=[GAME_KEY.format(game_id=game_id)],
                    args=[record, _dumps(chats), _dumps(users), _deadline_arg(deadline)],
                )
                if created:
                    break
            now = self._clock()
            async with self._redis.pipeline(transaction=False) as pipe:
                for chat_id in chats:
                    pipe.zadd(CHAT_GAMES_KEY.format(chat_id=chat_id), {game_id: now})
                for user_id in users:
                    pipe.zadd(USER_GAMES_KEY.format(user_id=user_id), {game_id: now})
                if deadline is not None:
                    pipe.zadd(DEADLINES_KEY, {game_id: deadline})
                await pipe.execute()
        return game_id

    async def get_game(self, game_id: str) -> StoredGame | None:
        """See :meth:`bot.storage.base.GameStore.get_game`."""
        with map_store_errors():
            fields = await self._redis.hgetall(GAME_KEY.format(game_id=game_id))
        if not fields or "v" not in fields:
            return None
        dl = fields.get("dl", "")
        return StoredGame(
            game_id=game_id,
            version=int(fields["v"]),
            data=json.loads(fields["d"]),
            finished=fields.get("s") == "f",
            chat_ids=tuple(json.loads(fields.get("c", "[]"))),
            user_ids=tuple(json.loads(fields.get("u", "[]"))),
            deadline=float(dl) if dl else None,
        )

    async def _run_cas(
        self, game_id: str, expected_version: int, data: JSONDict, finish: bool, ttl: float, deadline: Any
    ) -> int | None:
        deadline_arg = _KEEP if deadline is UNSET else _deadline_arg(deadline)
        with map_store_errors():
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

    async def update_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
    ) -> int | None:
        """See :meth:`bot.storage.base.GameStore.update_game`."""
        version = await self._run_cas(game_id, expected_version, data, False, 0, deadline)
        if version is not None and deadline is not UNSET:
            await self._sync_deadline(game_id)
        return version

    async def _sync_deadline(self, game_id: str) -> None:
        """Copy the game's current deadline (read back from its hash, so that index writes of two successive
        updates arriving out of order still end with the latest value) into the deadline index."""
        with map_store_errors():
            status, dl = _texts_or_none(await self._redis.hmget(GAME_KEY.format(game_id=game_id), ["s", "dl"]))
            if status == "a" and dl:
                await self._redis.zadd(DEADLINES_KEY, {game_id: float(dl)})
            else:
                await self._redis.zrem(DEADLINES_KEY, game_id)

    async def finish_game(self, game_id: str, expected_version: int, data: JSONDict, *, ttl: float) -> int | None:
        """See :meth:`bot.storage.base.GameStore.finish_game`."""
        version = await self._run_cas(game_id, expected_version, data, True, ttl, None)
        if version is None:
            return None
        game = await self.get_game(game_id)
        chats = game.chat_ids if game else ()
        users = game.user_ids if game else ()
        now = self._clock()
        with map_store_errors():
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.zrem(DEADLINES_KEY, game_id)
                for chat_id in chats:
                    pipe.zrem(CHAT_GAMES_KEY.format(chat_id=chat_id), game_id)
                    history = CHAT_HISTORY_KEY.format(chat_id=chat_id)
                    pipe.zadd(history, {game_id: now})
                    pipe.zremrangebyscore(history, "-inf", now - ttl)
                for user_id in users:
                    pipe.zrem(USER_GAMES_KEY.format(user_id=user_id), game_id)
                await pipe.execute()
        return version

    async def _states(self, game_ids: list[str]) -> list[tuple[str | None, str | None]]:
        """Return (status, deadline) for each id; (None, None) for a vanished game."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hmget(GAME_KEY.format(game_id=game_id), ["s", "dl"])
            rows = await pipe.execute()
        return [(row[0], row[1]) for row in rows]

    async def _active_from_index(self, key: str) -> list[str]:
        with map_store_errors():
            ids = _texts(await self._redis.zrange(key, 0, -1))
            if not ids:
                return []
            states = await self._states(ids)
            stale = [gid for gid, (status, _) in zip(ids, states, strict=True) if status != "a"]
            if stale:
                await self._redis.zrem(key, *stale)
        return [gid for gid, (status, _) in zip(ids, states, strict=True) if status == "a"]

    async def chat_games(self, chat_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_games`."""
        return await self._active_from_index(CHAT_GAMES_KEY.format(chat_id=chat_id))

    async def user_games(self, user_id: int) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.user_games`."""
        return await self._active_from_index(USER_GAMES_KEY.format(user_id=user_id))

    async def chat_history(self, chat_id: int, limit: int = 20) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.chat_history`."""
        key = CHAT_HISTORY_KEY.format(chat_id=chat_id)
        with map_store_errors():
            ids = _texts(await self._redis.zrevrange(key, 0, -1))
            if not ids:
                return []
            states = await self._states(ids)
            stale = [gid for gid, (status, _) in zip(ids, states, strict=True) if status != "f"]
            if stale:
                await self._redis.zrem(key, *stale)
        return [gid for gid, (status, _) in zip(ids, states, strict=True) if status == "f"][:limit]

    async def due_games(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.base.GameStore.due_games`."""
        with map_store_errors():
            ids = _texts(await self._redis.zrangebyscore(DEADLINES_KEY, "-inf", now, start=0, num=limit))
            if not ids:
                return []
            states = await self._states(ids)
            result: list[str] = []
            stale: list[str] = []
            moved: dict[str, float] = {}
            for game_id, (status, dl) in zip(ids, states, strict=True):
                if status != "a" or not dl:
                    stale.append(game_id)
                elif float(dl) <= now:
                    result.append(game_id)
                else:
                    moved[game_id] = float(dl)  # the index lagged behind a later update: repair it
            if stale:
                await self._redis.zrem(DEADLINES_KEY, *stale)
            if moved:
                await self._redis.zadd(DEADLINES_KEY, moved)
        return result

    # ---- challenges --------------------------------------------------------------------------------------
    async def create_challenge(self, data: JSONDict, *, ttl: float, chat_id: int | None = None) -> str:
        """See :meth:`bot.storage.base.GameStore.create_challenge`."""
        value = _dumps({"d": data, "c": chat_id})
        ttl_ms = max(1, int(ttl * 1000))
        with map_store_errors():
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
        with map_store_errors():
            raw = _text(await self._redis.get(CHALLENGE_KEY.format(challenge_id=challenge_id)))
        return self._challenge(challenge_id, raw)

    async def claim_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """See :meth:`bot.storage.base.GameStore.claim_challenge`."""
        with map_store_errors():
            raw = _text(await self._redis.getdel(CHALLENGE_KEY.format(challenge_id=challenge_id)))
            challenge = self._challenge(challenge_id, raw)
            if challenge is not None and challenge.chat_id is not None:
                await self._redis.zrem(CHAT_CHALLENGES_KEY.format(chat_id=challenge.chat_id), challenge_id)
        return challenge

    async def chat_challenges(self, chat_id: int) -> list[StoredChallenge]:
        """See :meth:`bot.storage.base.GameStore.chat_challenges`."""
        key = CHAT_CHALLENGES_KEY.format(chat_id=chat_id)
        with map_store_errors():
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
        with map_store_errors():
            raw = await self._redis.get(key)
        return dict(json.loads(raw)) if raw else {}

    async def _set_json(self, key: str, value: Mapping[str, Any]) -> None:
        with map_store_errors():
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
    async def add_stats(self, chat_id: int, user_id: int, *, wins: int = 0, losses: int = 0, draws: int = 0) -> Stats:
        """See :meth:`bot.storage.base.GameStore.add_stats`."""
        key = CHAT_STATS_KEY.format(chat_id=chat_id)
        with map_store_errors():
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.hincrby(key, f"{user_id}:w", wins)
                pipe.hincrby(key, f"{user_id}:l", losses)
                pipe.hincrby(key, f"{user_id}:d", draws)
                w, lo, d = await pipe.execute()
        return Stats(wins=int(w), losses=int(lo), draws=int(d))

    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        """See :meth:`bot.storage.base.GameStore.get_stats`."""
        key = CHAT_STATS_KEY.format(chat_id=chat_id)
        with map_store_errors():
            w, lo, d = await self._redis.hmget(key, [f"{user_id}:w", f"{user_id}:l", f"{user_id}:d"])
        return Stats(wins=int(w or 0), losses=int(lo or 0), draws=int(d or 0))

    async def chat_stats(self, chat_id: int) -> dict[int, Stats]:
        """See :meth:`bot.storage.base.GameStore.chat_stats`."""
        with map_store_errors():
            raw = {
                _text(k): _text(v)
                for k, v in (await self._redis.hgetall(CHAT_STATS_KEY.format(chat_id=chat_id))).items()
            }
        counters: dict[int, dict[str, int]] = {}
        for fieldname, value in raw.items():
            user, _, kind = fieldname.rpartition(":")
            counters.setdefault(int(user), {})[kind] = int(value)
        return {
            user: Stats(wins=c.get("w", 0), losses=c.get("l", 0), draws=c.get("d", 0)) for user, c in counters.items()
        }

    # ---- lifecycle ---------------------------------------------------------------------------------------
    async def ping(self) -> None:
        """See :meth:`bot.storage.base.GameStore.ping`."""
        with map_store_errors():
            await self._redis.ping()

    async def close(self) -> None:
        """See :meth:`bot.storage.base.GameStore.close`."""
        await self._redis.aclose()
