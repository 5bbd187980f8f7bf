"""Two workers (two Dispatchers on one store) reconciling the same arena at once never start a player in two games
(issue 47): pairs are claimed exactly once in the store's pool and a game is added to the arena's record only by a
compare-and-set that finds both players free; a stale pool entry of a player who is playing is refused."""

from __future__ import annotations

import asyncio

from aiogram.types import User

from bot.model.arena import ArenaRecord
from bot.services.arena.pairing import pool_name
from bot.storage import Store
from bot.storage.pools import PoolEntry
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.test_clock import Now
from tests.bot.fake_telegram import FakeTelegram

GROUP = -4710


async def _record(env: Env, arena_id: str) -> ArenaRecord:
    loaded = await env.service.arenas.records.load(arena_id)
    assert loaded is not None
    return loaded[1]


async def _check_nobody_twice(store: Store, env: Env, arena_id: str, people: list[User]) -> ArenaRecord:
    """Assert that no player is in two running games of the record, nor in two unfinished games of the store."""
    record = await _record(env, arena_id)
    playing = [u for game in record.running for u in game.players]
    assert len(playing) == len(set(playing)), record.running
    for user in people:
        unfinished = []
        for game_id in await store.user_games(user.id):
            stored = await store.get_game(game_id)
            if stored is not None and not stored.finished:
                unfinished.append(game_id)
        assert len(unfinished) <= 1, (user.first_name, unfinished)
    return record


async def test_two_workers_reconciling_one_arena_never_start_a_player_twice(redis_store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    first = Env(redis_store, seeded("arena-w"), fake=fake, clock=now)
    second = Env(redis_store, seeded("arena-w"), fake=fake, clock=now)
    workers = (first, second)
    for env in workers:
        env.service.arenas.reconciler.wave_delay = 0.0
    people = [fake.user(i, f"P{i}", "en") for i in range(1, 8)]
    group = fake.group_chat(GROUP, admins=[1])
    for user in people:
        await first.h.send_text(user, fake.private_chat(user), "/start")
    await first.h.send_text(people[0], group, "/arena short 30")
    arena_id = await redis_store.chat_tournament(group.id)
    assert arena_id is not None
    card = fake.last_message(group.id)
    for index, user in enumerate(people):  # the presses land on either worker
        await workers[index % 2].h.press_button(user, fake.chats[group.id][card.message_id], "Join")

    for round_number in range(6):
        record = await _record(first, arena_id)
        # both workers at once: whole reconciles, and pairing waves from the same (possibly stale) record
        await asyncio.gather(
            first.service.competitions.reconcile(arena_id),
            second.service.competitions.reconcile(arena_id),
            first.service.arenas.pairing.wave(arena_id, record),
            second.service.arenas.pairing.wave(arena_id, record),
        )
        await asyncio.gather(first.service.settle(), second.service.settle())
        record = await _check_nobody_twice(redis_store, first, arena_id, people)
        assert len(record.running) == 3  # seven players: three games, one waits
        # a stale entry of a player who is playing, put back into the pool by a lagging worker, is refused
        playing = record.running[0].players[0]
        await redis_store.pool_put(pool_name(arena_id), PoolEntry(str(playing), 0.0, now.now, {"rating": 1500.0}))
        now.now += 30.0  # everyone waiting alone for longer than the patience takes anyone
        await asyncio.gather(
            first.service.arenas.pairing.wave(arena_id, record),
            second.service.arenas.pairing.wave(arena_id, record),
        )
        await asyncio.gather(first.service.settle(), second.service.settle())
        record = await _check_nobody_twice(redis_store, first, arena_id, people)
        # one game ends (its first player forfeits), and both workers hear of it at once
        game = record.running[round_number % len(record.running)]
        await first.service.actions.end_match(game.game_id, 0)
        await asyncio.gather(first.service.settle(), second.service.settle())
        await asyncio.gather(
            first.service.competitions.sweep(now.now + 100), second.service.competitions.sweep(now.now + 100)
        )
        await asyncio.gather(first.service.settle(), second.service.settle())
        record = await _check_nobody_twice(redis_store, first, arena_id, people)
        assert game.game_id in {g.game_id for g in record.games}
    record = await _record(first, arena_id)
    assert len(record.games) == 6 and len(record.running) == 3
    for env in workers:
        await env.close()
