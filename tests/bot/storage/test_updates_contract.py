"""The contract of the update claims role (``UpdateClaims``),
run against a real Redis server, a real 3-node Redis Cluster (``redis_cluster_url``, see ``conftest.py``) and the
embedded SQLite store."""

from __future__ import annotations

from bot.storage import Store
from tests.bot.storage.backends import Backend
from tests.bot.storage.samples import SHORT_TTL


async def test_an_update_is_claimed_once(store: Store, backend: Backend) -> None:
    assert await store.claim_update(7001, lease=30) == "new"
    assert await store.claim_update(7001, lease=30) == "running"  # a redelivery while a worker handles it
    other = backend.open()  # another worker on the same back end
    assert await other.claim_update(7001, lease=30) == "running"
    await store.finish_update(7001, ttl=60)
    assert await other.claim_update(7001, lease=30) == "done"
    assert await store.claim_update(7002, lease=30) == "new"  # updates are independent


async def test_a_lapsed_or_released_claim_can_be_taken_again(store: Store, backend: Backend) -> None:
    # the worker that claimed the update died: once the lease lapses a redelivery is handled
    assert await store.claim_update(7101, lease=SHORT_TTL) == "new"
    await backend.advance(SHORT_TTL * 3)
    assert await store.claim_update(7101, lease=30) == "new"
    # a worker that could not handle it gives it back at once
    await store.release_update(7101)
    assert await store.claim_update(7101, lease=30) == "new"
    # the record of a handled update expires after its ttl
    await store.finish_update(7101, ttl=SHORT_TTL)
    assert await store.claim_update(7101, lease=30) == "done"
    await backend.advance(SHORT_TTL * 3)
    assert await store.claim_update(7101, lease=30) == "new"
