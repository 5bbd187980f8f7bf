"""Caps on running games: a person already in as many games as allowed, or a chat with as many running games as
allowed, cannot start another (by a challenge, by joining one, or against the computer); nothing is created, and
the others may still play.

The tests drive the real Dispatcher over the fake Bot API and assert what the users see and what the store holds.
"""

from __future__ import annotations

from bot.storage import Store
from tests.bot.e2e.drive import state
from tests.bot.e2e.group_play import board_of, start_game, users
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.texts import EN, resign_button, shown


async def test_user_cap_refuses_a_third_game(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("cap-user"), max_games_per_user=2)
    fake, h = env.fake, env.h
    alice, bob, carol, dave = users(fake, "Alice", "Bob", "Carol", "Dave")
    group = fake.group_chat(-820)
    assert await start_game(env, group, alice, bob) and await start_game(env, group, alice, carol)
    refusal = shown(EN, "limit.user", name="Alice", limit=2)
    games = await sqlite_store.chat_games(group.id)
    # Alice challenges, or joins Dave's challenge, or plays the computer: refused, nothing created
    assert await start_game(env, group, alice, dave) is None
    assert fake.last_message(group.id).content == refusal
    # the refused challenge's card is closed without claiming a game started
    cards = [m.content for m in fake.messages(group.id)]
    assert shown(EN, "challenge.started", a="Alice", b="Dave") not in cards
    assert shown(EN, "toast.challenge_gone") in cards
    assert await start_game(env, group, dave, alice) is None
    assert fake.last_message(group.id).content == refusal
    await h.send_text(alice, group, "/new bot")
    assert fake.last_message(group.id).content == refusal
    assert await sqlite_store.chat_games(group.id) == games
    assert len(await sqlite_store.user_games(alice.id)) == 2
    assert await sqlite_store.user_games(dave.id) == []
    # the others may still play
    assert await start_game(env, group, dave, bob)
    await env.close()


async def test_chat_cap_refuses_a_third_game(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("cap-chat"), max_games_per_chat=2)
    fake, h = env.fake, env.h
    alice, bob, carol, dave, eve, frank = users(fake, "Alice", "Bob", "Carol", "Dave", "Eve", "Frank")
    group = fake.group_chat(-830)
    first = await start_game(env, group, alice, bob)
    assert first and await start_game(env, group, carol, dave)
    refusal = shown(EN, "limit.chat", limit=2)
    games = await sqlite_store.chat_games(group.id)
    assert await start_game(env, group, eve, frank) is None
    assert fake.last_message(group.id).content == refusal
    await h.send_text(eve, group, "/new bot")  # a game against the computer in the group counts as well
    assert fake.last_message(group.id).content == refusal
    assert await sqlite_store.chat_games(group.id) == games
    assert await sqlite_store.user_games(eve.id) == [] and await sqlite_store.user_games(frank.id) == []
    # another chat is not affected, and a finished game frees its place
    assert await start_game(env, fake.group_chat(-831), eve, frank)
    await h.send_text(alice, group, "/resign")
    await h.press_button(alice, fake.last_message(group.id), resign_button(EN, "single"))
    stored, _ = await state(env, first)
    await h.press_button(bob, board_of(fake, stored, group.id), shown(EN, "btn.accept"))
    stored, _ = await state(env, first)
    assert stored.finished
    assert await start_game(env, group, eve, frank)
    await env.close()
