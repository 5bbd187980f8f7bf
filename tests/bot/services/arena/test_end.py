"""A game whose result reaches the arena after its end does not count, even before the end is noted."""

from __future__ import annotations

from bot.model.arena import ArenaSettings
from bot.model.game import PlayerInfo
from bot.services.arena.pairing import pool_name
from bot.storage import Store
from bot.storage.pools import PoolEntry, StoredPairing
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.test_clock import Now
from tests.bot.services.arena.test_reconcile import _lost_at_first_move


async def test_a_result_after_the_end_does_not_count_before_the_sweep(sqlite_store: Store) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("arena-end"), clock=now)
    arenas = env.service.arenas
    arenas.reconciler.wave_delay = 0.0
    group = env.fake.group_chat(-4721)
    arena_id = await arenas.actions.create(group.id, PlayerInfo(1, "Ann", "en"), ArenaSettings(minutes=10))
    assert arena_id is not None
    for user_id, name in ((1, "Ann"), (2, "Ben")):
        env.fake.user(user_id, name, "en")
        await arenas.join(arena_id, PlayerInfo(user_id, name, "en"))
    await env.service.settle()
    loaded = await arenas.records.load(arena_id)
    assert loaded is not None
    (running,) = loaded[1].running
    now.now = loaded[1].ends_at + 5.0  # the end has come; no sweep has noted it yet
    await arenas.reconciler.match_finished(
        running.game_id, arena_id, running.game_id, _lost_at_first_move(running.game_id, arena_id)
    )
    await env.service.settle()
    loaded = await arenas.records.load(arena_id)
    assert loaded is not None
    record = loaded[1]
    assert record.games == ()
    assert record.status == "finished" and [g.game_id for g in record.late] == [running.game_id]
    await env.close()


async def test_no_game_is_started_after_the_end_before_it_is_noted(sqlite_store: Store) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("arena-end2"), clock=now)
    arenas = env.service.arenas
    arenas.reconciler.wave_delay = 0.0
    group = env.fake.group_chat(-4722)
    arena_id = await arenas.actions.create(group.id, PlayerInfo(1, "Ann", "en"), ArenaSettings(minutes=10))
    assert arena_id is not None
    for user_id, name in ((1, "Ann"), (2, "Ben")):
        env.fake.user(user_id, name, "en")
        await arenas.join(arena_id, PlayerInfo(user_id, name, "en"))
    await env.service.settle()
    loaded = await arenas.records.load(arena_id)
    assert loaded is not None
    (running,) = loaded[1].running
    finished = _lost_at_first_move(running.game_id, arena_id)
    await arenas.reconciler.match_finished(running.game_id, arena_id, running.game_id, finished)
    await arenas.resume(arena_id, PlayerInfo(2, "Ben", "en"))  # back after the missed first move: both are free
    await env.service.settle()
    loaded = await arenas.records.load(arena_id)
    assert loaded is not None and loaded[1].running == () and loaded[1].status == "running"
    assert {p.user_id for p in loaded[1].free()} == {1, 2}
    now.now = loaded[1].ends_at + 1.0  # over; the end not noted yet: a pairing made by a late pass is refused
    pairing = StoredPairing(
        "Zz0123456z", pool_name(arena_id), (PoolEntry("1", 2.0, now.now, {}), PoolEntry("2", 0.0, now.now, {})), now.now
    )
    assert await arenas.pairing.start(arena_id, pairing) is False
    loaded = await arenas.records.load(arena_id)
    assert loaded is not None and loaded[1].running == ()
    await env.close()
