"""Undo takes back only the player's own choices: a step the bot played because it was forced (at the start of a
turn, in the middle of a game, after a declined resignation) offers no Undo, and a forged Undo press is refused.

The tests drive the real Dispatcher over the fake Bot API and assert what the users see and what the store holds.
"""

from __future__ import annotations

from bot.keyboards.callbacks import GameCb
from bot.storage import Store
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import board_of, snapshot, start_game, users
from tests.bot.e2e.helpers import Env, game_buttons, seeded
from tests.bot.e2e.texts import EN, resign_button, shown
from tests.bot.fake_telegram import ShownMessage


def _undo_offered(board: ShownMessage) -> bool:
    return any(GameCb.unpack(data).action == "undo" for _, data in game_buttons(board))


async def test_no_undo_for_the_bots_own_first_step(sqlite_store: Store) -> None:
    # long nardy, seed s45: Alice opens with 3-3 and only one checker can leave the head: the bot plays 24/21
    await sqlite_store.set_chat_settings(-861, {"confirm": True, "variant": "long"})
    env = Env(sqlite_store, seeded("s45"))
    fake, h = env.fake, env.h
    alice, bob = users(fake, "Alice", "Bob")
    group = fake.group_chat(-861)
    game_id = await start_game(env, group, alice, bob, "long")
    assert game_id
    stored, match = await state(env, game_id)
    assert match.game.dice == (3, 3) and match.game.turn == 0
    assert stored.data["pending_steps"] == [[24, 21, 3, False]]
    board = board_of(fake, stored, group.id)
    assert shown(EN, "pending", steps="24→21") in board.content.splitlines()
    assert not _undo_offered(board)
    # a forged Undo is refused too: the bot's step stays
    undo = GameCb(game_id=game_id, version=stored.version, action="undo").pack()
    await h.press(alice, group.id, board.message_id, undo)
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "toast.bad")
    assert await snapshot(sqlite_store, game_id) == (stored.version, stored.data)
    # Alice's own choice can be taken back, down to the bot's step (and no further)
    await h.press(alice, group.id, board.message_id, game_buttons(board)[0][1])
    stored, _ = await state(env, game_id)
    assert len(stored.data["pending_steps"]) == 4 and _undo_offered(board)
    await h.press_button(alice, board, shown(EN, "btn.undo"))
    stored, _ = await state(env, game_id)
    assert stored.data["pending_steps"] == [[24, 21, 3, False]]
    assert not _undo_offered(board)
    await env.close()


async def test_no_undo_for_a_forced_step_in_the_middle_of_a_game(sqlite_store: Store) -> None:
    # seed f1: after 13 presses Bob has a checker on the bar that can only enter with the 2
    env = Env(sqlite_store, seeded("f1"))
    fake, h = env.fake, env.h
    alice, bob = users(fake, "Alice", "Bob")
    people = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-862)
    game_id = await start_game(env, group, alice, bob)
    assert game_id
    for _ in range(13):
        stored, match = await state(env, game_id)
        await press_first(env, awaited_user(stored, match, people), group.id)
    stored, match = await state(env, game_id)
    assert stored.data["pending_steps"] == [[25, 23, 2, False]] and match.game.phase is Phase.MOVE
    assert awaited_user(stored, match, people) is bob and stored.data["chosen"] == 0
    board = board_of(fake, stored, group.id)
    assert not _undo_offered(board)
    undo = GameCb(game_id=game_id, version=stored.version, action="undo").pack()
    await h.press(bob, group.id, board.message_id, undo)
    assert fake.toasts_for(bob.id)[-1] == shown(EN, "toast.bad")
    assert await snapshot(sqlite_store, game_id) == (stored.version, stored.data)
    await env.close()


async def test_a_declined_resignation_leaves_no_undo_for_the_bots_step(sqlite_store: Store) -> None:
    await sqlite_store.set_chat_settings(-863, {"confirm": True, "variant": "long"})
    env = Env(sqlite_store, seeded("s45"))
    fake, h = env.fake, env.h
    alice, bob = users(fake, "Alice", "Bob")
    group = fake.group_chat(-863)
    game_id = await start_game(env, group, alice, bob, "long")
    assert game_id
    stored, _ = await state(env, game_id)
    board = board_of(fake, stored, group.id)
    await h.press(alice, group.id, board.message_id, game_buttons(board)[0][1])  # Alice chooses a turn
    await h.send_text(alice, group, "/resign")  # … and offers to resign instead
    await h.press_button(alice, fake.last_message(group.id), resign_button(EN, "oin"))
    stored, match = await state(env, game_id)
    assert match.game.phase is Phase.RESIGN and stored.data["pending_steps"] == []
    await h.press_button(bob, board, shown(EN, "btn.decline"))
    stored, match = await state(env, game_id)
    assert match.game.phase is Phase.MOVE and match.game.turn == 0 and match.game.dice == (3, 3)
    assert stored.data["pending_steps"] == [[24, 21, 3, False]]
    assert not _undo_offered(board)
    await env.close()
