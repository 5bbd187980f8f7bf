"""Turns are announced on the board the same way whether played with the buttons or typed, and with /settings
confirm on only once the player presses Confirm.

The test drives the real Dispatcher over the fake Bot API and asserts what the users see and what the store holds.
"""

from __future__ import annotations

from bot.storage import Store
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import board_of, played_line, start_game, turn_lines, users
from tests.bot.e2e.helpers import Env, game_buttons, seeded
from tests.bot.e2e.texts import EN, TURN_KEYS, entry_lines, has_entry, shown


async def test_typed_and_confirmed_turns_are_announced(sqlite_store: Store) -> None:
    await sqlite_store.set_chat_settings(-851, {"confirm": True})
    env = Env(sqlite_store, seeded("i8-d"))  # Alice opens in every game
    fake, h = env.fake, env.h
    alice, bob, carol, dave = users(fake, "Alice", "Bob", "Carol", "Dave")
    people = {u.id: u for u in (alice, bob, carol, dave)}

    # a button turn (the reference), then a typed turn, in a group without confirmation
    plain = fake.group_chat(-850)
    game_id = await start_game(env, plain, alice, bob)
    assert game_id
    stored, _ = await state(env, game_id)
    board = board_of(fake, stored, plain.id)
    label, data = game_buttons(board)[0]  # a whole-turn button: its label is the turn's notation
    await h.press(alice, plain.id, board.message_id, data)
    stored, match = await state(env, game_id)
    assert {"t": "played", "player": 0, "move": label} in stored.data["events"]
    assert played_line("Alice", label) in board.content
    while awaited_user(stored, match, people) is not alice or match.game.phase is not Phase.MOVE:
        await press_first(env, awaited_user(stored, match, people), plain.id)
        stored, match = await state(env, game_id)
    move = match.game.legal_moves()[-1].notation
    await h.send_text(alice, plain, move)
    stored, _ = await state(env, game_id)
    assert {"t": "played", "player": 0, "move": move} in stored.data["events"]
    assert played_line("Alice", move) in board.content

    # with /settings confirm on, the record confirms turns: nothing is announced until Confirm is pressed
    confirming = fake.group_chat(-851)
    game_id = await start_game(env, confirming, carol, dave)
    assert game_id
    stored, _ = await state(env, game_id)
    assert stored.data["confirm"] is True
    board = board_of(fake, stored, confirming.id)
    label, data = game_buttons(board)[0]
    await h.press(carol, confirming.id, board.message_id, data)
    stored, match = await state(env, game_id)
    assert match.game.phase is Phase.MOVE and match.game.turn == 0 and stored.data["pending_steps"]
    assert not has_entry(board.content, EN, "played") and shown(EN, "btn.confirm") in board.button_texts()
    await h.press_button(carol, board, shown(EN, "btn.confirm"))
    stored, match = await state(env, game_id)
    assert match.game.turn == 1 or match.game.phase is not Phase.MOVE
    assert {"t": "played", "player": 0, "move": label} in stored.data["events"]
    assert played_line("Carol", label) in board.content
    assert turn_lines(board.content) == entry_lines(board.content, EN, *TURN_KEYS, name="Dave")
    await env.close()
