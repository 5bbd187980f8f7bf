"""A player of an arena who plays a game elsewhere (a casual or lobby game, a game of another group's arena) is not
paired in the arena until that game ends: the wave leaves them out of the pool, a pairing made with them is refused
(their partner waits on), and the arena takes them back within seconds of that game's end."""

from __future__ import annotations

from bot.model.arena import ArenaRecord, ArenaSettings
from bot.model.game import ChatLink, PlayerInfo
from bot.services.arena.pairing import pool_name
from bot.storage import Store
from bot.storage.pools import PoolEntry, StoredPairing
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.test_clock import Now

ANN, BEN, CARL = PlayerInfo(1, "Ann", "en"), PlayerInfo(2, "Ben", "en"), PlayerInfo(3, "Carl", "en")


def _env(store: Store, seed: str) -> tuple[Env, Now]:
    now = Now()
    env = Env(store, seeded(seed), clock=now, sleep=now.sleep)
    env.service.arenas.reconciler.wave_delay = 0.0
    for person in (ANN, BEN, CARL):
        env.fake.user(person.id, person.name, "en")
    return env, now


async def _record(env: Env, arena_id: str) -> ArenaRecord:
    loaded = await env.service.arenas.records.load(arena_id)
    assert loaded is not None
    return loaded[1]


async def _at(env: Env, now: Now, when: float) -> None:
    await now.advance(when)
    await env.service.settle()


async def _unfinished(store: Store, user_id: int) -> list[str]:
    found = []
    for game_id in await store.user_games(user_id):
        stored = await store.get_game(game_id)
        if stored is not None and not stored.finished:
            found.append(game_id)
    return found


async def test_a_player_in_a_casual_game_is_paired_in_the_arena_only_after_it(sqlite_store: Store) -> None:
    env, now = _env(sqlite_store, "arena-busy")
    start = now.now
    casual = await env.service.actions.start_game(
        "short", 1, [ANN, CARL], [ChatLink(ANN.id, 0), ChatLink(CARL.id, 1)], kind="private"
    )
    assert casual is not None
    group = env.fake.group_chat(-4731)
    arena_id = await env.service.arenas.actions.create(group.id, ANN, ArenaSettings(minutes=10))
    assert arena_id is not None
    for person in (ANN, BEN):
        await env.service.arenas.join(arena_id, person)
    await env.service.settle()
    assert (await _record(env, arena_id)).running == ()
    members = {e.member for e in await sqlite_store.pool_entries(pool_name(arena_id), now.now)}
    assert members == {str(BEN.id)}  # Ann plays elsewhere: not in the pool
    # a pairing with her (a stale entry, another worker's pass) is refused; Ben's entry stays
    await sqlite_store.pool_put(pool_name(arena_id), PoolEntry(str(ANN.id), 0.0, now.now, {"rating": 1500.0}))
    pairing = StoredPairing(
        "Zz0123456b",
        pool_name(arena_id),
        (PoolEntry(str(ANN.id), 0.0, now.now, {}), PoolEntry(str(BEN.id), 0.0, now.now, {})),
        now.now,
    )
    assert await env.service.arenas.pairing.start(arena_id, pairing) is False
    members = {e.member for e in await sqlite_store.pool_entries(pool_name(arena_id), now.now)}
    assert members == {str(BEN.id)}
    await _at(env, now, start + 30.0)  # past the patience: still nobody for Ben
    assert (await _record(env, arena_id)).running == ()
    await env.service.actions.end_match(casual, 0)
    await env.service.settle()
    await _at(env, now, start + 41.0)  # the arena looks again within seconds: Ann is back and paired
    (game,) = (await _record(env, arena_id)).running
    assert set(game.players) == {ANN.id, BEN.id}
    assert await _unfinished(sqlite_store, ANN.id) == [game.game_id]
    await env.service.stop_computer()
    await env.close()


async def test_two_arenas_in_two_groups_never_give_one_player_two_games(sqlite_store: Store) -> None:
    env, now = _env(sqlite_store, "arena-two")
    start = now.now
    arenas = env.service.arenas
    first = await arenas.actions.create(env.fake.group_chat(-4732).id, ANN, ArenaSettings(minutes=10))
    second = await arenas.actions.create(env.fake.group_chat(-4733).id, ANN, ArenaSettings(minutes=10))
    assert first is not None and second is not None
    for arena_id, people in ((first, (ANN, BEN)), (second, (ANN, CARL))):
        for person in people:
            await arenas.join(arena_id, person)
        await env.service.settle()
    (game,) = (await _record(env, first)).running
    assert set(game.players) == {ANN.id, BEN.id}
    assert (await _record(env, second)).running == ()  # Ann plays in the first arena: Carl waits
    for moment in (10.0, 25.0, 40.0):
        await _at(env, now, start + moment)
        assert (await _record(env, second)).running == ()
        assert len(await _unfinished(sqlite_store, ANN.id)) == 1
    await env.service.actions.end_match(game.game_id, 1)  # her game in the first arena ends
    await env.service.settle()
    await _at(env, now, start + 52.0)
    (other,) = (await _record(env, second)).running  # Carl gets her in the second arena
    assert set(other.players) == {ANN.id, CARL.id}
    for moment in (60.0, 75.0, 90.0):  # Ben waits alone in the first: she is busy in the second
        await _at(env, now, start + moment)
        assert (await _record(env, first)).running == ()
        assert await _unfinished(sqlite_store, ANN.id) == [other.game_id]
    await env.service.stop_computer()
    await env.close()
