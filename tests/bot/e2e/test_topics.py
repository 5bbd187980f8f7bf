"""Forum topics: a game started in a topic of a supergroup keeps every message there (boards, the resignation
menu, reminders), a game started outside topics sends none into one, and a group may give its tournaments a topic
of their own (``/settings`` in that topic)."""

from __future__ import annotations

import time

from bot.storage import Store
from bot.texts import tr
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message
from tests.bot.e2e.texts import EN, has_entry, resign_button, shown
from tests.bot.e2e.tournament_drive import record_of, running, tournament_env

TOPIC = 77


async def test_a_game_started_in_a_topic_stays_in_it(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    users = {1: alice, 2: bob}
    group = fake.group_chat(-930)
    await h.send_text(alice, group, "/new short", thread_id=TOPIC)
    card = fake.last_message(-930)
    assert card.thread_id == TOPIC  # the challenge card answers in the topic
    await h.press_button(bob, card, shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, -930)
    for _ in range(3):
        stored, match = await state(env, game_id)
        await press_first(env, awaited_user(stored, match, users), -930)
    stored, match = await state(env, game_id)
    await h.send_text(awaited_user(stored, match, users), group, "/board", thread_id=TOPIC)  # re-posted: still there
    now = time.time() + env.service.config.turn_reminder_after + 60
    await env.service.sweep(now)  # the turn reminder
    stored, match = await state(env, game_id)
    await h.send_text(awaited_user(stored, match, users), group, "/resign", thread_id=TOPIC)
    sent = [m for m in fake.messages(-930) if m.from_bot]
    assert len(sent) >= 4 and {m.thread_id for m in sent} == {TOPIC}, [(m.content[:30], m.thread_id) for m in sent]
    assert any(has_entry(m.content, EN, "reminder") for m in sent)  # the reminder is among them
    assert board_message(fake, -930).thread_id == TOPIC
    await env.close()


async def test_a_game_outside_topics_sends_into_none(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-931)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(-931), shown(EN, "btn.join"))
    assert {m.thread_id for m in fake.messages(-931) if m.from_bot} == {None}
    await env.close()


async def test_a_group_gives_its_tournaments_a_topic_of_their_own(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, None))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    users = {1: alice, 2: bob}
    group = fake.group_chat(-932, admins=[1])
    await h.send_text(alice, group, "/settings", thread_id=55)
    settings = fake.last_message(-932)
    where_created = shown(EN, "settings.tour_topic", value=tr(EN, "settings.tour_topic.where_created"))
    assert settings.thread_id == 55 and where_created in settings.content.splitlines()
    await h.press_button(alice, settings, shown(EN, "settings.tour_topic.set_here"))
    assert (await sqlite_store.get_chat_settings(-932))["tour_topic"] == 55
    here = shown(EN, "settings.tour_topic", value=tr(EN, "settings.tour_topic.here"))
    assert here in fake.chats[-932][settings.message_id].content.splitlines()

    await h.send_text(alice, group, "/tournament")  # typed in the general thread
    in_topic = shown(EN, "tour.in_topic")
    assert fake.last_message(-932).content == in_topic
    card = next(m for m in fake.messages(-932) if shown(EN, "tour.setup.title") in m.content)
    assert card.thread_id == 55
    await h.press_button(alice, card, shown(EN, "tour.opt.venue", value=""))  # played in the group
    await h.press_button(alice, fake.chats[-932][card.message_id], shown(EN, "tour.btn.open"))
    tournament_id, record = await running(env, group)
    assert record.thread == 55 and record.settings.venue == "group"
    for user in (alice, bob):
        await h.press_button(user, fake.chats[-932][card.message_id], shown(EN, "btn.join"))
    await h.press_button(alice, fake.chats[-932][card.message_id], shown(EN, "btn.start"))
    record = await record_of(env, tournament_id)
    (game_id,) = record.games.values()
    stored = await sqlite_store.get_game(game_id)
    assert stored is not None and stored.data["chats"][0]["thread"] == 55
    stored, match = await state(env, game_id)
    loser = awaited_user(stored, match, users)
    await h.send_text(loser, group, "/resign", thread_id=55)
    await h.press_button(loser, fake.last_message(-932), resign_button(EN, "single"))
    stored, _ = await state(env, game_id)
    board = fake.chats[-932][stored.boards[-932].message_id or 0]  # the game's board, not the standings
    assert board.thread_id == 55
    await h.press_button(users[3 - loser.id], board, shown(EN, "btn.accept"))
    record = await record_of(env, tournament_id)
    assert record.status == "finished"
    later = [m for m in fake.messages(-932) if m.message_id > card.message_id and m.from_bot]
    tournament_messages = [m for m in later if m.content != in_topic]
    assert any(
        shown(EN, "tour.round", n=1) in m.content for m in tournament_messages
    )  # the pairing, the board, results, standings
    assert any(m.photo is not None for m in tournament_messages)
    assert {m.thread_id for m in tournament_messages} == {55}, [(m.content[:40], m.thread_id) for m in later]
    await env.close()
