"""A complete long nardy game played with typed moves in a group."""

from __future__ import annotations

from bot.storage import Store
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, only_game, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, GAME_OVER, RU, has_entry, opens_with, shown


async def test_long_game_with_typed_moves(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("long-1"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Алиса", "ru"), fake.user(2, "Боб", "ru")
    group = fake.group_chat(-200)
    await h.send_text(alice, group, "/new long")
    await h.press_button(bob, fake.last_message(group.id), shown(RU, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    users = {alice.id: alice, bob.id: bob}
    typed = 0
    while True:
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        assert match.game.phase is Phase.MOVE
        user = awaited_user(stored, match, users)
        notation = match.game.legal_moves()[0].notation
        version = stored.version
        await h.send_text(user, group, notation)
        after = await sqlite_store.get_game(game_id)
        assert after is not None and after.version == version + 1, (notation, fake.last_message(group.id).content)
        typed += 1
        assert typed < 1000
    final = board_message(fake, group.id)
    assert has_entry(final.content, RU, *GAME_OVER), final.content
    assert typed > 10
    await env.close()


async def test_typed_move_errors(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("long-2"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-201)
    await h.send_text(alice, group, "/new long")
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    stored, match = await state(env, game_id)
    user = awaited_user(stored, match, {1: alice, 2: bob})
    await h.send_text(user, group, "24/3 13/1")
    reply = fake.last_message(group.id)
    assert opens_with(reply.content, EN, "move.error"), reply.content
    assert has_entry(reply.content, EN, "move.options")
    await h.send_text(user, group, "13/7 " * 200)
    assert fake.last_message(group.id).content == shown(EN, "move.too_long")
    await h.send_text(user, group, "hello everyone, nice weather")  # chat, not a move: ignored
    assert fake.last_message(group.id).content == shown(EN, "move.too_long")
    after = await sqlite_store.get_game(game_id)
    assert after is not None and (after.version, after.data) == (stored.version, stored.data)
    await env.close()
