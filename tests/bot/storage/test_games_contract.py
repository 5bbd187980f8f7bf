"""The contract of the games role (``GameRecords``): records, compare-and-set, indices, deadlines, board
states and leases, quarantine,
run against a real Redis server, a real 3-node Redis Cluster (``redis_cluster_url``, see ``conftest.py``) and the
embedded SQLite store."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import BoardFence, BoardState, GameNotFoundError, RedisGameStore, Store, is_valid_id, new_id
from tests.bot.storage.backends import Backend
from tests.bot.storage.samples import GAME, SHORT_TTL

GRANTED = BoardFence.GRANTED


async def test_create_and_get(store: Store) -> None:
    game_id = await store.create_game(GAME, chat_ids=[-100, 5], user_ids=[5, 6], deadline=123.5)
    assert is_valid_id(game_id)
    game = await store.get_game(game_id)
    assert game is not None
    assert game.game_id == game_id
    assert game.version == 1
    assert game.data == GAME
    assert not game.finished
    assert game.chat_ids == (-100, 5)
    assert game.user_ids == (5, 6)
    assert game.deadline == 123.5
    assert await store.get_game("nope-nope-") is None


async def test_ids_are_distinct(store: Store) -> None:
    ids = {await store.create_game({"n": i}) for i in range(30)}
    assert len(ids) == 30


async def test_update_cas(store: Store) -> None:
    game_id = await store.create_game({"n": 0})
    assert await store.update_game(game_id, 1, {"n": 1}) == 2
    # A stale version is refused and changes nothing.
    assert await store.update_game(game_id, 1, {"n": 99}) is None
    assert await store.update_game(game_id, 3, {"n": 99}) is None
    game = await store.get_game(game_id)
    assert game is not None and game.version == 2 and game.data == {"n": 1}
    assert await store.update_game(game_id, 2, {"n": 2}) == 3


async def test_update_missing_game_raises(store: Store) -> None:
    with pytest.raises(GameNotFoundError):
        await store.update_game("missing123", 1, {})
    with pytest.raises(GameNotFoundError):
        await store.finish_game("missing123", 1, {}, ttl=10)


async def test_returned_data_is_a_copy(store: Store) -> None:
    game_id = await store.create_game({"list": [1]})
    game = await store.get_game(game_id)
    assert game is not None
    game.data["list"].append(2)
    again = await store.get_game(game_id)
    assert again is not None and again.data == {"list": [1]}


async def test_concurrent_cas_exactly_one_wins(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0})
    others = [backend.open() for _ in range(4)]
    stores = [store, *others]
    results = await asyncio.gather(*(stores[i % len(stores)].update_game(game_id, 1, {"n": i}) for i in range(50)))
    winners = [i for i, r in enumerate(results) if r is not None]
    assert len(winners) == 1
    assert results[winners[0]] == 2
    game = await store.get_game(game_id)
    assert game is not None and game.version == 2 and game.data == {"n": winners[0]}


async def test_indices_and_finish(backend: Backend, store: Store) -> None:
    a = await store.create_game({"g": "a"}, chat_ids=[-1], user_ids=[10, 11])
    await backend.advance(0.001)
    b = await store.create_game({"g": "b"}, chat_ids=[-1, 10], user_ids=[10, 12])
    assert await store.chat_games(-1) == [a, b]
    assert await store.chat_games(10) == [b]
    assert await store.user_games(10) == [a, b]
    assert await store.user_games(11) == [a]
    assert await store.user_games(99) == []

    assert await store.finish_game(a, 1, {"g": "a", "over": True}, ttl=3600) == 2
    assert await store.chat_games(-1) == [b]
    assert await store.user_games(10) == [b]
    assert await store.user_games(11) == []
    assert await store.chat_history(-1) == [a]
    game = await store.get_game(a)
    assert game is not None and game.finished and game.version == 2 and game.data["over"] is True
    # Finishing twice is refused; an update of a finished game still works (e.g. a rematch offer).
    assert await store.finish_game(a, 2, {"g": "a"}, ttl=3600) is None
    assert await store.update_game(a, 2, {"g": "a", "rematch": True}) == 3

    await backend.advance(0.001)
    assert await store.finish_game(b, 1, {"g": "b"}, ttl=3600) == 2
    assert await store.chat_history(-1) == [b, a]
    assert await store.chat_history(-1, limit=1) == [b]
    assert await store.chat_games(-1) == []


async def test_finished_game_expires(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-5], user_ids=[1])
    assert await store.finish_game(game_id, 1, {"n": 1}, ttl=SHORT_TTL) == 2
    assert await store.get_game(game_id) is not None
    await backend.advance(SHORT_TTL * 3)
    assert await store.get_game(game_id) is None
    assert await store.chat_history(-5) == []
    with pytest.raises(GameNotFoundError):
        await store.update_game(game_id, 2, {})


async def test_deadlines(store: Store) -> None:
    a = await store.create_game({"g": "a"}, deadline=100.0)
    b = await store.create_game({"g": "b"}, deadline=50.0)
    c = await store.create_game({"g": "c"})
    assert await store.due_games(now=10.0) == []
    assert await store.due_games(now=75.0) == [b]
    assert await store.due_games(now=100.0) == [b, a]
    assert await store.due_games(now=100.0, limit=1) == [b]
    # Moving, clearing and keeping deadlines.
    assert await store.update_game(b, 1, {"g": "b"}, deadline=200.0) == 2
    assert await store.update_game(a, 1, {"g": "a"}, deadline=None) == 2
    assert await store.update_game(c, 1, {"g": "c"}, deadline=150.0) == 2
    assert await store.update_game(c, 2, {"g": "c2"}) == 3
    game = await store.get_game(c)
    assert game is not None and game.deadline == 150.0
    assert await store.due_games(now=175.0) == [c]
    assert await store.due_games(now=1000.0) == [c, b]
    # A finished game is never due.
    assert await store.finish_game(c, 3, {"g": "c"}, ttl=60) == 4
    assert await store.due_games(now=1000.0) == [b]
    # A refused CAS does not move the deadline.
    assert await store.update_game(b, 1, {"g": "b"}, deadline=1.0) is None
    assert await store.due_games(now=100.0) == []


async def test_mark_seen_keeps_the_first_mark_of_an_action_and_lowers_the_deadline(store: Store) -> None:
    game_id = await store.create_game({"n": 0}, deadline=5000.0)
    assert (await store.get_game(game_id)).seen is None  # type: ignore[union-attr]
    assert await store.mark_seen(game_id, 7, 1040.25, deadline=1100.0) == 1040.25
    assert await store.mark_seen(game_id, 7, 1090.0, deadline=1150.0) == 1040.25  # the first mark wins
    game = await store.get_game(game_id)
    assert game is not None and game.seen == (7, 1040.25) and game.version == 1  # versionless
    assert game.deadline == 1100.0 and await store.due_games(now=1100.0) == [game_id]
    assert await store.update_game(game_id, 1, {"n": 1}) == 2  # a save keeps the mark (it belongs to the action)
    assert (await store.get_game(game_id)).seen == (7, 1040.25)  # type: ignore[union-attr]
    assert await store.mark_seen(game_id, 8, 2003.0, deadline=9000.0) == 2003.0  # the next action's mark
    assert await store.mark_seen(game_id, 7, 2004.0, deadline=1000.0) is None  # an older action's: too late
    game = await store.get_game(game_id)
    assert game is not None and game.seen == (8, 2003.0) and game.deadline == 1100.0  # never raised
    assert await store.finish_game(game_id, 2, {"n": 2}, ttl=60, deadline=None) == 3
    assert await store.mark_seen(game_id, 9, 3001.0, deadline=3050.0) == 3001.0
    assert await store.due_games(now=1e9) == []  # a finished game gets no deadline from a mark
    assert await store.mark_seen("nosuchgame", 1, 2.0) is None


async def test_due_games_repairs_a_lagging_index(backend: Backend, store: Store) -> None:
    if not backend.is_redis:
        pytest.skip("the SQLite store has no separate index")
    assert isinstance(store, RedisGameStore)
    game_id = await store.create_game({"n": 0}, deadline=500.0)
    # Simulate an index write of an older update arriving late.
    await store.redis.zadd("nardy:deadlines", {game_id: 10.0})
    assert await store.due_games(now=100.0) == []
    assert await store.redis.zscore("nardy:deadlines", game_id) == 500.0
    assert await store.due_games(now=600.0) == [game_id]
    # A game missing from the index gets back in with its next update.
    await store.redis.zrem("nardy:deadlines", game_id)
    assert await store.update_game(game_id, 1, {"n": 1}, deadline=700.0) == 2
    assert await store.due_games(now=800.0) == [game_id]


async def test_board_state_is_monotonic_and_versionless(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1, 7])
    game = await store.get_game(game_id)
    assert game is not None and dict(game.boards) == {}
    assert await store.set_board(game_id, -1, 10, 1) is True
    assert await store.set_board(game_id, -1, 11, 3) is True
    assert await store.set_board(game_id, -1, 12, 2) is False  # older than the recorded state: not written
    assert await store.set_board(game_id, -1, None, 3) is True  # the same version may change the message
    assert await store.set_board(game_id, 7, 99, 1) is True
    game = await store.get_game(game_id)
    assert game is not None
    assert game.version == 1  # board states do not bump the version
    assert dict(game.boards) == {-1: BoardState(-1, None, 3), 7: BoardState(7, 99, 1)}
    # A CAS of the record keeps the board states.
    assert await store.update_game(game_id, 1, {"n": 1}) == 2
    game = await store.get_game(game_id)
    assert game is not None and game.boards[7] == BoardState(7, 99, 1)
    assert await store.set_board("missing123", -1, 1, 1) is False


async def test_board_lease_is_exclusive_and_follows_the_recorded_message(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1])
    # no board recorded: the first lease wins, another owner is refused while it lasts, the holder renews it
    assert await store.fence_board(game_id, -1, None, "a", 30.0, post=True) is GRANTED
    assert await store.fence_board(game_id, -1, None, "b", 30.0, post=True) is BoardFence.BUSY
    assert await store.fence_board(game_id, -1, None, "b", 0, post=True) is BoardFence.BUSY  # a check: refused too
    assert await store.fence_board(game_id, -1, None, "a", 30.0, post=True) is GRANTED
    assert await store.fence_board(game_id, -1, None, "a", 0) is GRANTED
    # once a message is recorded, only a lease naming that message can be granted (a stale reader cannot post)
    assert await store.land_board(game_id, -1, "a", 10, 1) == 1
    assert await store.fence_board(game_id, -1, None, "a", 30.0, post=True) is BoardFence.MOVED
    assert await store.fence_board(game_id, -1, 10, "b", 0, post=True) is GRANTED  # "a" gave its lease up
    assert await store.fence_board(game_id, -1, 10, "a", 30.0, post=True) is GRANTED  # "a" is to replace 10
    assert await store.fence_board(game_id, -1, 10, "b", 0, post=True) is BoardFence.BUSY
    assert await store.fence_board(game_id, -1, 10, "a", 0) is GRANTED
    game = await store.get_game(game_id)
    assert game is not None and game.version == 1 and dict(game.boards) == {-1: BoardState(-1, 10, 1)}
    # an expired lease is no one's: another owner takes it (leases expire on the store's clock, not by a TTL)
    backend.now += 31.0
    assert await store.fence_board(game_id, -1, 10, "b", 30.0, post=True) is GRANTED
    assert await store.fence_board(game_id, -1, 10, "a", 0, post=True) is BoardFence.BUSY
    assert await store.fence_board(game_id, 7, None, "a", 30.0) is GRANTED  # chats are leased apart
    assert await store.fence_board("missing123", -1, None, "a", 30.0) is BoardFence.GONE


async def test_board_lease_draws_only_the_current_version(store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1])
    assert await store.update_game(game_id, 1, {"n": 1}) == 2
    assert await store.land_board(game_id, -1, "a", 10, 1) == 2  # the saved version is newer: the caller draws again
    assert await store.fence_board(game_id, -1, 10, "a", 30.0, version=1) is BoardFence.OUTDATED
    assert await store.fence_board(game_id, -1, 10, "a", 30.0, version=2) is GRANTED
    assert await store.land_board(game_id, -1, "a", 10, 2) == 2
    # an edit of what the board shows already changes nothing; a new message may show it
    assert await store.fence_board(game_id, -1, 10, "b", 30.0, version=2) is BoardFence.SHOWN
    assert await store.fence_board(game_id, -1, 10, "b", 30.0, version=2, post=True) is GRANTED
    game = await store.get_game(game_id)
    assert game is not None and game.version == 2 and game.boards[-1] == BoardState(-1, 10, 2)


async def test_a_new_board_message_makes_the_old_one_stale(store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1])
    assert await store.land_board(game_id, -1, "a", 10, 1) == 1
    assert await store.fence_board(game_id, -1, 10, "a", 30.0, version=1, post=True) is GRANTED
    assert await store.land_board(game_id, -1, "a", 11, 1) == 1
    assert await store.fence_board(game_id, -1, 11, "b", 30.0, version=1, post=True) is GRANTED
    assert await store.land_board(game_id, -1, "b", 12, 1) == 1
    game = await store.get_game(game_id)
    assert game is not None and game.boards[-1] == BoardState(-1, 12, 1, stale=(10, 11))
    await store.forget_stale(game_id, -1, 10)
    await store.forget_stale(game_id, -1, 99)  # not listed: nothing changes
    game = await store.get_game(game_id)
    assert game is not None and game.boards[-1] == BoardState(-1, 12, 1, stale=(11,))
    await store.forget_stale(game_id, -1, 11)
    game = await store.get_game(game_id)
    assert game is not None and game.boards[-1] == BoardState(-1, 12, 1)


async def test_a_landing_after_the_lease_lapsed_is_recorded_on_the_safe_side(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1])
    assert await store.land_board(game_id, -1, "a", 10, 1) == 1
    assert await store.update_game(game_id, 1, {"n": 1}) == 2
    assert await store.update_game(game_id, 2, {"n": 2}) == 3
    assert await store.fence_board(game_id, -1, 10, "a", 30.0, version=3) is GRANTED
    backend.now += 31.0  # "a"'s call hangs past its lease; "b" takes the lease and shows version 3 first
    assert await store.fence_board(game_id, -1, 10, "b", 30.0, version=3) is GRANTED
    assert await store.land_board(game_id, -1, "b", 10, 3) == 3
    # "a"'s landing may have come after "b"'s: only a lower version is believed (a later sync draws the board again)
    assert await store.fence_board(game_id, -1, 10, "c", 30.0, version=3) is BoardFence.SHOWN
    assert await store.fence_board(game_id, -1, 10, "b", 30.0, version=3, post=True) is GRANTED
    assert await store.land_board(game_id, -1, "a", 10, 2) == 3
    game = await store.get_game(game_id)
    assert game is not None and game.boards[-1] == BoardState(-1, 10, 2)
    # a new message posted by a worker whose lease lapsed is no board: it is stale
    assert await store.land_board(game_id, -1, "a", 11, 3) == 3
    game = await store.get_game(game_id)
    assert game is not None and game.boards[-1] == BoardState(-1, 10, 2, stale=(11,))
    # a failed call only gives the lease up
    assert await store.land_board(game_id, -1, "b", None, None) == 3
    assert await store.fence_board(game_id, -1, 10, "c", 0, version=3) is GRANTED
    assert await store.land_board("missing123", -1, "a", 1, 1) is None


async def test_demote_board_believes_telegram_only_while_nothing_changed(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1])
    assert await store.update_game(game_id, 1, {"n": 1}) == 2
    assert await store.land_board(game_id, -1, "a", 10, 2) == 2
    assert await store.demote_board(game_id, -1, 11, 1, 2) is False  # not the board message
    assert await store.demote_board(game_id, -1, 10, 1, 3) is False  # the record changed since it was read
    assert await store.demote_board(game_id, -1, 10, 2, 2) is False  # not lower
    assert await store.fence_board(game_id, -1, 10, "a", 30.0, version=2, post=True) is GRANTED
    assert await store.demote_board(game_id, -1, 10, 1, 2) is False  # a call is under way
    backend.now += 31.0
    assert await store.demote_board(game_id, -1, 10, 1, 2) is True
    game = await store.get_game(game_id)
    assert game is not None and game.boards[-1] == BoardState(-1, 10, 1)
    assert await store.fence_board(game_id, -1, 10, "b", 30.0, version=2) is GRANTED  # the edit is due again
    assert await store.demote_board("missing123", -1, 10, 1, 2) is False


async def test_adopt_board_takes_a_newer_unrecorded_message(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1])
    assert await store.adopt_board(game_id, -1, 9, 1) is GRANTED  # nothing recorded: the pressed message is the board
    assert await store.adopt_board(game_id, -1, 9, 1) is BoardFence.MOVED  # recorded already
    assert await store.adopt_board(game_id, -1, 8, 1) is BoardFence.MOVED  # an older message: an old board
    assert await store.fence_board(game_id, -1, 9, "a", 30.0, version=1, post=True) is GRANTED
    assert await store.adopt_board(game_id, -1, 12, 1) is BoardFence.BUSY  # "a" may be posting message 12 itself
    backend.now += 31.0  # "a" died after Telegram took its new board
    assert await store.adopt_board(game_id, -1, 12, 1) is GRANTED
    game = await store.get_game(game_id)
    assert game is not None and game.boards[-1] == BoardState(-1, 12, 1, stale=(9,))
    assert await store.adopt_board("missing123", -1, 12, 1) is BoardFence.GONE


async def test_board_state_on_finished_game_until_it_expires(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1])
    assert await store.set_board(game_id, -1, 5, 1) is True
    assert await store.finish_game(game_id, 1, {"n": 1}, ttl=SHORT_TTL) == 2
    assert await store.set_board(game_id, -1, 6, 2) is True
    game = await store.get_game(game_id)
    assert game is not None and game.finished and game.boards == {-1: BoardState(-1, 6, 2)}
    await backend.advance(SHORT_TTL * 3)
    assert await store.set_board(game_id, -1, 7, 3) is False
    assert await store.get_game(game_id) is None


async def test_concurrent_board_states_keep_the_newest(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1])
    stores = [store, backend.open()]
    versions = [3, 1, 7, 2, 7, 5, 4, 6, 1, 7, 3, 2] * 3
    await asyncio.gather(*(stores[i % 2].set_board(game_id, -1, 100 + v, v) for i, v in enumerate(versions)))
    game = await store.get_game(game_id)
    assert game is not None and game.boards == {-1: BoardState(-1, 107, 7)}


async def test_set_deadline_changes_only_the_deadline(store: Store) -> None:
    game_id = await store.create_game({"n": 0})
    assert await store.set_deadline(game_id, 1, 40.0) is True
    game = await store.get_game(game_id)
    assert game is not None and game.version == 1 and game.deadline == 40.0 and game.data == {"n": 0}
    assert await store.due_games(now=50.0) == [game_id]
    assert await store.set_deadline(game_id, 2, 10.0) is False  # wrong version: nothing written
    assert await store.set_deadline(game_id, 1, 60.0) is True  # moved later
    assert await store.due_games(now=50.0) == []
    assert await store.due_games(now=60.0) == [game_id]
    assert await store.set_deadline(game_id, 1, None) is True
    assert await store.due_games(now=1e12) == []
    assert await store.set_deadline("missing123", 1, 5.0) is False
    assert await store.due_games(now=1e12) == []


async def test_finished_game_with_deadline_stays_due(store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[5], deadline=10.0)
    assert await store.finish_game(game_id, 1, {"n": 1}, ttl=3600, deadline=30.0) == 2
    # It left the active indices and joined the history, but stays in the deadline index.
    assert await store.chat_games(-1) == []
    assert await store.user_games(5) == []
    assert await store.chat_history(-1) == [game_id]
    assert await store.due_games(now=20.0) == []
    assert await store.due_games(now=30.0) == [game_id]
    game = await store.get_game(game_id)
    assert game is not None and game.finished and game.deadline == 30.0
    # The follow-up work is done: clearing the deadline takes it out of the index.
    assert await store.set_deadline(game_id, 2, None) is True
    assert await store.due_games(now=1e12) == []
    game = await store.get_game(game_id)
    assert game is not None and game.finished and game.deadline is None and game.version == 2


async def test_finished_game_leaves_deadline_index_when_it_expires(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, deadline=10.0)
    assert await store.finish_game(game_id, 1, {"n": 1}, ttl=SHORT_TTL, deadline=20.0) == 2
    assert await store.due_games(now=25.0) == [game_id]
    await backend.advance(SHORT_TTL * 3)
    assert await store.due_games(now=25.0) == []


async def test_finish_without_deadline_leaves_deadline_index(store: Store) -> None:
    game_id = await store.create_game({"n": 0}, deadline=10.0)
    assert await store.finish_game(game_id, 1, {"n": 1}, ttl=3600) == 2
    assert await store.due_games(now=1e12) == []
    game = await store.get_game(game_id)
    assert game is not None and game.deadline is None


async def test_create_with_game_id_is_idempotent(store: Store) -> None:
    game_id = new_id()
    kwargs = {"chat_ids": [-1], "user_ids": [5, 6], "deadline": 50.0}
    assert await store.create_game({"n": 0}, game_id=game_id, **kwargs) == game_id
    assert await store.update_game(game_id, 1, {"n": 1}) == 2
    # A retry (e.g. after a lost reply) overwrites nothing and creates nothing twice.
    assert await store.create_game({"n": 0}, game_id=game_id, **kwargs) == game_id
    game = await store.get_game(game_id)
    assert game is not None and game.version == 2 and game.data == {"n": 1}
    assert await store.chat_games(-1) == [game_id]
    assert await store.user_games(5) == [game_id]
    assert await store.user_chat_games(-1, 6) == [game_id]
    assert await store.due_games(now=60.0) == [game_id]
    assert await store.count_chat_games(-1) == 1


async def test_retried_creation_of_a_finished_game_does_not_revive_it(store: Store) -> None:
    game_id = new_id()
    await store.create_game({"n": 0}, game_id=game_id, chat_ids=[-1], user_ids=[5], deadline=5.0)
    assert await store.finish_game(game_id, 1, {"n": 1}, ttl=3600) == 2
    assert await store.create_game({"n": 0}, game_id=game_id, chat_ids=[-1], user_ids=[5], deadline=5.0) == game_id
    game = await store.get_game(game_id)
    assert game is not None and game.finished and game.version == 2
    assert await store.chat_games(-1) == []
    assert await store.user_chat_games(-1, 5) == []
    assert await store.due_games(now=1e12) == []


async def test_create_refuses_malformed_game_id(store: Store) -> None:
    with pytest.raises(ValueError, match="malformed game id"):
        await store.create_game({"n": 0}, game_id="bad id!")
    assert await store.chat_games(-1) == []


async def test_concurrent_retries_create_one_game(backend: Backend, store: Store) -> None:
    game_id = new_id()
    stores = [store, backend.open()]
    results = await asyncio.gather(
        *(stores[i % 2].create_game({"n": i}, game_id=game_id, chat_ids=[-1], user_ids=[5]) for i in range(20))
    )
    assert results == [game_id] * 20
    assert await store.chat_games(-1) == [game_id]
    game = await store.get_game(game_id)
    assert game is not None and game.version == 1


async def test_user_chat_games_and_count(backend: Backend, store: Store) -> None:
    a = await store.create_game({"g": "a"}, chat_ids=[-1], user_ids=[5, 6])
    await backend.advance(0.001)
    b = await store.create_game({"g": "b"}, chat_ids=[-1, 5], user_ids=[5, 7])
    await backend.advance(0.001)
    c = await store.create_game({"g": "c"}, chat_ids=[-2], user_ids=[5, 6])
    assert await store.user_chat_games(-1, 5) == [a, b]
    assert await store.user_chat_games(-1, 6) == [a]
    assert await store.user_chat_games(-1, 7) == [b]
    assert await store.user_chat_games(5, 5) == [b]
    assert await store.user_chat_games(-2, 5) == [c]
    assert await store.user_chat_games(-2, 7) == []
    assert await store.count_chat_games(-1) == 2
    assert await store.count_chat_games(-3) == 0
    assert await store.finish_game(a, 1, {"g": "a"}, ttl=3600) == 2
    assert await store.user_chat_games(-1, 5) == [b]
    assert await store.user_chat_games(-1, 6) == []
    assert await store.count_chat_games(-1) == 1


async def test_quarantine_takes_a_game_out_of_every_index(backend: Backend, store: Store) -> None:
    bad = await store.create_game({"corrupt": True}, chat_ids=[-1], user_ids=[5, 6], deadline=10.0)
    await backend.advance(0.001)
    good = await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[5], deadline=20.0)
    await store.quarantine_game(bad, "ValueError: bad board")
    game = await store.get_game(bad)
    assert game is not None and game.quarantined and not game.finished and game.data == {"corrupt": True}
    assert await store.due_games(now=100.0) == [good]
    assert await store.chat_games(-1) == [good]
    assert await store.user_games(5) == [good]
    assert await store.user_games(6) == []
    assert await store.user_chat_games(-1, 5) == [good]
    assert await store.count_chat_games(-1) == 1
    assert await store.quarantined_games() == [bad]
    # Later deadline changes never put it back into the index.
    assert await store.set_deadline(bad, 1, 5.0) is True
    assert await store.due_games(now=100.0) == [good]
    # Quarantining again, or a missing game, changes nothing.
    await store.quarantine_game(bad, "again")
    await store.quarantine_game("missing123", "gone")
    assert await store.quarantined_games() == [bad]
    good_game = await store.get_game(good)
    assert good_game is not None and not good_game.quarantined


async def test_quarantined_finished_game_keeps_finished_and_expires(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[5])
    assert await store.finish_game(game_id, 1, {"n": 1}, ttl=SHORT_TTL, deadline=5.0) == 2
    await store.quarantine_game(game_id, "stats failed")
    game = await store.get_game(game_id)
    assert game is not None and game.finished and game.quarantined
    assert await store.due_games(now=100.0) == []
    assert await store.chat_history(-1) == []
    assert await store.quarantined_games() == [game_id]
    await backend.advance(SHORT_TTL * 3)
    assert await store.quarantined_games() == []


async def test_active_games_are_counted(store: Store) -> None:
    assert await store.active_game_count() == 0
    first = await store.create_game({"n": 0}, deadline=100.0)
    await store.create_game({"n": 1}, deadline=200.0)
    assert await store.active_game_count() == 2
    assert await store.finish_game(first, 1, {"n": 0}, ttl=3600) == 2
    assert await store.active_game_count() == 1
