"""The contract of the tournaments role (``TournamentRecords``); a few back-end specific crash cases at the end,
run against a real Redis server, a real 3-node Redis Cluster (``redis_cluster_url``, see ``conftest.py``) and the
embedded SQLite store."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage import (
    RATED_MATCHES_RETENTION,
    TOURNAMENT_HISTORY_RETENTION,
    GameNotFoundError,
    RedisGameStore,
    Store,
    StoredRating,
    StoredTournament,
    is_valid_id,
    new_id,
)
from bot.storage.redis.keys import CHAT_TOURNAMENT_KEY, CREATION_GRACE, TOURNAMENT_KEY
from tests.bot.storage.backends import Backend
from tests.bot.storage.samples import TOURNAMENT


async def test_create_get_and_update_with_cas(store: Store) -> None:
    tid = await store.create_tournament(-1, TOURNAMENT)
    assert tid is not None and is_valid_id(tid)
    assert await store.get_tournament(tid) == StoredTournament(tid, 1, TOURNAMENT, -1, False, None)
    assert await store.update_tournament(tid, 1, {"round": 1}) == 2
    # A stale or future version is refused and changes nothing.
    assert await store.update_tournament(tid, 1, {"round": 99}) is None
    assert await store.update_tournament(tid, 3, {"round": 99}) is None
    got = await store.get_tournament(tid)
    assert got is not None and got.version == 2 and got.data == {"round": 1} and not got.finished
    # The returned data is a copy.
    got.data["round"] = 42
    again = await store.get_tournament(tid)
    assert again is not None and again.data == {"round": 1}
    assert await store.get_tournament("nope-nope-") is None
    with pytest.raises(GameNotFoundError):
        await store.update_tournament("missing123", 1, {})
    assert await store.set_tournament_deadline("missing123", 1, 5.0) is False


async def test_concurrent_updates_exactly_one_wins(backend: Backend, store: Store) -> None:
    tid = await store.create_tournament(-1, {"n": 0})
    assert tid is not None
    stores = [store, backend.open(), backend.open()]
    results = await asyncio.gather(*(stores[i % 3].update_tournament(tid, 1, {"n": i}) for i in range(30)))
    winners = [i for i, r in enumerate(results) if r is not None]
    assert len(winners) == 1 and results[winners[0]] == 2
    got = await store.get_tournament(tid)
    assert got is not None and got.data == {"n": winners[0]}


async def test_one_running_tournament_per_chat(store: Store) -> None:
    assert await store.chat_tournament(-1) is None
    first = await store.create_tournament(-1, {"n": 1})
    assert first is not None
    assert await store.chat_tournament(-1) == first
    assert await store.create_tournament(-1, {"n": 2}) is None
    assert await store.create_tournament(-1, {"n": 2}, tournament_id=new_id()) is None
    # Another chat is independent.
    other = await store.create_tournament(-2, {"n": 3})
    assert other is not None and other != first
    # Finishing frees the chat.
    assert await store.update_tournament(first, 1, {"n": 1, "over": True}, finished=True) == 2
    assert await store.chat_tournament(-1) is None
    second = await store.create_tournament(-1, {"n": 2})
    assert second is not None and second != first
    assert await store.chat_tournament(-1) == second
    assert await store.chat_tournament(-2) == other
    got = await store.get_tournament(first)
    assert got is not None and got.finished and got.version == 2 and got.data["over"] is True


async def test_concurrent_creations_in_one_chat_exactly_one_wins(backend: Backend, store: Store) -> None:
    stores = [store, backend.open(), backend.open()]
    results = await asyncio.gather(*(stores[i % 3].create_tournament(-1, {"n": i}) for i in range(10)))
    created = [r for r in results if r is not None]
    assert len(created) == 1
    assert await store.chat_tournament(-1) == created[0]
    got = await store.get_tournament(created[0])
    assert got is not None and got.data == {"n": results.index(created[0])} and got.chat_id == -1
    # With caller-chosen ids too.
    assert await store.update_tournament(created[0], 1, {}, finished=True) == 2
    ids = [new_id() for _ in range(10)]
    results = await asyncio.gather(
        *(stores[i % 3].create_tournament(-1, {"n": i}, tournament_id=tid) for i, tid in enumerate(ids))
    )
    created = [r for r in results if r is not None]
    assert len(created) == 1
    assert await store.chat_tournament(-1) == created[0]


async def test_create_with_tournament_id_is_idempotent(backend: Backend, store: Store) -> None:
    tid = new_id()
    assert await store.create_tournament(-1, {"n": 0}, tournament_id=tid, deadline=50.0) == tid
    assert await store.update_tournament(tid, 1, {"n": 1}) == 2
    # A retry (e.g. after a lost reply) overwrites nothing.
    assert await store.create_tournament(-1, {"n": 0}, tournament_id=tid, deadline=50.0) == tid
    got = await store.get_tournament(tid)
    assert got is not None and got.version == 2 and got.data == {"n": 1} and got.deadline == 50.0
    assert await store.chat_tournament(-1) == tid
    assert await store.due_tournaments(now=60.0) == [tid]
    # Concurrent retries of one creation: all get the id, one tournament exists.
    tid2 = new_id()
    stores = [store, backend.open()]
    results = await asyncio.gather(
        *(stores[i % 2].create_tournament(-2, {"n": i}, tournament_id=tid2) for i in range(10))
    )
    assert results == [tid2] * 10
    got = await store.get_tournament(tid2)
    assert got is not None and got.version == 1
    # A retried creation of a finished tournament does not revive it.
    assert await store.update_tournament(tid, 2, {"n": 2}, finished=True) == 3
    assert await store.create_tournament(-1, {"n": 0}, tournament_id=tid) == tid
    got = await store.get_tournament(tid)
    assert got is not None and got.finished and got.version == 3
    assert await store.chat_tournament(-1) is None


async def test_create_refuses_malformed_tournament_id(store: Store) -> None:
    with pytest.raises(ValueError, match="malformed tournament id"):
        await store.create_tournament(-1, {}, tournament_id="bad id!")
    assert await store.chat_tournament(-1) is None


async def test_finished_tournament_can_be_updated_and_stays_finished(store: Store) -> None:
    tid = await store.create_tournament(-1, {"outbox": ["final table"]})
    assert tid is not None
    assert await store.update_tournament(tid, 1, {"outbox": ["final table"]}, finished=True) == 2
    assert await store.update_tournament(tid, 2, {"outbox": []}) == 3
    assert await store.update_tournament(tid, 3, {"outbox": []}, finished=True) == 4
    got = await store.get_tournament(tid)
    assert got is not None and got.finished and got.version == 4 and got.data == {"outbox": []}
    assert await store.chat_tournament_history(-1) == [tid]
    assert await store.chat_tournament(-1) is None


async def test_history_order_and_limit(backend: Backend, store: Store) -> None:
    ids = []
    for i in range(4):
        tid = await store.create_tournament(-1, {"n": i})
        assert tid is not None
        backend.now += 1.0
        assert await store.update_tournament(tid, 1, {"n": i}, finished=True) == 2
        ids.append(tid)
    running = await store.create_tournament(-1, {"n": 9})
    assert running is not None
    assert await store.chat_tournament_history(-1) == ids[::-1]
    assert await store.chat_tournament_history(-1, limit=2) == [ids[3], ids[2]]
    assert await store.chat_tournament_history(-2) == []
    # Updating a finished one again keeps its place (the first finishing time counts).
    backend.now += 1.0
    assert await store.update_tournament(ids[0], 2, {"n": 0}, finished=True) == 3
    assert await store.chat_tournament_history(-1) == ids[::-1]


async def test_deadlines_and_due_tournaments(store: Store) -> None:
    a = await store.create_tournament(-1, {"t": "a"}, deadline=100.0)
    b = await store.create_tournament(-2, {"t": "b"}, deadline=50.0)
    c = await store.create_tournament(-3, {"t": "c"})
    assert a is not None and b is not None and c is not None
    assert await store.due_tournaments(now=10.0) == []
    assert await store.due_tournaments(now=75.0) == [b]
    assert await store.due_tournaments(now=100.0) == [b, a]
    assert await store.due_tournaments(now=100.0, limit=1) == [b]
    # UNSET keeps, None clears, a number moves.
    assert await store.update_tournament(a, 1, {"t": "a2"}) == 2
    got = await store.get_tournament(a)
    assert got is not None and got.deadline == 100.0
    assert await store.update_tournament(a, 2, {"t": "a3"}, deadline=None) == 3
    assert await store.update_tournament(b, 1, {"t": "b"}, deadline=200.0) == 2
    assert await store.update_tournament(c, 1, {"t": "c"}, deadline=150.0) == 2
    assert await store.due_tournaments(now=1000.0) == [c, b]
    got = await store.get_tournament(a)
    assert got is not None and got.deadline is None
    # A refused CAS does not move the deadline.
    assert await store.update_tournament(b, 1, {"t": "b"}, deadline=1.0) is None
    assert await store.due_tournaments(now=100.0) == []
    # set_tournament_deadline changes only the deadline.
    assert await store.set_tournament_deadline(b, 2, 40.0) is True
    got = await store.get_tournament(b)
    assert got is not None and got.version == 2 and got.deadline == 40.0
    assert await store.set_tournament_deadline(b, 1, 10.0) is False
    assert await store.due_tournaments(now=45.0) == [b]
    assert await store.set_tournament_deadline(b, 2, None) is True
    assert await store.due_tournaments(now=1000.0) == [c]
    # A finished tournament with a deadline stays due until the deadline is cleared.
    assert await store.update_tournament(c, 2, {"t": "c"}, finished=True, deadline=160.0) == 3
    assert await store.due_tournaments(now=1000.0) == [c]
    got = await store.get_tournament(c)
    assert got is not None and got.finished and got.deadline == 160.0
    assert await store.set_tournament_deadline(c, 3, None) is True
    assert await store.due_tournaments(now=1e12) == []


async def test_reopen_keeps_tournaments_and_ratings(backend: Backend, store: Store) -> None:
    tid = await store.create_tournament(-1, TOURNAMENT, deadline=5.0)
    assert tid is not None
    rating = StoredRating(1512.25, 3, 1, "Ёжик")
    assert await store.apply_ratings("long", "m1", {5: 0}, {5: rating}, chat_id=-1) is True
    await store.close()
    reopened = backend.open()
    got = await reopened.get_tournament(tid)
    assert got is not None and got.data == TOURNAMENT
    assert await reopened.chat_tournament(-1) == tid
    assert await reopened.due_tournaments(now=10.0) == [tid]
    assert await reopened.get_ratings("long", [5]) == {5: rating}
    assert await reopened.chat_rated_players(-1, "long") == [5]


async def test_pointer_to_a_missing_tournament_counts_as_free(backend: Backend, store: Store) -> None:
    if not backend.is_redis:
        pytest.skip("the SQLite store keeps no separate pointer (the running tournament is a unique row per chat)")
    assert isinstance(store, RedisGameStore)
    pointer = CHAT_TOURNAMENT_KEY.format(chat_id=-1)
    # A crash after the pointer, before the record (a pointer of an older version, with no claim time).
    await store.redis.set(pointer, "ghostghost")
    assert await store.chat_tournament(-1) is None
    tid = await store.create_tournament(-1, {"n": 1})
    assert tid is not None and await store.chat_tournament(-1) == tid
    # The dead creation can no longer write its record.
    assert await store.create_tournament(-1, {"n": 0}, tournament_id="ghostghost") is None
    assert await store.get_tournament("ghostghost") is None
    assert await store.chat_tournament(-1) == tid


async def test_fresh_pointer_keeps_the_chat_busy_for_the_grace(backend: Backend, store: Store) -> None:
    if not backend.is_redis:
        pytest.skip("the SQLite store keeps no separate pointer")
    assert isinstance(store, RedisGameStore)
    # Another process claimed the chat and has not written its record yet.
    await store.redis.set(CHAT_TOURNAMENT_KEY.format(chat_id=-1), f"slowslow01 {backend.now!r}")
    assert await store.create_tournament(-1, {"n": 1}) is None
    # That creation still completes.
    assert await store.create_tournament(-1, {"n": 0}, tournament_id="slowslow01") == "slowslow01"
    assert await store.chat_tournament(-1) == "slowslow01"
    # A creation that crashed: after the grace the chat is free again.
    await store.redis.set(CHAT_TOURNAMENT_KEY.format(chat_id=-2), f"deaddead01 {backend.now!r}")
    assert await store.create_tournament(-2, {"n": 1}) is None
    backend.now += CREATION_GRACE + 1
    tid = await store.create_tournament(-2, {"n": 1})
    assert tid is not None and await store.chat_tournament(-2) == tid
    assert await store.redis.hget(TOURNAMENT_KEY.format(tournament_id="deaddead01"), "s") == "x"
    assert await store.create_tournament(-2, {"n": 0}, tournament_id="deaddead01") is None
    # Even once the chat is free again, the buried id is never created, and it does not keep the chat busy.
    assert await store.update_tournament(tid, 1, {"n": 1}, finished=True) == 2
    assert await store.create_tournament(-2, {"n": 0}, tournament_id="deaddead01") is None
    assert await store.get_tournament("deaddead01") is None
    assert await store.redis.get(CHAT_TOURNAMENT_KEY.format(chat_id=-2)) is None
    assert await store.create_tournament(-2, {"n": 2}) is not None


async def test_crash_while_finishing_leaves_a_free_chat(backend: Backend, store: Store) -> None:
    if not backend.is_redis:
        pytest.skip("SQLite finishes in one transaction")
    assert isinstance(store, RedisGameStore)
    tid = await store.create_tournament(-1, {"n": 0})
    assert tid is not None
    # The record was finished, then the process died before releasing the pointer and filing the history.
    await store._tournament_cas(
        keys=[TOURNAMENT_KEY.format(tournament_id=tid)], args=[1, '{"n":1}', "1", 10_000_000, "-"]
    )
    assert await store.redis.get(CHAT_TOURNAMENT_KEY.format(chat_id=-1)) is not None
    assert await store.chat_tournament(-1) is None
    await store.redis.set(CHAT_TOURNAMENT_KEY.format(chat_id=-1), tid)
    other = await store.create_tournament(-1, {"n": 0})
    assert other is not None and await store.chat_tournament(-1) == other
    # The next update of the finished tournament files it in the history.
    assert await store.chat_tournament_history(-1) == []
    assert await store.update_tournament(tid, 2, {"n": 2}) == 3
    assert await store.chat_tournament_history(-1) == [tid]
    assert await store.chat_tournament(-1) == other


async def test_purge_drops_expired_tournaments_and_old_match_keys(backend: Backend, store: Store) -> None:
    if backend.is_redis:
        pytest.skip("Redis expires tournaments itself and trims the applied match keys in the script")
    old = await store.create_tournament(-1, {"n": 0})
    assert old is not None
    assert await store.update_tournament(old, 1, {"n": 0}, finished=True) == 2
    assert await store.apply_ratings("long", "m1", {5: 0}, {5: StoredRating(1501.0, 1, 1, "a")}) is True
    backend.now += RATED_MATCHES_RETENTION + 1
    kept = await store.create_tournament(-1, {"n": 1})
    assert kept is not None
    assert await store.update_tournament(kept, 1, {"n": 1}, finished=True) == 2
    assert await store.purge_expired() == 1  # the applied match key
    backend.now += TOURNAMENT_HISTORY_RETENTION - RATED_MATCHES_RETENTION
    assert await store.get_tournament(old) is None
    assert await store.chat_tournament_history(-1) == [kept]
    assert await store.purge_expired(batch=1) == 1
    assert await store.purge_expired() == 0
    assert await store.get_tournament(kept) is not None
    with pytest.raises(GameNotFoundError):
        await store.update_tournament(old, 2, {})
    # The ratings themselves are kept.
    assert (await store.get_ratings("long", [5]))[5].matches == 1


async def test_sqlite_file_of_an_older_version_gets_the_new_tables(backend: Backend) -> None:
    if backend.is_redis:
        pytest.skip("SQLite schema migration")
    store = backend.open()
    game_id = await store.create_game({"n": 0}, chat_ids=[-1])
    await store.close()
    conn = sqlite3.connect(backend.location)
    for table in ("tournaments", "ratings", "rated_matches", "chat_rated_players"):
        conn.execute(f"DROP TABLE {table}")
    conn.commit()
    conn.close()
    reopened = backend.open()
    game = await reopened.get_game(game_id)
    assert game is not None and game.data == {"n": 0}
    tid = await reopened.create_tournament(-1, {"n": 1})
    assert tid is not None and await reopened.chat_tournament(-1) == tid
    assert await reopened.apply_ratings("long", "m1", {5: 0}, {5: StoredRating(1501.0, 1, 1, "a")}) is True
