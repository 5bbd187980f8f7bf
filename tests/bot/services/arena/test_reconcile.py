"""The arena reconciler's steps on a real store: a finished game is counted once (a repeat or a late report changes
nothing), a missed first move pauses and queues the notice, the end moves running games to the late ones (not
counted), empties the pool and posts the result once."""

from __future__ import annotations

from bot.model.arena import ArenaSettings, RunningGame
from bot.model.clock import GameClock, TimeControl
from bot.model.game import ChatLink, GameRecord, PlayerInfo, TournamentLink
from bot.services.arena.pairing import pool_name
from bot.storage import Store
from bot.variants import new_match
from nardy import SeededDice
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.test_clock import Now


def _lost_at_first_move(game_id: str, arena_id: str) -> GameRecord:
    match = new_match("short", 1, dice=SeededDice("r"))
    players = [PlayerInfo(1, "Ann", "en"), PlayerInfo(2, "Ben", "en")]
    record = GameRecord.new(match.to_dict(), players, [ChatLink(1, 0), ChatLink(2, 1)], kind="private")
    record.tournament = TournamentLink(arena_id, game_id, arena=True)
    record.clock = GameClock.new(TimeControl(12.0, 1.0), 1).start(1, 5.0).ran_out()
    record.events = [{"t": "over", "first": "lost", "time": 1}]
    return record


async def test_results_pause_and_the_end(sqlite_store: Store) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("arena-r"), clock=now)
    arenas = env.service.arenas
    arenas.reconciler.wave_delay = 0.0
    group = env.fake.group_chat(-4720)
    ann, ben = env.fake.user(1, "Ann", "en"), env.fake.user(2, "Ben", "en")
    arena_id = await arenas.actions.create(group.id, PlayerInfo(1, "Ann", "en"), ArenaSettings(minutes=10))
    assert arena_id is not None
    assert await arenas.actions.create(group.id, PlayerInfo(2, "Ben", "en"), ArenaSettings()) is None  # one a chat
    for user in (ann, ben):
        assert "You are in" in await arenas.join(arena_id, PlayerInfo(user.id, user.first_name, "en"))
    await env.service.settle()
    (_, record) = (await arenas.records.running_in(group.id)) or (None, None)
    assert record is not None and len(record.running) == 1 and record.card_message_id is not None
    game_id = record.running[0].game_id
    # the game is reported finished twice (a retry): counted once; the player who missed the first move is paused
    finished = _lost_at_first_move(game_id, arena_id)
    for _ in range(2):
        await arenas.reconciler.match_finished(game_id, arena_id, game_id, finished)
    # the stored session ends too (its own report comes for a game no longer running: ignored), so that the
    # players have no unfinished game elsewhere and may be paired again
    await env.service.actions.end_match(game_id, 0)
    await env.service.settle()
    loaded = await arenas.records.load(arena_id)
    assert loaded is not None
    record = loaded[1]
    assert len(record.games) == 1 and record.games[0].on_time and record.games[0].winner == 0
    assert record.player(2) is not None and record.player(2).paused  # type: ignore[union-attr]
    assert not record.outbox  # the notice went out
    assert any("did not move" in m.content for m in env.fake.messages(ben.id))
    assert await arenas.resume(arena_id, PlayerInfo(2, "Ben", "en")) == (
        "Welcome back: you get an opponent as soon as one is free."
    )
    await env.service.settle()
    now.now += 25.0  # last opponents meet again once one has waited alone for the patience (20 s)
    await arenas.reconciler.reconcile(arena_id)
    await env.service.settle()
    # a game running at the end: it finishes later and does not count
    loaded = await arenas.records.load(arena_id)
    assert loaded is not None
    (running,) = loaded[1].running
    now.now = loaded[1].ends_at
    await env.service.competitions.sweep(now.now)
    loaded = await arenas.records.load(arena_id)
    assert loaded is not None
    record = loaded[1]
    assert record.status == "finished" and record.late == (running,) and record.result_posted
    assert await sqlite_store.pool_entries(pool_name(arena_id), now.now) == []
    assert await sqlite_store.chat_tournament(group.id) is None  # the chat is free for the next one
    late = _lost_at_first_move(running.game_id, arena_id)
    await arenas.reconciler.match_finished(running.game_id, arena_id, running.game_id, late)
    loaded = await arenas.records.load(arena_id)
    assert loaded is not None and len(loaded[1].games) == 1
    results = [m for m in env.fake.messages(group.id) if "Arena result" in m.content]
    await env.service.competitions.sweep(now.now + 1000)
    assert len(results) == 1 == len([m for m in env.fake.messages(group.id) if "Arena result" in m.content])
    assert RunningGame  # the type the record keeps
    await env.close()
