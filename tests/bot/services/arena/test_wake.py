"""The arena's timed wake-ups are honoured on time without the sweep (which runs only every minute): two last
opponents left alone are paired again when the patience (20 s) runs out, and the end is noted and the result posted
at the end time — on virtual time, no sweep at all."""

from __future__ import annotations

from bot.model.arena import ArenaRecord, ArenaSettings
from bot.model.game import PlayerInfo
from bot.storage import Store
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.test_clock import Now


async def _record(env: Env, arena_id: str) -> ArenaRecord:
    loaded = await env.service.arenas.records.load(arena_id)
    assert loaded is not None
    return loaded[1]


async def _at(env: Env, now: Now, when: float) -> None:
    """Move the virtual clock to ``when`` (waking the timers due) and let the woken work finish."""
    await now.advance(when)
    await env.service.settle()


async def test_a_lonely_pair_meets_again_at_the_patience_and_the_end_comes_on_time(sqlite_store: Store) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("arena-wake"), clock=now, sleep=now.sleep)
    arenas = env.service.arenas
    arenas.reconciler.wave_delay = 0.0
    group = env.fake.group_chat(-4730)
    start = now.now
    arena_id = await arenas.actions.create(group.id, PlayerInfo(1, "Ann", "en"), ArenaSettings(minutes=5))
    assert arena_id is not None
    for user_id, name in ((1, "Ann"), (2, "Ben")):
        env.fake.user(user_id, name, "en")
        await arenas.join(arena_id, PlayerInfo(user_id, name, "en"))
    await env.service.settle()
    (first,) = (await _record(env, arena_id)).running
    await _at(env, now, start + 5.0)
    await env.service.actions.end_match(first.game_id, 0)
    await env.service.settle()
    assert (await _record(env, arena_id)).running == ()  # last opponents: they wait for the patience
    await _at(env, now, start + 24.0)
    assert (await _record(env, arena_id)).running == ()
    await _at(env, now, start + 25.5)  # 20 s alone: they meet again, no sweep needed
    (second,) = (await _record(env, arena_id)).running
    assert second.game_id != first.game_id and second.started_at <= start + 26.0
    await env.service.actions.end_match(second.game_id, 1)
    await arenas.pause(arena_id, PlayerInfo(2, "Ben", "en"))
    await env.service.settle()
    record = await _record(env, arena_id)
    ends_at = record.ends_at
    for moment in range(40, int(ends_at - start), 20):  # nothing due but the card and the end
        await _at(env, now, start + moment)
    assert (await _record(env, arena_id)).status == "running"
    await _at(env, now, ends_at + 0.5)
    record = await _record(env, arena_id)
    assert record.status == "finished" and record.finished_at is not None and record.finished_at <= ends_at + 1.0
    assert record.result_posted
    assert any("Arena result" in m.content for m in env.fake.messages(group.id))
    await env.service.stop_computer()
    await env.close()
