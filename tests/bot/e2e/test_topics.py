"""Forum topics: a game started in a topic of a supergroup keeps every message there (boards, the resignation
menu, reminders), and a game started outside topics sends none into one."""

from __future__ import annotations

import time

from bot.storage.base import GameStore
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message

TOPIC = 77


async def test_a_game_started_in_a_topic_stays_in_it(sqlite_store: GameStore) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    users = {1: alice, 2: bob}
    group = fake.group_chat(-930)
    await h.send_text(alice, group, "/new short", thread_id=TOPIC)
    card = fake.last_message(-930)
    assert card.thread_id == TOPIC  # the challenge card answers in the topic
    await h.press_button(bob, card, "Join")
    game_id = await only_game(sqlite_store, -930)
    for _ in range(3):
        stored, match = await state(env, game_id)
        await press_first(env, awaited_user(stored, match, users), -930)
    stored, match = await state(env, game_id)
    await h.send_text(awaited_user(stored, match, users), group, "/board", thread_id=TOPIC)  # re-posted: still there
    now = time.time() + env.service.turn_reminder_after + 60
    await env.service.sweep(now)  # the turn reminder
    stored, match = await state(env, game_id)
    await h.send_text(awaited_user(stored, match, users), group, "/resign", thread_id=TOPIC)
    sent = [m for m in fake.messages(-930) if m.from_bot]
    assert len(sent) >= 4 and {m.thread_id for m in sent} == {TOPIC}, [(m.content[:30], m.thread_id) for m in sent]
    assert any("your move" in m.content for m in sent)  # the reminder is among them
    assert board_message(fake, -930).thread_id == TOPIC
    await env.close()


async def test_a_game_outside_topics_sends_into_none(sqlite_store: GameStore) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-931)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(-931), "Join")
    assert {m.thread_id for m in fake.messages(-931) if m.from_bot} == {None}
    await env.close()
