"""The Mini App's per-user rate limits: after the burst, 429 with ``Retry-After`` and the reason in the user's language,
before any game is loaded; one bucket per user for actions and one for reads, shared by two workers on one store; a
store outage lets requests through; the settings build the limits."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.config import Settings
from bot.services import request_limits
from bot.services.request_limits import RequestKind, RequestLimiter
from bot.storage import RateLimit, RedisGameStore, Store, StoreUnavailableError
from bot.texts import tr
from bot.wiring import service_options, webapp_parts
from tests.bot.e2e.group_play import users
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.limitkit import Clock, Worker, limiter, parts_of, spy


async def test_two_workers_share_each_users_buckets(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = RedisGameStore.from_url(redis_url)
    other_store = RedisGameStore.from_url(redis_url)  # the second worker's own connection to the same Redis
    clock = Clock()
    try:
        async with AppEnv(store) as app:
            alice, bob = users(app.env.fake, "Alice", "Bob", base=501)
            game_id = await app.group_game(app.env.fake.group_chat(-500), alice, bob)
            one = Worker(parts_of(app, limiter=limiter(store, clock)))
            two = Worker(parts_of(app, limiter=limiter(other_store, clock)))
            async with one, two:
                status, _, view = await one.get(game_id, alice)
                assert status == 200
                mover = alice if view["turn"] == 0 else bob
                _, _, mine = await two.get(game_id, mover)
                step = next(x for x in mine["actions"] if x["step"] is not None)
                # the burst (three actions) split over both workers: a move, then two stale presses
                status, _, moved = await one.act(game_id, mover, mine["version"], step["action"])
                assert status == 200 and moved["version"] > mine["version"]
                for worker in (two, one):
                    status, _, body = await worker.act(game_id, mover, mine["version"], step["action"])
                    assert status == 409 and body["state"]["version"] == moved["version"]
                loads = spy(monkeypatch, app.env.service.actions, "press_outcome")
                views = spy(monkeypatch, app.env.service.views, "read")
                for worker in (two, one):
                    status, headers, body = await worker.act(game_id, mover, mine["version"], step["action"])
                    assert status == 429, body
                    assert headers["Retry-After"] == "2"  # one action every two seconds
                    assert body == {"error": "rate_limited", "reason": tr("en", "webapp.rate_limited")}
                assert loads == [] and views == []  # refused before the game was loaded or a view built
                # the other player's budget and the mover's reads are their own
                status, _, _ = await two.act(game_id, alice if mover is bob else bob, moved["version"], "r")
                assert status != 429
                assert (await one.get(game_id, mover))[0] == 200
                clock.now += 2.0  # one token back, taken by whichever worker is asked first
                status, _, body = await two.act(game_id, mover, mine["version"], step["action"])
                assert status == 409, body
                assert (await one.act(game_id, mover, mine["version"], step["action"]))[0] == 429
    finally:
        await store.close()
        await other_store.close()


async def test_reads_of_games_and_tournaments_share_a_bucket(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=511)
        game_id = await app.group_game(app.env.fake.group_chat(-510), alice, bob)
        async with Worker(parts_of(app, limiter=limiter(sqlite_store, clock))) as worker:
            assert (await worker.get(game_id, alice))[0] == 200
            assert (await worker.get(game_id, alice))[0] == 200
            assert (await worker.tournament("t0000001", alice))[0] == 404
            assert (await worker.tournament("t0000001", alice))[0] == 404  # four reads: the burst
            views = spy(monkeypatch, app.env.service.views, "read")
            status, headers, body = await worker.get(game_id, alice)
            assert (status, headers["Retry-After"], body["error"]) == (429, "2", "rate_limited")
            status, _, body = await worker.tournament("t0000001", alice)
            assert (status, body["error"]) == (429, "rate_limited")
            assert views == []
            assert (await worker.get(game_id, bob))[0] == 200  # Bob's reads are his own
            assert len(views) == 1  # (the spy sees the reads that are made)
            clock.now += 0.5  # a quarter of a token: still refused, and told to wait the rest
            _, headers, _ = await worker.get(game_id, alice)
            assert headers["Retry-After"] == "2"  # 1.5 s, in whole seconds
            clock.now += 1.5
            assert (await worker.get(game_id, alice))[0] == 200


async def test_the_refusal_speaks_the_users_language(sqlite_store: Store) -> None:
    clock = Clock()
    async with AppEnv(sqlite_store) as app:
        (olga,) = [app.env.fake.user(521, "Ольга", "ru")]
        one_read = limiter(sqlite_store, clock, reads=RateLimit(rate=0.1, burst=1))
        async with Worker(parts_of(app, limiter=one_read)) as worker:
            assert (await worker.get("nosuchgame", olga))[0] == 404
            status, headers, body = await worker.get("nosuchgame", olga)
            assert (status, headers["Retry-After"]) == (429, "10")
            assert body["reason"] == tr("ru", "webapp.rate_limited") != tr("en", "webapp.rate_limited")


class FailingBuckets:
    """Rate buckets whose store is down until :attr:`down` is cleared; counts the calls."""

    def __init__(self) -> None:
        self.down = True
        self.calls = 0

    async def take_token(self, bucket: str, now: float, limit: RateLimit) -> float:
        self.calls += 1
        if self.down:
            raise StoreUnavailableError("storage unavailable: connection refused")
        return 0.0


async def test_an_outage_of_the_store_lets_requests_through(caplog: pytest.LogCaptureFixture) -> None:
    buckets = FailingBuckets()
    monotonic = Clock()
    limits = RequestLimiter(buckets, {RequestKind.ACTION: RateLimit(rate=1.0, burst=1)}, monotonic=monotonic)
    with caplog.at_level(logging.INFO, logger="bot.services.request_limits"):
        assert [await limits.wait(7, RequestKind.ACTION) for _ in range(20)] == [0.0] * 20
        assert buckets.calls == 1  # then the store is left alone during the backoff: no timeout per request
        monotonic.now += 1.5
        assert await limits.wait(7, RequestKind.ACTION) == 0.0
        assert buckets.calls == 2
        buckets.down = False
        monotonic.now += 5.0
        assert await limits.wait(7, RequestKind.ACTION) == 0.0
        assert buckets.calls == 3
        assert await limits.wait(7, RequestKind.READ) == 0.0  # reads are not limited here: no call
        assert buckets.calls == 3
    lines = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert len(lines) == 2, lines
    assert lines[0][0] == "WARNING" and "the store is unavailable" in lines[0][1] and "let through" in lines[0][1]
    assert lines[1][0] == "INFO" and "the store is back" in lines[1][1]
    assert all(r.exc_info is None for r in caplog.records)


async def test_an_unreachable_redis_serves_the_game(sqlite_store: Store) -> None:
    nowhere = RedisGameStore.from_url("redis://127.0.0.1:1/0", timeout=0.5)
    try:
        async with AppEnv(sqlite_store) as app:
            alice, bob = users(app.env.fake, "Alice", "Bob", base=531)
            game_id = await app.group_game(app.env.fake.group_chat(-530), alice, bob)
            async with Worker(parts_of(app, limiter=limiter(nowhere, Clock()))) as worker:
                for _ in range(10):  # far beyond the burst: nothing counts them, the game is served
                    assert (await worker.get(game_id, alice))[0] == 200
    finally:
        await nowhere.close()


def settings(**values: Any) -> Settings:
    return Settings(bot_token="42:TEST", _env_file=None, **values)  # type: ignore[call-arg, arg-type]


async def test_the_settings_build_the_limits(sqlite_store: Store) -> None:
    configured = settings(
        webapp_url="https://x.example/webapp/", webapp_action_rate=3.0, webapp_action_burst=12, webapp_read_rate=0
    )
    built = service_options(configured)
    env = Env(sqlite_store, seeded("limits"), live=built["live"], links=built["links"])
    try:
        parts = webapp_parts(configured, env.service)
        assert parts is not None and parts.limiter is not None
        assert parts.limiter.limit(RequestKind.ACTION) == RateLimit(rate=3.0, burst=12)
        assert parts.limiter.limit(RequestKind.READ) is None  # a rate of 0: not limited
    finally:
        await env.close()
        await built["live"].close()
    defaults = settings()
    assert (defaults.webapp_action_rate, defaults.webapp_action_burst) == (4.0, 20)
    assert (defaults.webapp_read_rate, defaults.webapp_read_burst) == (1.0, 20)


class CountingBuckets:
    """The rate buckets of a store, counting the calls (the times they were made at)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.asked: list[float] = []

    async def take_token(self, bucket: str, now: float, limit: RateLimit) -> float:
        self.asked.append(now)
        return await self.store.take_token(bucket, now, limit)


