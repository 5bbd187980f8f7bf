"""The contract of the challenges role (``ChallengeRecords``),
run against a real Redis server, a real 3-node Redis Cluster (``redis_cluster_url``, see ``conftest.py``) and the
embedded SQLite store."""

from __future__ import annotations

import asyncio

from bot.storage import Store, is_valid_id
from tests.bot.storage.backends import Backend
from tests.bot.storage.samples import SHORT_TTL


async def test_challenges(store: Store) -> None:
    c2 = await store.create_challenge({"by": 2}, ttl=3600, chat_id=-7)
    c1 = await store.create_challenge({"by": 1, "variant": "short"}, ttl=1800, chat_id=-7)
    c3 = await store.create_challenge({"by": 3}, ttl=3600)
    assert is_valid_id(c1) and len({c1, c2, c3}) == 3
    ch = await store.get_challenge(c1)
    assert ch is not None and ch.data == {"by": 1, "variant": "short"} and ch.chat_id == -7
    private = await store.get_challenge(c3)
    assert private is not None and private.chat_id is None
    assert [c.challenge_id for c in await store.chat_challenges(-7)] == [c1, c2]
    claimed = await store.claim_challenge(c1)
    assert claimed is not None and claimed.data["by"] == 1
    assert await store.claim_challenge(c1) is None
    assert await store.get_challenge(c1) is None
    assert [c.challenge_id for c in await store.chat_challenges(-7)] == [c2]
    assert await store.claim_challenge("unknown000") is None


async def test_challenge_claimed_once_under_concurrency(backend: Backend, store: Store) -> None:
    challenge_id = await store.create_challenge({"by": 1}, ttl=3600, chat_id=-3)
    stores = [store, *(backend.open() for _ in range(3))]
    results = await asyncio.gather(*(stores[i % 4].claim_challenge(challenge_id) for i in range(40)))
    assert sum(r is not None for r in results) == 1
    assert await store.chat_challenges(-3) == []


async def test_challenge_expires(backend: Backend, store: Store) -> None:
    challenge_id = await store.create_challenge({"by": 1}, ttl=SHORT_TTL, chat_id=-9)
    await backend.advance(SHORT_TTL * 3)
    assert await store.get_challenge(challenge_id) is None
    assert await store.claim_challenge(challenge_id) is None
    assert await store.chat_challenges(-9) == []
