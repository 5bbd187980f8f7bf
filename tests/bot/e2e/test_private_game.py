"""A game between two private chats via the deep link: each player has their own board, edited in place."""

from __future__ import annotations

import re

from bot.storage import Store
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, opens_with, shown


async def test_private_game_via_deep_link(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("private-1"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(11, "Alice", "en"), fake.user(12, "Bob", "en")
    await h.send_text(alice, fake.private_chat(alice), "/new short")
    link = fake.last_message(alice.id).content
    found = re.search(r"https://t\.me/\w+\?start=(c_[A-Za-z0-9_-]{10})", link)
    assert found, link
    await h.send_text(alice, fake.private_chat(alice), f"/start {found.group(1)}")
    assert fake.last_message(alice.id).content == shown(EN, "toast.own_challenge")
    await h.send_text(bob, fake.private_chat(bob), f"/start {found.group(1)}")
    boards = {u.id: board_message(fake, u.id) for u in (alice, bob)}
    assert all(b.photo is not None for b in boards.values())
    (game_id,) = await sqlite_store.user_games(alice.id)
    assert await sqlite_store.user_games(bob.id) == [game_id]
    users = {alice.id: alice, bob.id: bob}
    for _ in range(12):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        user = awaited_user(stored, match, users)
        other = bob if user is alice else alice
        assert board_message(fake, other.id).buttons() == []  # only the awaited player has buttons
        before = {u: board_message(fake, u).edits for u in users}
        await press_first(env, user, user.id)
        edited = {u: board_message(fake, u).edits for u in users}
        assert all(edited[u] > before[u] for u in users)
    # in a private chat any text of a player is a move attempt: gibberish is refused with the legal options
    stored, match = await state(env, game_id)
    if not stored.finished:
        user = awaited_user(stored, match, users)
        await h.send_text(user, fake.private_chat(user), "hello there")
        reply = fake.last_message(user.id).content
        assert opens_with(reply, EN, "move.error") or reply == shown(EN, "toast.not_turn"), reply
        after, _ = await state(env, game_id)
        assert (after.version, after.data) == (stored.version, stored.data)
    # still one board per chat, edited in place
    for u in users:
        assert len([m for m in fake.messages(u) if m.photo is not None or m.photo_file_id]) == 1
    # a second join of the same link is refused
    carol = fake.user(13, "Carol", "en")
    await h.send_text(carol, fake.private_chat(carol), f"/start {found.group(1)}")
    assert fake.last_message(carol.id).content == shown(EN, "toast.challenge_gone")
    await env.close()
