"""The sweeper of overdue games isolates a corrupt record: the other games get their reminders and later their
timeouts, the corrupt one is quarantined (logged, left as it is, out of the chat's games and of later sweeps).

The tests drive the real Dispatcher over the fake Bot API and assert what the users see and what the store holds.
"""

from __future__ import annotations

import logging
import time

import pytest

from bot.storage import Store
from tests.bot.e2e.drive import awaited_user, state
from tests.bot.e2e.group_play import board_of, start_game, users
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.texts import EN, shown


async def test_sweeper_quarantines_a_corrupt_record_sqlite(
    sqlite_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    await _sweep_with_a_corrupt_record(sqlite_store, caplog)


async def test_sweeper_quarantines_a_corrupt_record_redis(redis_store: Store, caplog: pytest.LogCaptureFixture) -> None:
    await _sweep_with_a_corrupt_record(redis_store, caplog)


async def _sweep_with_a_corrupt_record(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    """Five overdue games, the third one's record corrupt: a sweep handles the four others and quarantines it."""
    env = Env(store, seeded("sweep-8"))
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    people = {alice.id: alice, bob.id: bob}
    chats = [fake.group_chat(-870 - i) for i in range(5)]
    games: list[str] = []
    for chat in chats:
        game_id = await start_game(env, chat, alice, bob)
        assert game_id
        games.append(game_id)
    bad = games[2]
    stored = await store.get_game(bad)
    assert stored is not None
    garbage = {**stored.data, "match": {"variant": "short", "game": {"history": ["%%% not a record %%%"]}}}
    assert await store.update_game(bad, stored.version, garbage, deadline=stored.deadline) == stored.version + 1
    good = [g for g in games if g != bad]
    awaited = {}
    for game_id in good:
        running, match = await state(env, game_id)
        awaited[game_id] = awaited_user(running, match, people)
        assert running.deadline is not None and not running.data["reminded"]
    now = time.time() + env.service.config.turn_reminder_after + 60  # every game is overdue
    assert sorted(await store.due_games(now)) == sorted(games)

    with caplog.at_level(logging.ERROR, logger="bot.services.timers"):
        handled = await env.service.sweep(now)
    await env.service.settle()
    assert handled == 4
    for game_id, chat in zip(games, chats, strict=True):
        record = await store.get_game(game_id)
        assert record is not None
        if game_id == bad:
            assert record.quarantined and record.data == garbage
            assert fake.last_message(chat.id).content == board_of(fake, record, chat.id).content  # no reminder
            continue
        assert not record.quarantined and record.data["reminded"] is True
        reminder = shown(EN, "reminder", name=awaited[game_id].first_name)
        assert fake.last_message(chat.id).content == reminder
    assert await store.quarantined_games() == [bad]
    assert bad not in await store.due_games(now + 10 * 24 * 3600)
    assert await store.chat_games(chats[2].id) == []
    logged = [r for r in caplog.records if r.name == "bot.services.timers" and bad in r.getMessage()]
    assert logged and "quarantined" in logged[0].getMessage() and logged[0].exc_info is not None
    # the next sweep (turn timeout) finishes the four games and does not touch the quarantined one again
    later = now + env.service.config.turn_timeout
    assert await env.service.sweep(later) == 4
    for game_id in good:
        record = await store.get_game(game_id)
        assert record is not None and record.finished
    record = await store.get_game(bad)
    assert record is not None and record.quarantined and record.data == garbage
    await env.close()