async def test_an_empty_bucket_is_remembered_until_its_next_token(sqlite_store: Store) -> None:
    clock = Clock()
    buckets = CountingBuckets(sqlite_store)
    limit = RateLimit(rate=0.5, burst=2)
    limits = RequestLimiter(buckets, {RequestKind.ACTION: limit}, clock=clock)
    assert [await limits.wait(7, RequestKind.ACTION) for _ in range(2)] == [0.0, 0.0]
    assert await limits.wait(7, RequestKind.ACTION) == pytest.approx(2.0)
    assert len(buckets.asked) == 3
    clock.now += 0.5
    for _ in range(100):  # a flood: answered from memory, with the wait the store gives
        assert await limits.wait(7, RequestKind.ACTION) == pytest.approx(1.5)
    assert len(buckets.asked) == 3
    assert await sqlite_store.take_token("webapp:action:7", clock.now, limit) == pytest.approx(1.5)
    assert await limits.wait(8, RequestKind.ACTION) == 0.0  # another user's bucket: the store is asked
    clock.now += 1.5
    assert await limits.wait(7, RequestKind.ACTION) == 0.0  # the token has come: the store is asked again
    assert len(buckets.asked) == 5


async def test_the_memory_of_empty_buckets_is_bounded(sqlite_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_limits, "MAX_REMEMBERED", 2)
    clock = Clock()
    limits = RequestLimiter(sqlite_store, {RequestKind.READ: RateLimit(rate=1.0, burst=1)}, clock=clock)
    for user in (1, 2, 3, 4, 5):
        assert await limits.wait(user, RequestKind.READ) == 0.0
        assert await limits.wait(user, RequestKind.READ) == pytest.approx(1.0)
        assert len(limits._empty_until) <= 2
    clock.now += 0.25
    for user in (1, 2, 3, 4, 5):  # remembered or forgotten, the same answer
        assert await limits.wait(user, RequestKind.READ) == pytest.approx(0.75)
        assert len(limits._empty_until) <= 2


async def test_a_live_sockets_first_message_takes_a_read_and_is_refused_over_the_rate(sqlite_store: Store) -> None:
    clock = Clock()
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=531)
        game_id = await app.group_game(app.env.fake.group_chat(-530), alice, bob)
        two_reads = limiter(sqlite_store, clock, reads=RateLimit(rate=0.5, burst=2))
        async with Worker(parts_of(app, limiter=two_reads)) as worker, worker.live(game_id, alice) as first:
            assert (await first.receive_json())["type"] == "state"
            assert (await worker.get(game_id, alice))[0] == 200  # the burst: a socket and a read
            async with worker.live(game_id, alice) as second:
                error = await second.receive_json()
                assert (error["status"], error["error"], error["retry_after"]) == (429, "rate_limited", 2)
                assert error["reason"] == tr("en", "webapp.rate_limited")
                assert (await second.receive()).type.name in {"CLOSE", "CLOSING", "CLOSED"}
                assert second.close_code == 4429
            async with worker.live(game_id, bob) as bobs:  # Bob's reads are his own
                assert (await bobs.receive_json())["type"] == "state"
            clock.now += 2.0
            async with worker.live(game_id, alice) as third:
                assert (await third.receive_json())["type"] == "state"
