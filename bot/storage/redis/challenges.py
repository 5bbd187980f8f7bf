"""Challenges on Redis (:class:`~bot.storage.challenges.ChallengeRecords`): one string with a TTL each."""

from __future__ import annotations

import json

from ..challenges import StoredChallenge
from ..documents import JSONDict
from ..ids import new_id
from .client import RedisClient, dumps, text, texts
from .keys import CHALLENGE_KEY, CHAT_CHALLENGES_KEY


class RedisChallenges(RedisClient):
    """The open challenges of a :class:`~bot.storage.redis.store.RedisGameStore`."""

    async def create_challenge(self, data: JSONDict, *, ttl: float, chat_id: int | None = None) -> str:
        """See :meth:`bot.storage.challenges.ChallengeRecords.create_challenge`."""
        value = dumps({"d": data, "c": chat_id})
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
        """See :meth:`bot.storage.challenges.ChallengeRecords.get_challenge`."""
        async with self._op():
            raw = text(await self._redis.get(CHALLENGE_KEY.format(challenge_id=challenge_id)))
        return self._challenge(challenge_id, raw)

    async def claim_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """See :meth:`bot.storage.challenges.ChallengeRecords.claim_challenge`."""
        async with self._op():
            raw = text(await self._redis.getdel(CHALLENGE_KEY.format(challenge_id=challenge_id)))
            challenge = self._challenge(challenge_id, raw)
            if challenge is not None and challenge.chat_id is not None:
                await self._redis.zrem(CHAT_CHALLENGES_KEY.format(chat_id=challenge.chat_id), challenge_id)
        return challenge

    async def chat_challenges(self, chat_id: int) -> list[StoredChallenge]:
        """See :meth:`bot.storage.challenges.ChallengeRecords.chat_challenges`."""
        key = CHAT_CHALLENGES_KEY.format(chat_id=chat_id)
        async with self._op():
            await self._redis.zremrangebyscore(key, "-inf", self._clock())
            ids = texts(await self._redis.zrange(key, 0, -1))
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
