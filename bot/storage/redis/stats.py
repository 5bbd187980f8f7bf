"""Statistics on Redis (:class:`~bot.storage.stats.StatsRecords`): one hash per chat, under ``{cs:<chat>}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..stats import COUNTED_GAMES_RETENTION, Stats
from .client import RedisClient, text
from .keys import COUNTED_KEY, LEGACY_STATS_KEY, STATS_KEY, STATS_MIGRATED_KEY

_STATS_CHECKED_LIMIT = 100_000


class RedisStats(RedisClient):
    """The result counters of a :class:`~bot.storage.redis.store.RedisGameStore`."""

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
            pairs = [item for name, value in old.items() for item in (str(text(name)), int(text(value)))]
            await self._migrate_stats(keys=[key, STATS_MIGRATED_KEY.format(chat_id=chat_id)], args=pairs)
            await self._redis.delete(legacy)
        if len(self._stats_checked) >= _STATS_CHECKED_LIMIT:
            self._stats_checked.clear()
        self._stats_checked.add(chat_id)
        return key

    async def add_stats(self, chat_id: int, user_id: int, *, wins: int = 0, losses: int = 0, draws: int = 0) -> Stats:
        """See :meth:`bot.storage.stats.StatsRecords.add_stats`."""
        async with self._op():
            key = await self._stats_key(chat_id)
            w, lo, d = await self._add_stats(keys=[key], args=[int(user_id), int(wins), int(losses), int(draws)])
        return Stats(wins=int(w), losses=int(lo), draws=int(d))

    async def add_game_stats(self, chat_id: int, game_id: str, deltas: Mapping[int, tuple[int, int, int]]) -> bool:
        """See :meth:`bot.storage.stats.StatsRecords.add_game_stats`."""
        now = self._clock()
        args: list[Any] = [str(game_id), repr(now), repr(now - COUNTED_GAMES_RETENTION)]
        for user_id, (wins, losses, draws) in deltas.items():
            args += [int(user_id), int(wins), int(losses), int(draws)]
        async with self._op():
            key = await self._stats_key(chat_id)
            result = await self._add_game_stats(keys=[key, COUNTED_KEY.format(chat_id=int(chat_id))], args=args)
        return int(result) == 1

    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        """See :meth:`bot.storage.stats.StatsRecords.get_stats`."""
        async with self._op():
            key = await self._stats_key(chat_id)
            w, lo, d = await self._redis.hmget(key, [f"{user_id}:w", f"{user_id}:l", f"{user_id}:d"])
        return Stats(wins=int(w or 0), losses=int(lo or 0), draws=int(d or 0))

    async def chat_stats(self, chat_id: int) -> dict[int, Stats]:
        """See :meth:`bot.storage.stats.StatsRecords.chat_stats`."""
        async with self._op():
            key = await self._stats_key(chat_id)
            raw = {text(k): text(v) for k, v in (await self._redis.hgetall(key)).items()}
        counters: dict[int, dict[str, int]] = {}
        for fieldname, value in raw.items():
            user, _, kind = fieldname.rpartition(":")
            counters.setdefault(int(user), {})[kind] = int(value)
        return {
            user: Stats(wins=c.get("w", 0), losses=c.get("l", 0), draws=c.get("d", 0)) for user, c in counters.items()
        }
