"""The matchmaker on the real stores: a pass makes each chosen pair's game once and closes it; ``start`` saying no
puts both back; a ``start`` that raises leaves the pairing open and ``recover`` rolls it forward, making the game
once; two matchmakers (two workers) on one Redis pool, pairing concurrently with games ending at random, never put
anyone in two games at once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from bot.services.matchmaking import Matchmaker, Starter
from bot.storage import PairingPools, PoolEntry, RedisGameStore, SqliteGameStore, Store, StoredPairing

POOL = "lobby"
T0 = 1_000_000.0


@dataclass
class Clock:
    now: float = T0

    def __call__(self) -> float:
        return self.now


def adjacent(entries: list[PoolEntry], now: float) -> list[tuple[str, str]]:
    """Pair neighbours by score (the store lists entries by score)."""
    return [(entries[i].member, entries[i + 1].member) for i in range(0, len(entries) - 1, 2)]


@dataclass
class Games:
    """A fake game maker: ``start`` makes the game under the pairing id, once; it may refuse or fail on request."""

    made: dict[str, tuple[str, str]] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    refuse: set[str] = field(default_factory=set)  # members whose games cannot be made
    fail_after_making: int = 0  # the next N calls make the game and then raise (a worker dying mid-way)
    fail_before_making: int = 0  # the next N calls raise before making anything

    async def start(self, pairing: StoredPairing) -> bool:
        self.calls.append(pairing.pairing_id)
        if self.fail_before_making:
            self.fail_before_making -= 1
            raise RuntimeError("the Bot API is down")
        if pairing.pairing_id in self.made:
            return True  # made before: idempotent
        members = (pairing.entries[0].member, pairing.entries[1].member)
        if self.refuse & set(members):
            return False
        self.made[pairing.pairing_id] = members
        if self.fail_after_making:
            self.fail_after_making -= 1
            raise RuntimeError("worker killed after creating the game")
        return True


@pytest.fixture(params=["sqlite", "redis"])
async def store(request: pytest.FixtureRequest, sqlite_path: str) -> AsyncIterator[Store]:
    s: Store
    if request.param == "sqlite":
        s = SqliteGameStore(sqlite_path)
    else:
        s = RedisGameStore.from_url(request.getfixturevalue("redis_url"))
    yield s
    await s.close()


async def seed(store: Store, count: int, pool: str = POOL) -> None:
    for n in range(count):
        await store.pool_put(pool, PoolEntry(member=str(n), score=1000.0 + n, since=T0 - n, data={"n": n}))


async def test_a_pass_makes_each_game_once_and_closes_the_pairings(store: Store) -> None:
    await seed(store, 5)
    games, clock = Games(), Clock()
    made = await Matchmaker(store, clock).pair(POOL, adjacent, games.start)
    assert [tuple(e.member for e in p.entries) for p in made] == [("0", "1"), ("2", "3")]
    assert sorted(games.made) == sorted(p.pairing_id for p in made) and len(games.calls) == 2
    assert [e.member for e in await store.pool_entries(POOL, T0)] == ["4"]
    assert await store.open_pairings(POOL, T0 + 1000) == []
    assert await Matchmaker(store, clock).pair(POOL, adjacent, games.start) == []  # one seeker alone


async def test_start_saying_no_puts_both_back(store: Store) -> None:
    await seed(store, 4)
    games = Games(refuse={"1"})
    made = await Matchmaker(store, Clock()).pair(POOL, adjacent, games.start)
    assert [tuple(e.member for e in p.entries) for p in made] == [("2", "3")]
    back = await store.pool_entries(POOL, T0)
    assert [(e.member, e.since, e.data) for e in back] == [("0", T0, {"n": 0}), ("1", T0 - 1, {"n": 1})]
    assert await store.open_pairings(POOL, T0 + 1000) == []


@pytest.mark.parametrize("after_making", [False, True])
async def test_a_failed_start_is_rolled_forward_once_by_recover(store: Store, after_making: bool) -> None:
    await seed(store, 2)
    clock = Clock()
    games = Games(fail_after_making=int(after_making), fail_before_making=int(not after_making))
    worker, other = Matchmaker(store, clock, lease=30), Matchmaker(store, clock, lease=30)
    assert await worker.pair(POOL, adjacent, games.start) == []
    [pairing] = await store.open_pairings(POOL, T0 + 1)  # left open, both out of the pool
    assert await store.pool_entries(POOL, T0) == []
    clock.now = T0 + 29
    assert await other.recover(POOL, games.start) == 0  # still within the lease
    clock.now = T0 + 31
    assert await other.recover(POOL, games.start) == 1
    assert games.made == {pairing.pairing_id: ("0", "1")}  # one game, under the pairing's id
    assert games.calls == [pairing.pairing_id, pairing.pairing_id]
    assert await store.open_pairings(POOL, T0 + 1000) == []
    assert await worker.recover(POOL, games.start) == 0
    assert await store.pool_entries(POOL, T0) == []


async def test_recover_releases_what_cannot_be_made(store: Store) -> None:
    await seed(store, 2)
    clock = Clock()
    games = Games(fail_before_making=1)
    await Matchmaker(store, clock).pair(POOL, adjacent, games.start)
    games.refuse = {"0"}  # meanwhile player 0 left
    clock.now += 60
    assert await Matchmaker(store, clock).recover(POOL, games.start) == 1
    assert games.made == {}
    assert [e.member for e in await store.pool_entries(POOL, T0)] == ["0", "1"]


async def test_a_bad_chooser_harms_nobody(store: Store) -> None:
    await seed(store, 4)
    games = Games()

    def sloppy(entries: list[PoolEntry], now: float) -> list[tuple[str, str]]:
        return [("0", "0"), ("0", "1"), ("1", "2"), ("9", "3"), ("2", "3")]

    made = await Matchmaker(store, Clock()).pair(POOL, sloppy, games.start)
    pairs = [tuple(e.member for e in p.entries) for p in made]
    assert pairs and set(pairs) <= {("0", "1"), ("1", "2"), ("2", "3")}
    taken = [m for pair in pairs for m in pair]
    assert len(taken) == len(set(taken))


class Counting:
    """The store, counting the calls of each of its methods (the round trips of a pass)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        self.calls[name] = self.calls.get(name, 0) + 1
        return getattr(self.store, name)


