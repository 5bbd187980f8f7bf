"""/board re-posts a game's board at the bottom of the chat: the old board loses its buttons, a press kept from it is
refused, and later actions edit the one live board in place.

The test drives the real Dispatcher over the fake Bot API and asserts what the users see (messages, buttons,
toasts) and what the store holds.
"""

from __future__ import annotations

from bot.storage import Store
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import live_boards, photos, snapshot, start_game, users
from tests.bot.e2e.helpers import Env, board_message, game_buttons, seeded
from tests.bot.e2e.texts import EN, shown


async def test_board_repost_leaves_one_live_board(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("repost-8"))
    fake, h = env.fake, env.h
    alice, bob = users(fake, "Alice", "Bob")
    people = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-810)
    game_id = await start_game(env, group, alice, bob)
    assert game_id
    stored, match = await state(env, game_id)
    old = board_message(fake, group.id)
    old_data = game_buttons(old)[0][1]
    await h.send_text(awaited_user(stored, match, people), group, "/board")
    new = board_message(fake, group.id)
    assert new.message_id > old.message_id and fake.last_message(group.id) is new  # at the bottom
    assert old.buttons() == [] and new.button_texts() == old.history[-1]["buttons"]  # the same buttons
    assert new.content == old.content
    assert live_boards(fake, group.id, game_id) == [new]
    after = await sqlite_store.get_game(game_id)
    assert after is not None and after.version == stored.version  # re-posting is no action
    assert after.boards[group.id].message_id == new.message_id

    # a press kept from the old board is refused with a toast and changes nothing
    await h.press(awaited_user(stored, match, people), group.id, old.message_id, old_data)
    assert fake.toasts_for(awaited_user(stored, match, people).id)[-1] == shown(EN, "toast.old_board")
    assert await snapshot(sqlite_store, game_id) == (after.version, after.data)
    assert old.buttons() == [] and new.buttons()

    # twelve actions later the one live board was edited in place: no new boards
    count = len(photos(fake, group.id))
    for _ in range(12):
        stored, match = await state(env, game_id)
        await press_first(env, awaited_user(stored, match, people), group.id)
    stored, _ = await state(env, game_id)
    assert stored.version >= after.version + 12 and not stored.finished
    assert len(photos(fake, group.id)) == count
    assert live_boards(fake, group.id, game_id) == [new] and new.edits >= 12
    assert stored.boards[group.id].message_id == new.message_id
    assert all(f":{stored.version}:" in data for _, data in game_buttons(new))
    await env.close()
