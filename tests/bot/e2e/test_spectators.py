"""Spectators: anyone in the group sends /watch, presses Watch on a running game and gets that board in private,
kept up to date (without buttons) until the game ends; players and repeated presses get a clear toast."""

from __future__ import annotations

from bot.storage import Store
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message
from tests.bot.e2e.texts import EN, shown


async def test_a_spectator_follows_the_board_in_private(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    alice, bob, carol = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en"), fake.user(3, "Carol", "en")
    users = {1: alice, 2: bob}
    group = fake.group_chat(-940)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(-940), shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, -940)
    await h.send_text(carol, group, "/watch")
    chooser = fake.last_message(-940)
    assert chooser.button_texts() == [f"{shown(EN, 'btn.watch')}: Alice — Bob · {shown(EN, 'variant.short')}"]
    await h.press_button(carol, chooser, shown(EN, "btn.watch"))
    assert fake.toasts_for(3)[-1] == shown(EN, "toast.watching")
    private = board_message(fake, 3)
    assert private.buttons() == []  # a spectator's board has no buttons
    stored, _ = await state(env, game_id)
    assert stored.boards[3].shown_version == stored.version
    await h.press_button(carol, chooser, shown(EN, "btn.watch"))
    assert fake.toasts_for(3)[-1] == shown(EN, "toast.watch_already")
    await h.press_button(alice, chooser, shown(EN, "btn.watch"))
    assert fake.toasts_for(1)[-1] == shown(EN, "toast.watch_player")
    for _ in range(3):  # the game goes on: Carol's board follows, edited in place
        stored, match = await state(env, game_id)
        await press_first(env, awaited_user(stored, match, users), -940)
    stored, _ = await state(env, game_id)
    assert board_message(fake, 3) is private and private.edits >= 1
    assert stored.boards[3].shown_version == stored.version
    assert private.caption == board_message(fake, -940).caption
    assert [m for m in fake.messages(3) if m.from_bot] == [private]  # one message, edited
    other = fake.group_chat(-941)
    await h.send_text(carol, other, "/watch")
    assert fake.last_message(-941).content == shown(EN, "watch.none")
    await env.close()