async def test_a_pass_claims_and_closes_in_batches(store: Store) -> None:
    await seed(store, 21)
    counting = Counting(store)
    games = Games()
    matchmaker = Matchmaker(cast(PairingPools, counting), Clock(), claim_batch=3, page=4)
    made = await matchmaker.pair(POOL, adjacent, games.start)
    assert [tuple(e.member for e in p.entries) for p in made] == [(str(n), str(n + 1)) for n in range(0, 20, 2)]
    assert len(games.made) == 10
    assert counting.calls["claim_pairs"] == 4 and counting.calls["close_pairings"] == 4  # 10 pairs, 3 a batch
    assert counting.calls["pool_entries"] == 6  # 21 entries, 4 a page
    assert "claim_pair" not in counting.calls and "close_pairing" not in counting.calls
    assert counting.calls["try_lead_pool"] == 5 and counting.calls["release_pool_lead"] == 1  # taken, 4 renewals
    assert [e.member for e in await store.pool_entries(POOL, T0)] == ["20"]
    assert await store.open_pairings(POOL, T0 + 1000) == []


async def test_a_pass_reads_the_whole_pool(store: Store) -> None:
    await seed(store, 250)
    games = Games()
    made = await Matchmaker(store, Clock(), page=100).pair(POOL, adjacent, games.start)
    assert len(made) == 125  # the highest scores are paired too
    assert ("248", "249") in games.made.values()
    assert await store.pool_entries(POOL, T0) == []
    await seed(store, 250)
    made = await Matchmaker(store, Clock(), page=100, limit=120).pair(POOL, adjacent, games.start)
    assert len(made) == 60 and len(await store.pool_entries(POOL, T0)) == 130  # a limit, when asked for


async def test_a_worker_skips_a_pool_another_leads_until_that_lease_runs_out(store: Store) -> None:
    await seed(store, 4)
    clock, games = Clock(), Games()
    chosen: list[int] = []

    def counted(entries: list[PoolEntry], now: float) -> list[tuple[str, str]]:
        chosen.append(len(entries))
        return adjacent(entries, now)

    assert await store.try_lead_pool(POOL, "crashed-worker", 10.0, T0)  # then it died mid-pass
    worker = Matchmaker(store, clock, pass_lease=10.0)
    assert await worker.pair(POOL, counted, games.start) == []
    assert chosen == [] and len(await store.pool_entries(POOL, T0)) == 4  # skipped: nothing read or claimed
    clock.now = T0 + 9.5
    assert await worker.pair(POOL, counted, games.start) == []
    clock.now = T0 + 10
    assert len(await worker.pair(POOL, counted, games.start)) == 2  # the dead worker's lease ran out
    assert chosen == [4]
    assert await store.try_lead_pool(POOL, "other-worker", 10.0, clock.now)  # given up after the pass
    await seed(store, 4)
    assert await Matchmaker(store, clock, pass_lease=None).pair(POOL, counted, games.start) != []  # no lease


