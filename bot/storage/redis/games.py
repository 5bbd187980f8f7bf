"""Games on Redis (:class:`~bot.storage.games.GameRecords`): one hash per game, its indices and board states.

Every change of a game is one Lua script on its hash (compare-and-set on the version for the record); its deadline
is kept in the deadline index by :class:`~bot.storage.redis.versioned.VersionedDocs`. The chat and user indices
live in other hash slots, so creation writes them first; readers repair them lazily (stale ids of finished,
quarantined or vanished games are dropped when listed).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..documents import UNSET, JSONDict
from ..errors import GameNotFoundError
from ..games import BoardFence, BoardState, StoredGame
from ..ids import is_valid_id, new_id
from .client import RedisClient, dumps, text, texts
from .keys import (
    CHAT_GAMES_KEY,
    CHAT_HISTORY_KEY,
    COUNT_CHECK_LIMIT,
    CREATION_GRACE,
    DEADLINES_KEY,
    GAME_KEY,
    QUARANTINE_KEY,
    USER_CHAT_GAMES_KEY,
    USER_GAMES_KEY,
)
from .versioned import KEEP, deadline_arg


def _board_arg(message_id: int | None, shown_version: int) -> str:
    return f"{'' if message_id is None else int(message_id)},{int(shown_version)}"


STALE_KEPT = 20
"""At most this many older board messages of a chat wait to have their keyboards taken off (the oldest go first)."""


def _parse_board(chat_id: int, value: str, stale: str | None) -> BoardState:
    message_id, _, shown = value.partition(",")
    return BoardState(
        chat_id=chat_id,
        message_id=int(message_id) if message_id else None,
        shown_version=int(shown),
        stale=tuple(int(each) for each in stale.split(",") if each) if stale else (),
    )


def _parse_seen(value: str | None) -> tuple[int, float] | None:
    if not value:
        return None
    action, _, at = value.partition(",")
    return int(action), float(at)


def _message_arg(message_id: int | None) -> str:
    return "" if message_id is None else str(int(message_id))


class RedisGames(RedisClient):
    """The games of a :class:`~bot.storage.redis.store.RedisGameStore`."""

    async def create_game(
        self,
        data: JSONDict,
        *,
        game_id: str | None = None,
        chat_ids: Iterable[int] = (),
        user_ids: Iterable[int] = (),
        deadline: float | None = None,
    ) -> str:
        """See :meth:`bot.storage.games.GameRecords.create_game`."""
        if game_id is not None and not is_valid_id(game_id):
            raise ValueError(f"malformed game id {game_id!r}: expected 10 characters of [A-Za-z0-9_-]")
        chats, users = [int(c) for c in chat_ids], [int(u) for u in user_ids]
        record = dumps(data)
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
                        args=[record, dumps(chats), dumps(users), deadline_arg(deadline), nonce],
                    )
                )
                if created or game_id is not None:
                    break
            if not created:
                # A retry of a creation that had been applied: the deadline index follows the stored game.
                await self._game_docs.sync_deadline(candidate)
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
        fields = await self._game_docs.fields(game_id)
        if fields is None:
            return None
        version, data, finished, deadline = self._game_docs.record(fields)
        boards = {
            int(name[2:]): _parse_board(int(name[2:]), value, fields.get("x:" + name[2:]))
            for name, value in fields.items()
            if name.startswith("b:")
        }
        return StoredGame(
            game_id=game_id,
            version=version,
            data=data,
            finished=finished,
            chat_ids=tuple(json.loads(fields.get("c", "[]"))),
            user_ids=tuple(json.loads(fields.get("u", "[]"))),
            deadline=deadline,
            boards=boards,
            quarantined="q" in fields,
            seen=_parse_seen(fields.get("w")),
        )

    async def get_game(self, game_id: str) -> StoredGame | None:
        """See :meth:`bot.storage.games.GameRecords.get_game`."""
        async with self._op():
            return await self._read_game(game_id)

    async def _run_cas(
        self, game_id: str, expected_version: int, data: JSONDict, finish: bool, ttl: float, deadline: Any
    ) -> int | None:
        keep_or = KEEP if deadline is UNSET else deadline_arg(deadline)
        result = int(
            await self._cas(
                keys=[GAME_KEY.format(game_id=game_id)],
                args=[
                    int(expected_version),
                    dumps(data),
                    "1" if finish else "0",
                    max(1, int(ttl * 1000)),
                    keep_or,
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
        """See :meth:`bot.storage.games.GameRecords.update_game`."""
        async with self._op():
            return await self._game_docs.with_deadline(
                game_id, deadline, lambda: self._run_cas(game_id, expected_version, data, False, 0, deadline)
            )

    async def finish_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        ttl: float,
        deadline: float | None = None,
    ) -> int | None:
        """See :meth:`bot.storage.games.GameRecords.finish_game`."""
        async with self._op():
            version = await self._game_docs.with_deadline(
                game_id, deadline, lambda: self._run_cas(game_id, expected_version, data, True, ttl, deadline)
            )
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
        """See :meth:`bot.storage.games.GameRecords.set_deadline`."""
        async with self._op():
            return await self._game_docs.set_deadline(game_id, expected_version, deadline)

    async def set_board(self, game_id: str, chat_id: int, message_id: int | None, shown_version: int) -> bool:
        """See :meth:`bot.storage.games.GameRecords.set_board`."""
        async with self._op():
            result = await self._set_board(
                keys=[GAME_KEY.format(game_id=game_id)],
                args=[f"b:{int(chat_id)}", _board_arg(message_id, shown_version), int(shown_version)],
            )
        return int(result) == 1

    async def fence_board(
        self,
        game_id: str,
        chat_id: int,
        message_id: int | None,
        owner: str,
        lease: float,
        *,
        version: int | None = None,
        post: bool = False,
    ) -> BoardFence:
        """See :meth:`bot.storage.games.GameRecords.fence_board`."""
        now = self._clock()
        async with self._op():
            result = await self._fence_board(
                keys=[GAME_KEY.format(game_id=game_id)],
                args=[
                    f"b:{int(chat_id)}",
                    f"p:{int(chat_id)}",
                    _message_arg(message_id),
                    str(owner),
                    repr(float(now)),
                    repr(float(now + lease)) if lease > 0 else "",
                    "" if version is None else str(int(version)),
                    "1" if post else "0",
                ],
            )
        return BoardFence(text(result))

    async def land_board(
        self, game_id: str, chat_id: int, owner: str, message_id: int | None, shown_version: int | None
    ) -> int | None:
        """See :meth:`bot.storage.games.GameRecords.land_board`."""
        now = self._clock()
        async with self._op():
            result = int(
                await self._land_board(
                    keys=[GAME_KEY.format(game_id=game_id)],
                    args=[
                        f"b:{int(chat_id)}",
                        f"p:{int(chat_id)}",
                        f"x:{int(chat_id)}",
                        str(owner),
                        repr(float(now)),
                        _message_arg(message_id),
                        "" if shown_version is None else str(int(shown_version)),
                        STALE_KEPT,
                    ],
                )
            )
        return None if result < 0 else result

    async def demote_board(
        self, game_id: str, chat_id: int, message_id: int, seen_version: int, recorded_version: int
    ) -> bool:
        """See :meth:`bot.storage.games.GameRecords.demote_board`."""
        now = self._clock()
        async with self._op():
            result = await self._demote_board(
                keys=[GAME_KEY.format(game_id=game_id)],
                args=[
                    f"b:{int(chat_id)}",
                    f"p:{int(chat_id)}",
                    str(int(message_id)),
                    int(seen_version),
                    int(recorded_version),
                    repr(float(now)),
                ],
            )
        return int(result) == 1

    async def adopt_board(self, game_id: str, chat_id: int, message_id: int, seen_version: int) -> BoardFence:
        """See :meth:`bot.storage.games.GameRecords.adopt_board`."""
        now = self._clock()
        async with self._op():
            result = await self._adopt_board(
                keys=[GAME_KEY.format(game_id=game_id)],
                args=[
                    f"b:{int(chat_id)}",
                    f"p:{int(chat_id)}",
                    f"x:{int(chat_id)}",
                    str(int(message_id)),
                    int(seen_version),
                    repr(float(now)),
                    STALE_KEPT,
                ],
            )
        return BoardFence(text(result))

    async def mark_seen(self, game_id: str, action: int, at: float, *, deadline: float | None = None) -> float | None:
        """See :meth:`bot.storage.games.GameRecords.mark_seen`."""
        async with self._op():
            await self._game_docs.lower_deadline(game_id, deadline)  # the index first: never later than the record
            result = text(
                await self._mark_seen(
                    keys=[GAME_KEY.format(game_id=game_id)],
                    args=[int(action), repr(float(at)), "" if deadline is None else repr(float(deadline))],
                )
            )
            if not result:
                return None
            # again: a release that raised the record's deadline in between copied it into the index
            await self._game_docs.lower_deadline(game_id, deadline)
        return float(result)

    async def forget_stale(self, game_id: str, chat_id: int, message_id: int) -> None:
        """See :meth:`bot.storage.games.GameRecords.forget_stale`."""
        async with self._op():
            await self._forget_stale(
                keys=[GAME_KEY.format(game_id=game_id)], args=[f"x:{int(chat_id)}", str(int(message_id))]
            )

    async def quarantine_game(self, game_id: str, reason: str) -> None:
        """See :meth:`bot.storage.games.GameRecords.quarantine_game`."""
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
        """See :meth:`bot.storage.games.GameRecords.quarantined_games`."""
        async with self._op():
            ids = texts(await self._redis.zrange(QUARANTINE_KEY, 0, -1))
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

    async def _active_from_index(self, key: str) -> list[str]:
        """Return the active games of an index, dropping entries of finished, quarantined and vanished games
        (except entries younger than :data:`CREATION_GRACE` of games not created yet)."""
        entries: list[Any] = list(await self._redis.zrange(key, 0, -1, withscores=True))
        if not entries:
            return []
        ids = [str(text(gid)) for gid, _ in entries]
        states = await self._game_docs.states(ids)
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
        """See :meth:`bot.storage.games.GameRecords.chat_games`."""
        async with self._op():
            return await self._active_from_index(CHAT_GAMES_KEY.format(chat_id=chat_id))

    async def user_games(self, user_id: int) -> list[str]:
        """See :meth:`bot.storage.games.GameRecords.user_games`."""
        async with self._op():
            return await self._active_from_index(USER_GAMES_KEY.format(user_id=user_id))

    async def user_chat_games(self, chat_id: int, user_id: int) -> list[str]:
        """See :meth:`bot.storage.games.GameRecords.user_chat_games`."""
        async with self._op():
            return await self._active_from_index(USER_CHAT_GAMES_KEY.format(user_id=user_id, chat_id=chat_id))

    async def count_chat_games(self, chat_id: int) -> int:
        """See :meth:`bot.storage.games.GameRecords.count_chat_games`.

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
        """See :meth:`bot.storage.games.GameRecords.chat_history`."""
        key = CHAT_HISTORY_KEY.format(chat_id=chat_id)
        async with self._op():
            ids = texts(await self._redis.zrevrange(key, 0, -1))
            if not ids:
                return []
            states = await self._game_docs.states(ids)
            keep = [gid for gid, (status, _, q) in zip(ids, states, strict=True) if status == "f" and q is None]
            kept = set(keep)
            stale = [gid for gid in ids if gid not in kept]
            if stale:
                await self._redis.zrem(key, *stale)
        return keep[:limit]

    async def due_games(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.games.GameRecords.due_games`."""
        async with self._op():
            return await self._game_docs.due(now, limit)

    async def active_game_count(self) -> int:
        """See :meth:`bot.storage.games.GameRecords.active_game_count` (``ZCARD`` of the deadlines)."""
        async with self._op():
            return int(await self._redis.zcard(DEADLINES_KEY))
