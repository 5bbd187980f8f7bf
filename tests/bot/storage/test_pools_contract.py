"""The contract of the pairing pools role (``PairingPools``): entries put, replaced, removed, listed by score and
expiring; a pair claimed exactly once (two stores on one back end = two workers); release puts both back unless a
member re-joined or left meanwhile; open pairings by age; close — on a Redis server, a Redis Cluster and the SQLite
file."""

from __future__ import annotations

import asyncio
import random
from typing import cast

import pytest

from bot.storage import CLOSED_PAIRING_RETENTION, PairingPools, PoolEntry, SqliteGameStore, Store, StoredPairing
from bot.storage.pools import Withdrawal, read_pool
from tests.bot.storage.backends import Backend

T0 = 1_000_000.0
POOL = "arena:t1"


def seeker(member: str, score: float, *, since: float = T0, expires: float | None = None, **data: object) -> PoolEntry:
    return PoolEntry(member=member, score=score, since=since, data={"name": member, **data}, expires=expires)


async def members(store: Store, pool: str = POOL, now: float = T0) -> list[str]:
    return [entry.member for entry in await store.pool_entries(pool, now)]


async def test_put_replace_remove_and_the_order_by_score(store: Store) -> None:
    await store.pool_put(POOL, seeker("7", 1600.0, lang="ru", blocked=["9"]))
    await store.pool_put(POOL, seeker("5", 1400.5))
    await store.pool_put(POOL, seeker("6", 1500.0, name="Ёжик"))
    await store.pool_put(POOL, seeker("4", 1500.0))  # equal scores: by member id
    assert await members(store) == ["5", "4", "6", "7"]
    entry = await store.pool_entry(POOL, "7", T0)
    assert entry == seeker("7", 1600.0, lang="ru", blocked=["9"])
    assert (await store.pool_entry(POOL, "6", T0)) == seeker("6", 1500.0, name="Ёжик")
    await store.pool_put(POOL, seeker("5", 1700.0, since=T0 + 3))  # replaced: a new score and a new since
    assert await members(store) == ["4", "6", "7", "5"]
    assert (await store.pool_entry(POOL, "5", T0)) == seeker("5", 1700.0, since=T0 + 3)
    assert await store.pool_remove(POOL, "6") is True
    assert await store.pool_remove(POOL, "6") is False
    assert await store.pool_entry(POOL, "6", T0) is None
    assert await members(store) == ["4", "7", "5"]
    assert [e.member for e in await store.pool_entries(POOL, T0, limit=2)] == ["4", "7"]
    assert await store.pool_entries(POOL, T0, limit=0) == []
    assert await members(store, "lobby") == []  # pools are apart
    assert await store.pool_entry("lobby", "4", T0) is None


async def test_numbers_come_back_exactly(store: Store) -> None:
    entry = PoolEntry(member="1", score=1512.3456789012345, since=1712345678.1234567, data={}, expires=T0 + 0.1)
    await store.pool_put("lobby", entry)
    assert await store.pool_entry("lobby", "1", T0) == entry
    assert await store.pool_entries("lobby", T0) == [entry]
    await store.pool_put("lobby", seeker("2", -3.25))
    pairing = await store.claim_pair("lobby", "pairing001", ("1", "2"), T0)
    assert pairing is not None and pairing.entries[0] == entry
    assert await store.release_pairing("lobby", "pairing001")
    assert await store.pool_entry("lobby", "1", T0) == entry


