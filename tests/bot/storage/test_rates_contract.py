"""The contract of the rate buckets role (``RateBuckets``): a burst at once, then the rate; a refusal records
nothing; buckets apart; one bucket shared by two stores on one back end (two workers); a clock behind never refills
early; a bucket left alone is full again and its record goes — on a Redis server, a Redis Cluster and the SQLite
file."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage import RateLimit, RedisGameStore, SqliteGameStore, Store
from bot.storage.redis.rates import KEEP_MARGIN_MS
from tests.bot.storage.backends import Backend

ACTIONS = RateLimit(rate=4.0, burst=5)
T0 = 1_000_000.0


async def test_the_burst_at_once_then_the_rate(store: Store) -> None:
    for _ in range(5):
        assert await store.take_token("action:1", T0, ACTIONS) == 0.0
    assert await store.take_token("action:1", T0, ACTIONS) == pytest.approx(0.25)  # one token comes every 1/4 s
    assert await store.take_token("action:1", T0 + 0.1, ACTIONS) == pytest.approx(0.15)
    assert await store.take_token("action:1", T0 + 0.25, ACTIONS) == 0.0
    assert await store.take_token("action:1", T0 + 0.25, ACTIONS) == pytest.approx(0.25)
    # after a second, four more tokens (not five: the bucket was empty at T0 + 0.25)
    granted = [await store.take_token("action:1", T0 + 1.25, ACTIONS) == 0.0 for _ in range(6)]
    assert granted == [True, True, True, True, False, False]


async def test_a_refusal_records_nothing(store: Store) -> None:
    for _ in range(5):
        assert await store.take_token("action:1", T0, ACTIONS) == 0.0
    for _ in range(50):  # hammering an empty bucket does not push its next token further away
        assert await store.take_token("action:1", T0 + 0.2, ACTIONS) == pytest.approx(0.05)
    assert await store.take_token("action:1", T0 + 0.25, ACTIONS) == 0.0


async def test_buckets_are_apart(store: Store) -> None:
    one = RateLimit(rate=1.0, burst=1)
    assert await store.take_token("action:1", T0, one) == 0.0
    assert await store.take_token("action:1", T0, one) == pytest.approx(1.0)
    assert await store.take_token("read:1", T0, one) == 0.0  # another kind of the same user
    assert await store.take_token("action:2", T0, one) == 0.0  # another user


async def test_a_fractional_rate(store: Store) -> None:
    slow = RateLimit(rate=1 / 3, burst=2)
    assert await store.take_token("poll:1", T0, slow) == 0.0
    assert await store.take_token("poll:1", T0, slow) == 0.0
    assert await store.take_token("poll:1", T0, slow) == pytest.approx(3.0)
    assert await store.take_token("poll:1", T0 + 3.0, slow) == 0.0  # exactly on time, despite 1/3 being inexact
    assert await store.take_token("poll:1", T0 + 3.0, slow) == pytest.approx(3.0)


async def test_two_workers_share_one_bucket(backend: Backend, store: Store) -> None:
    other = backend.open()
    limit = RateLimit(rate=1.0, burst=10)
    results = await asyncio.gather(*((store if n % 2 else other).take_token("action:7", T0, limit) for n in range(40)))
    assert sum(1 for wait in results if wait == 0.0) == 10  # the burst, however the requests are split
    assert all(wait > 0 for wait in results if wait != 0.0)
    assert await other.take_token("action:7", T0 + 1.0, limit) == 0.0  # one second later, one more, on either
    assert await store.take_token("action:7", T0 + 1.0, limit) == pytest.approx(1.0)


async def test_a_clock_behind_never_refills_early(backend: Backend, store: Store) -> None:
    other = backend.open()
    limit = RateLimit(rate=1.0, burst=2)
    assert await store.take_token("action:1", T0 + 5.0, limit) == 0.0  # a worker whose clock runs ahead
    assert await store.take_token("action:1", T0 + 5.0, limit) == 0.0
    # a worker two seconds behind sees the bucket as empty until its own clock reaches the tokens' times
    assert await other.take_token("action:1", T0 + 3.0, limit) == pytest.approx(3.0)
    assert await other.take_token("action:1", T0 + 6.0, limit) == 0.0


async def test_a_bucket_left_alone_is_full_again(backend: Backend, store: Store) -> None:
    limit = RateLimit(rate=100.0, burst=3)
    now = backend.now
    for _ in range(3):
        assert await store.take_token("read:1", now, limit) == 0.0
    assert await store.take_token("read:1", now, limit) > 0
    await backend.advance(0.05)  # 3 / 100 s: full again
    await store.purge_expired()
    for _ in range(3):
        assert await store.take_token("read:1", backend.now, limit) == 0.0
    assert await store.take_token("read:1", backend.now, limit) > 0


async def test_the_record_goes_once_the_bucket_is_full(backend: Backend, store: Store) -> None:
    limit = RateLimit(rate=10.0, burst=20)
    assert await store.take_token("read:1", backend.now, limit) == 0.0
    if isinstance(store, RedisGameStore):
        ttl = await store.redis.pttl("nardy:{rl:read:1}:rate")
        assert 0 < ttl <= 100 + KEEP_MARGIN_MS  # full again after one token's 0.1 s; kept a minute beyond
        return
    assert isinstance(store, SqliteGameStore)
    assert await store.purge_expired() == 0  # not full yet: the record stays
    await backend.advance(0.1)
    assert await store.purge_expired() == 1
    conn = sqlite3.connect(backend.location)
    try:
        assert conn.execute("SELECT COUNT(*) FROM rate_buckets").fetchone() == (0,)
    finally:
        conn.close()
