"""Ratings on Redis (:class:`~bot.storage.ratings.RatingRecords`): one hash per variant, under ``{r:<variant>}``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..ratings import RATED_MATCHES_RETENTION, StoredRating, check_rating_change, check_variant
from .client import RedisClient, dumps, text
from .keys import CHAT_RATED_KEY, RATED_KEY, RATINGS_KEY


def _rating_arg(rating: StoredRating) -> str:
    return dumps({"r": float(rating.rating), "e": int(rating.experience), "m": int(rating.matches), "n": rating.name})


def _parse_rating(raw: Any) -> StoredRating:
    if not raw:
        return StoredRating()
    value = json.loads(text(raw))
    return StoredRating(
        rating=float(value["r"]), experience=int(value["e"]), matches=int(value["m"]), name=str(value.get("n", ""))
    )


class RedisRatings(RedisClient):
    """The ratings of a :class:`~bot.storage.redis.store.RedisGameStore`."""

    async def get_ratings(self, variant: str, user_ids: Iterable[int]) -> dict[int, StoredRating]:
        """See :meth:`bot.storage.ratings.RatingRecords.get_ratings`."""
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
        """See :meth:`bot.storage.ratings.RatingRecords.apply_ratings`."""
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
        """See :meth:`bot.storage.ratings.RatingRecords.chat_rated_players`."""
        key = CHAT_RATED_KEY.format(chat_id=int(chat_id), variant=check_variant(variant))
        async with self._op():
            members = await self._redis.smembers(key)
        return [int(text(member)) for member in members]