async def test_bad_arguments_are_refused(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.pool_put("", seeker("1", 1.0))
    with pytest.raises(ValueError):
        await store.pool_put(POOL, seeker("1", float("nan")))
    with pytest.raises(ValueError):
        await store.pool_put(POOL, seeker("1", 1.0, expires=float("inf")))
    await store.pool_put(POOL, seeker("1", 1.0))
    with pytest.raises(ValueError):
        await store.claim_pair(POOL, "p000000001", ("1", "1"), T0)
    assert await members(store) == ["1"]


async def test_expired_entries_are_invisible_unclaimable_and_purged(backend: Backend, store: Store) -> None:
    backend.now = T0
    await store.pool_put(POOL, seeker("1", 100.0, expires=T0 + 10))
    await store.pool_put(POOL, seeker("2", 200.0, expires=T0 + 20))
    await store.pool_put(POOL, seeker("3", 300.0))
    await store.pool_put("lobby", seeker("1", 100.0, expires=T0 + 10))
    assert await members(store, now=T0 + 9.9) == ["1", "2", "3"]
    assert await members(store, now=T0 + 10) == ["2", "3"]  # expires at that very moment
    assert await store.pool_entry(POOL, "1", T0 + 10) is None
    assert await store.pool_entry(POOL, "1", T0 + 5) is not None
    assert await store.claim_pair(POOL, "p000000001", ("1", "3"), T0 + 10) is None
    assert await members(store, now=T0) == ["1", "2", "3"]  # nothing changed
    backend.now = T0 + 15
    assert await store.purge_expired() == 2  # entry 1 of both pools
    assert await members(store, now=T0) == ["2", "3"]
    assert await members(store, "lobby", now=T0) == []
    assert await store.pool_remove(POOL, "1") is False  # gone
    assert await store.claim_pair(POOL, "p000000002", ("2", "3"), T0 + 15) is not None
    assert await store.purge_expired() == 0


async def test_a_pair_is_claimed_once(store: Store) -> None:
    for n, score in enumerate((100.0, 200.0, 300.0)):
        await store.pool_put(POOL, seeker(str(n), score))
    pairing = await store.claim_pair(POOL, "p000000001", ("2", "0"), T0 + 1)
    assert pairing == StoredPairing(
        pairing_id="p000000001", pool=POOL, entries=(seeker("2", 300.0), seeker("0", 100.0)), made=T0 + 1
    )
    assert await members(store) == ["1"]
    assert await store.pool_entry(POOL, "0", T0) is None
    assert await store.claim_pair(POOL, "p000000002", ("0", "1"), T0 + 1) is None  # 0 is taken
    assert await store.claim_pair(POOL, "p000000003", ("1", "9"), T0 + 1) is None  # 9 never came
    assert await members(store) == ["1"]  # a refused claim changes nothing
    await store.pool_put(POOL, seeker("0", 100.0))  # 0 seeks again while its pairing is still open
    assert await store.claim_pair(POOL, "p000000001", ("0", "1"), T0 + 2) is None  # the same id: never twice
    assert await members(store) == ["0", "1"]
    assert await store.close_pairing(POOL, "p000000001") is True
    assert await store.claim_pair(POOL, "p000000001", ("0", "1"), T0 + 3) is None  # nor after it was closed
    assert await store.claim_pair(POOL, "p000000004", ("0", "1"), T0 + 3) is not None


async def test_concurrent_claims_of_two_workers_take_nobody_twice(backend: Backend, store: Store) -> None:
    other = backend.open()  # a second worker on the same back end
    people = [str(n) for n in range(20)]
    for n, member in enumerate(people):
        await store.pool_put(POOL, seeker(member, 1000.0 + n))
    rng = random.Random(47)
    pairs = [tuple(rng.sample(people, 2)) for _ in range(50)]
    results = await asyncio.gather(
        *((store if n % 2 else other).claim_pair(POOL, f"pairing{n:03d}", (a, b), T0) for n, (a, b) in enumerate(pairs))
    )
    won = [pairing for pairing in results if pairing is not None]
    taken = [entry.member for pairing in won for entry in pairing.entries]
    assert won and len(taken) == len(set(taken))  # nobody in two pairings
    left = await members(store)
    assert sorted(taken + left) == sorted(people)  # and nobody lost
    assert not set(taken) & set(left)
    opened = await other.open_pairings(POOL, T0 + 1)
    assert sorted(p.pairing_id for p in opened) == sorted(p.pairing_id for p in won)


async def test_release_puts_both_back_unless_they_came_back_or_left(store: Store) -> None:
    for member, score in (("1", 100.0), ("2", 200.0), ("3", 300.0), ("4", 400.0), ("5", 500.0), ("6", 600.0)):
        await store.pool_put(POOL, seeker(member, score, since=T0 - score))
    a = await store.claim_pair(POOL, "pairing0a1", ("1", "2"), T0)
    b = await store.claim_pair(POOL, "pairing0b1", ("3", "4"), T0)
    c = await store.claim_pair(POOL, "pairing0c1", ("5", "6"), T0)
    assert a and b and c and await members(store) == []
    assert await store.release_pairing(POOL, "pairing0a1") is True
    assert await store.pool_entries(POOL, T0) == [
        seeker("1", 100.0, since=T0 - 100),
        seeker("2", 200.0, since=T0 - 200),
    ]
    assert await store.release_pairing(POOL, "pairing0a1") is False  # once
    await store.pool_put(POOL, seeker("3", 333.0, since=T0 + 5, fresh=True))  # 3 seeks again meanwhile
    assert await store.pool_remove(POOL, "4") is True  # 4 cancels its seek while paired
    assert await store.release_pairing(POOL, "pairing0b1") is True
    assert await store.pool_entry(POOL, "3", T0) == seeker("3", 333.0, since=T0 + 5, fresh=True)  # not overwritten
    assert await store.pool_entry(POOL, "4", T0) is None  # not brought back
    # 5 re-joins and is paired again before the old pairing is released: it stays in its new pairing
    await store.pool_put(POOL, seeker("5", 555.0))
    assert await store.claim_pair(POOL, "pairing0d1", ("5", "1"), T0 + 1) is not None
    assert await store.release_pairing(POOL, "pairing0c1") is True
    assert await members(store) == ["2", "3", "6"]
    assert await store.close_pairing(POOL, "pairing0c1") is False
    assert await store.claim_pair(POOL, "pairing0c1", ("2", "6"), T0 + 2) is None  # a released id is not reused


async def test_a_withdrawal_never_touches_a_member_bound_to_an_open_pairing(store: Store) -> None:
    for member, score in (("1", 100.0), ("2", 200.0), ("3", 300.0)):
        await store.pool_put(POOL, seeker(member, score))
    await store.pool_put(POOL, seeker("9", 900.0, expires=T0 - 1))  # expired, still kept by the store
    assert await store.pool_binding(POOL, "1") is None
    assert await store.claim_pair(POOL, "pairing0w1", ("1", "2"), T0) is not None
    assert await store.pool_binding(POOL, "1") == "pairing0w1" == await store.pool_binding(POOL, "2")
    # 1 cancels its seek after the claim: nothing changes, the pairing goes on
    assert await store.pool_withdraw(POOL, "1") is Withdrawal.PAIRED
    assert await store.pool_binding(POOL, "1") == "pairing0w1"
    assert await store.release_pairing(POOL, "pairing0w1") is True  # its game could not be made: both are back
    assert await members(store) == ["1", "2", "3"]
    assert await store.pool_binding(POOL, "1") is None
    assert await store.pool_withdraw(POOL, "1") is Withdrawal.REMOVED
    assert await store.pool_withdraw(POOL, "1") is Withdrawal.ABSENT
    assert await store.pool_withdraw(POOL, "9") is Withdrawal.REMOVED  # an expired entry is deleted too
    assert await store.pool_withdraw("lobby", "2") is Withdrawal.ABSENT  # pools are apart
    assert await store.claim_pair(POOL, "pairing0w2", ("2", "3"), T0) is not None
    assert await store.close_pairing(POOL, "pairing0w2") is True
    assert await store.pool_binding(POOL, "2") is None and await store.pool_binding(POOL, "3") is None
    assert await store.pool_withdraw(POOL, "2") is Withdrawal.ABSENT
    assert await members(store) == []


async def test_open_pairings_by_age_and_close(store: Store) -> None:
    for n in range(8):
        await store.pool_put(POOL, seeker(str(n), float(n)))
    for n, made in ((0, T0 + 30), (2, T0 + 10), (4, T0 + 20), (6, T0 + 40)):
        assert await store.claim_pair(POOL, f"pairing{n:03d}", (str(n), str(n + 1)), made) is not None
    old = await store.open_pairings(POOL, T0 + 40)  # strictly before
    assert [(p.pairing_id, p.made) for p in old] == [
        ("pairing002", T0 + 10),
        ("pairing004", T0 + 20),
        ("pairing000", T0 + 30),
    ]
    assert [e.member for e in old[0].entries] == ["2", "3"] and old[0].pool == POOL
    assert [p.pairing_id for p in await store.open_pairings(POOL, T0 + 100, limit=2)] == ["pairing002", "pairing004"]
    assert await store.open_pairings(POOL, T0 + 10) == []
    assert await store.open_pairings("lobby", T0 + 100) == []
    assert await store.close_pairing(POOL, "pairing004") is True
    assert await store.close_pairing(POOL, "pairing004") is False
    assert await store.release_pairing(POOL, "pairing004") is False  # closed: its members stay out of the pool
    assert await store.close_pairing(POOL, "unknown000") is False
    assert [p.pairing_id for p in await store.open_pairings(POOL, T0 + 100)] == [
        "pairing002",
        "pairing000",
        "pairing006",
    ]
    assert await members(store) == []
    # a member of a closed pairing seeks again and is paired again as usual
    await store.pool_put(POOL, seeker("4", 4.0))
    await store.pool_put(POOL, seeker("5", 5.0))
    assert await store.claim_pair(POOL, "pairing044", ("4", "5"), T0 + 50) is not None


async def test_closed_pairing_ids_are_forgotten_after_the_retention(backend: Backend, store: Store) -> None:
    backend.now = T0
    for n in range(2):
        await store.pool_put(POOL, seeker(str(n), float(n)))
    assert await store.claim_pair(POOL, "pairing001", ("0", "1"), T0) is not None
    assert await store.close_pairing(POOL, "pairing001")
    if isinstance(store, SqliteGameStore):
        assert await store.purge_expired() == 0
    backend.now = T0 + CLOSED_PAIRING_RETENTION + 1
    purged = await store.purge_expired()
    if isinstance(store, SqliteGameStore):
        assert purged == 1
    for n in range(2):
        await store.pool_put(POOL, seeker(str(n), float(n)))
    assert await store.claim_pair(POOL, "pairing001", ("0", "1"), backend.now) is not None


async def test_a_batch_of_claims_is_claimed_as_one_by_one(backend: Backend, store: Store) -> None:
    backend.now = T0
    for n in range(10):
        await store.pool_put(POOL, seeker(str(n), float(n), expires=T0 + 5 if n == 8 else None))
    await store.pool_put(POOL, seeker("a", 50.0))
    assert await store.claim_pair(POOL, "pairing0x1", ("a", "9"), T0) is not None
    assert await store.close_pairing(POOL, "pairing0x1")
    claims = [
        ("pairing001", ("1", "0")),
        ("pairing002", ("0", "2")),  # 0 went to the claim before
        ("pairing003", ("3", "missing")),
        ("pairing004", ("4", "8")),  # 8 expired at T0 + 5
        ("pairing001", ("4", "5")),  # the id is taken by the first claim of the batch
        ("pairing0x1", ("4", "5")),  # closed before
        ("pairing005", ("5", "4")),
        ("pairing006", ("6", "7")),
    ]
    made = await store.claim_pairs(POOL, claims, T0 + 5)
    assert [(p.pairing_id, tuple(e.member for e in p.entries)) for p in made] == [
        ("pairing001", ("1", "0")),
        ("pairing005", ("5", "4")),
        ("pairing006", ("6", "7")),
    ]
    assert made[0] == StoredPairing("pairing001", POOL, (seeker("1", 1.0), seeker("0", 0.0)), T0 + 5)
    assert await members(store, now=T0) == ["2", "3", "8"]
    opened = await store.open_pairings(POOL, T0 + 6)
    assert sorted(p.pairing_id for p in opened) == ["pairing001", "pairing005", "pairing006"]
    assert await store.claim_pairs(POOL, [], T0) == []
    assert await store.claim_pairs(POOL, [("pairing007", ("2", "missing"))], T0) == []  # refused: nothing changed
    assert await members(store, now=T0) == ["2", "3", "8"]
    with pytest.raises(ValueError):  # a pair of one member: nothing at all is claimed
        await store.claim_pairs(POOL, [("pairing008", ("2", "3")), ("pairing009", ("8", "8"))], T0)
    assert await members(store, now=T0) == ["2", "3", "8"]


async def test_a_full_batch_and_two_workers_batching_at_once(backend: Backend, store: Store) -> None:
    other = backend.open()
    people = [f"u{n:04d}" for n in range(1000)]
    for first in range(0, len(people), 100):
        await asyncio.gather(
            *(store.pool_put(POOL, seeker(m, float(n))) for n, m in enumerate(people[first : first + 100], first))
        )
    rng = random.Random(47)
    batches = []
    for worker in range(2):
        order = people[:]
        rng.shuffle(order)
        batches.append([(f"w{worker}p{i:03d}", (order[2 * i], order[2 * i + 1])) for i in range(500)])
    won = await asyncio.gather(store.claim_pairs(POOL, batches[0], T0), other.claim_pairs(POOL, batches[1], T0))
    taken = [e.member for pairings in won for p in pairings for e in p.entries]
    assert len(won[0]) == 500 or len(won[1]) == 500  # one batch ran first, whole
    assert len(taken) == len(set(taken))  # nobody twice
    left = await members(store)
    assert sorted(taken + left) == sorted(people)  # nobody lost


async def test_closing_a_batch_of_pairings(store: Store) -> None:
    for n in range(6):
        await store.pool_put(POOL, seeker(str(n), float(n)))
    made = await store.claim_pairs(POOL, [(f"pairing00{n}", (str(2 * n), str(2 * n + 1))) for n in range(3)], T0)
    assert len(made) == 3
    assert await store.close_pairing(POOL, "pairing001")
    assert await store.close_pairings(POOL, ["pairing000", "pairing001", "unknown000", "pairing002"]) == 2
    assert await store.close_pairings(POOL, []) == 0
    assert await store.open_pairings(POOL, T0 + 1) == []
    assert await store.release_pairing(POOL, "pairing002") is False  # closed: nobody comes back
    assert await members(store) == []
    for n in (0, 1):
        await store.pool_put(POOL, seeker(str(n), float(n)))  # unbound: they seek and are paired again
    assert await store.claim_pairs(POOL, [("pairing000", ("0", "1")), ("pairing009", ("0", "1"))], T0) != []
    assert [p.pairing_id for p in await store.open_pairings(POOL, T0 + 1)] == ["pairing009"]


async def test_pages_after_a_cursor_and_the_whole_pool(store: Store) -> None:
    for member, score in (("b", 1.0), ("a", 1.0), ("c", 1.0), ("d", 2.0), ("é", 2.0), ("E", 2.0), ("f", -1.5)):
        await store.pool_put(POOL, seeker(member, score, expires=T0 + 1 if member == "d" else None))
    assert await members(store) == ["f", "a", "b", "c", "E", "d", "é"]

    async def page(after: tuple[float, str] | None, limit: int = 2, now: float = T0) -> list[str]:
        return [e.member for e in await store.pool_entries(POOL, now, limit, after=after)]

    assert await page(None) == ["f", "a"]
    assert await page((1.0, "a")) == ["b", "c"]
    assert await page((1.0, "c")) == ["E", "d"]
    assert await page((2.0, "d"), now=T0 + 1) == ["é"]  # the expired one is skipped
    assert await page((2.0, "E"), now=T0 + 1) == ["é"]
    assert await page((2.0, "é")) == []
    assert await page((-1.5, "f"), limit=0) == []
    await store.pool_remove(POOL, "b")  # the cursor's entry left: the page starts where it was
    assert await page((1.0, "b")) == ["c", "E"]
    assert await page((1.0, "bb")) == ["c", "E"]
    assert await page((0.5, "zz")) == ["a", "c"]
    await store.pool_put(POOL, seeker("c", 7.0))  # moved on: the cursor is where it was, not where it went
    assert await page((1.0, "c")) == ["E", "d"]
    assert await page((7.0, "c")) == []
    assert await page((-1e300, "")) == ["f", "a"]
    everyone = [e.member for e in await read_pool(store, POOL, T0, page=2)]
    assert everyone == ["f", "a", "E", "d", "é", "c"]
    assert [e.member for e in await read_pool(store, POOL, T0, page=4, limit=5)] == everyone[:5]

    class Moving:  # "f", on the first page, moves to the end of the pool before the second page is read
        async def pool_entries(
            self, pool: str, now: float, limit: int = 1000, *, after: tuple[float, str] | None = None
        ) -> list[PoolEntry]:
            entries = await store.pool_entries(pool, now, limit, after=after)
            if after is None:
                await store.pool_put(POOL, seeker("f", 99.0))
            return entries

    moved = await read_pool(cast(PairingPools, Moving()), POOL, T0, page=2)
    assert [e.member for e in moved] == everyone  # listed once, as seen first
    assert moved[0] == seeker("f", -1.5)


async def test_the_whole_of_a_pool_bigger_than_a_page(store: Store) -> None:
    count = 2345
    for first in range(0, count, 200):
        await asyncio.gather(
            *(store.pool_put(POOL, seeker(str(n), float(n % 700))) for n in range(first, min(count, first + 200)))
        )
    assert len(await store.pool_entries(POOL, T0)) == 1000  # one page
    everyone = await read_pool(store, POOL, T0)  # pages of 1000
    assert len(everyone) == count and len({e.member for e in everyone}) == count
    assert [(e.score, e.member) for e in everyone] == sorted((e.score, e.member) for e in everyone)


async def test_one_pass_lease_per_pool(store: Store) -> None:
    assert await store.try_lead_pool(POOL, "worker-a", 100.0, T0) is True
    assert await store.try_lead_pool(POOL, "worker-b", 100.0, T0 + 10) is False
    assert await store.try_lead_pool("lobby", "worker-b", 100.0, T0 + 10) is True  # pools are apart
    assert await store.try_lead_pool(POOL, "worker-a", 100.0, T0 + 50) is True  # renewed: until T0 + 150
    assert await store.try_lead_pool(POOL, "worker-b", 100.0, T0 + 149.9) is False
    assert await store.release_pool_lead(POOL, "worker-b") is False  # not b's to release
    assert await store.release_pool_lead(POOL, "worker-a") is True
    assert await store.release_pool_lead(POOL, "worker-a") is False
    assert await store.try_lead_pool(POOL, "worker-b", 100.0, T0 + 60) is True
    # b dies holding it: a gets it when b's lease has run out, not before
    assert await store.try_lead_pool(POOL, "worker-a", 100.0, T0 + 159.9) is False
    assert await store.try_lead_pool(POOL, "worker-a", 100.0, T0 + 160) is True
    assert await store.try_lead_pool(POOL, "worker-b", 100.0, T0 + 170) is False
    with pytest.raises(ValueError):
        await store.try_lead_pool(POOL, "worker-a", 0.0, T0)
    with pytest.raises(ValueError):
        await store.try_lead_pool(POOL, "worker-a", float("inf"), T0)