async def test_two_workers_passing_at_once_lose_no_claims(
    store: Store, request: pytest.FixtureRequest, sqlite_path: str
) -> None:
    other: Store
    if isinstance(store, SqliteGameStore):
        other = SqliteGameStore(sqlite_path)  # a second worker on the same file
    else:
        other = RedisGameStore.from_url(request.getfixturevalue("redis_url"))
    clock, games = Clock(), Games()
    chosen: list[tuple[str, str]] = []

    def recording(entries: list[PoolEntry], now: float) -> list[tuple[str, str]]:
        pairs = adjacent(entries, now)
        chosen.extend(pairs)
        return pairs

    workers = [Matchmaker(store, clock, claim_batch=7), Matchmaker(other, clock, claim_batch=7)]
    try:
        for _ in range(5):
            await seed(store, 60)
            results = await asyncio.gather(*(worker.pair(POOL, recording, games.start) for worker in workers))
            paired = [e.member for result in results for p in result for e in p.entries]
            assert len(paired) == len(set(paired)) == 60  # everyone paired, nobody twice
        assert len(chosen) == len(games.made) == 150  # every pair chosen was claimed: none lost to the other worker
        assert await store.open_pairings(POOL, T0 + 1000) == []
    finally:
        await other.close()


@dataclass
class Arena:
    """The shared world of the two-worker test: who is playing, every game made, and the violations seen."""

    rng: random.Random
    playing: dict[str, str] = field(default_factory=dict)  # member -> game id
    made: dict[str, tuple[str, str]] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    ended: int = 0


@pytest.mark.parametrize("seed_value", range(4))
async def test_two_workers_on_one_redis_pool_never_pair_anyone_twice(redis_url: str, seed_value: int) -> None:
    rng = random.Random(seed_value)
    world = Arena(rng=rng)
    clock = Clock()
    stores = [RedisGameStore.from_url(redis_url), RedisGameStore.from_url(redis_url)]
    people = 30
    await seed(stores[0], people)
    pending: set[asyncio.Task[None]] = set()

    async def finish(game_id: str, members: tuple[str, str], store: Store) -> None:
        for _ in range(rng.randrange(0, 30)):
            await asyncio.sleep(0)
        for member in members:
            del world.playing[member]
            score = rng.uniform(900, 1100)
            await store.pool_put(POOL, PoolEntry(member=member, score=score, since=clock(), data={}))
        world.ended += 1

    def starter(store: Store) -> Starter:
        async def start(pairing: StoredPairing) -> bool:
            for _ in range(rng.randrange(0, 5)):
                await asyncio.sleep(0)  # interleave with the other worker
            if pairing.pairing_id in world.made:
                return True
            members = (pairing.entries[0].member, pairing.entries[1].member)
            if rng.random() < 0.05:
                return False  # cannot be made: both back into the pool
            if rng.random() < 0.05:
                raise RuntimeError("crash before the game")  # open until recovered
            for member in members:
                if member in world.playing:
                    world.violations.append(f"{member} in {world.playing[member]} and {pairing.pairing_id}")
                world.playing[member] = pairing.pairing_id
            world.made[pairing.pairing_id] = members
            task = asyncio.create_task(finish(pairing.pairing_id, members, store))
            pending.add(task)
            task.add_done_callback(pending.discard)
            return True

        return start

    def shuffled(entries: list[PoolEntry], now: float) -> list[tuple[str, str]]:
        ids = [e.member for e in entries]
        rng.shuffle(ids)
        return [(ids[i], ids[i + 1]) for i in range(0, len(ids) - 1, 2)]

    workers = [Matchmaker(store, clock, lease=5) for store in stores]

    async def work(index: int) -> None:
        start = starter(stores[index])
        for _ in range(40):
            await workers[index].pair(POOL, shuffled, start)
            await workers[index].recover(POOL, start)
            clock.now += 1
            await asyncio.sleep(0)

    try:
        await asyncio.gather(work(0), work(1))
        while pending:
            await asyncio.gather(*pending)
        clock.now += 10
        for index in range(2):
            await workers[index].recover(POOL, starter(stores[index]))
        while pending:
            await asyncio.gather(*pending)
        assert world.violations == []
        assert len(world.made) > people  # games were made, and players came back for more
        # nobody lost: everyone is back in the pool, none of them in an open pairing
        assert await stores[0].open_pairings(POOL, clock.now + 1) == []
        assert sorted(e.member for e in await stores[1].pool_entries(POOL, clock.now)) == sorted(
            str(n) for n in range(people)
        )
    finally:
        for store in stores:
            await store.close()
