"""The board of a finished game, however it ended (played out, resigned, timed out), says the game is over, names
nobody to move, and offers Rematch, New game and the record.

The test drives the real Dispatcher over the fake Bot API and asserts what the users see and what the store holds.
"""

from __future__ import annotations

import time

from bot.keyboards.callbacks import GameCb
from bot.storage import Store
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import board_of, live_boards, start_game, turn_lines, users
from tests.bot.e2e.helpers import Env, game_buttons, seeded
from tests.bot.e2e.texts import EN, GAME_OVER, has_entry, resign_button, shown
from tests.bot.fake_telegram import ShownMessage


def _assert_final_board(board: ShownMessage, game_id: str) -> None:
    assert has_entry(board.content, EN, *GAME_OVER), board.content
    assert turn_lines(board.content) == [], board.content  # nobody is to move, roll or think
    assert board.button_texts() == [shown(EN, "btn.rematch"), shown(EN, "btn.new"), shown(EN, "btn.record")]
    assert GameCb.unpack(game_buttons(board)[0][1]).game_id == game_id


async def test_final_board_names_nobody_to_move(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("f2"))
    fake, h = env.fake, env.h
    alice, bob = users(fake, "Alice", "Bob")
    people = {alice.id: alice, bob.id: bob}
    # played to the end with the buttons
    group = fake.group_chat(-880)
    game_id = await start_game(env, group, alice, bob)
    assert game_id
    for _ in range(200):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        await press_first(env, awaited_user(stored, match, people), group.id)
    stored, match = await state(env, game_id)
    assert stored.finished and match.game.phase is Phase.OVER
    assert any(e.get("t") == "over" for e in stored.data["events"])
    board = board_of(fake, stored, group.id)
    _assert_final_board(board, game_id)
    assert live_boards(fake, group.id, game_id) == [board]
    # ended by a resignation (offered in the middle of a turn)
    group = fake.group_chat(-881)
    game_id = await start_game(env, group, alice, bob)
    assert game_id
    stored, match = await state(env, game_id)
    resigning = awaited_user(stored, match, people)
    other = bob if resigning is alice else alice
    await h.send_text(resigning, group, "/resign")
    await h.press_button(resigning, fake.last_message(group.id), resign_button(EN, "single"))
    stored, _ = await state(env, game_id)
    await h.press_button(other, board_of(fake, stored, group.id), shown(EN, "btn.accept"))
    stored, _ = await state(env, game_id)
    assert stored.finished
    _assert_final_board(board_of(fake, stored, group.id), game_id)
    # ended by the timeout
    group = fake.group_chat(-882)
    game_id = await start_game(env, group, alice, bob)
    assert game_id
    now = time.time() + env.service.config.turn_reminder_after + 60
    await env.service.sweep(now)
    await env.service.sweep(now + env.service.config.turn_timeout)
    stored, _ = await state(env, game_id)
    assert stored.finished
    board = board_of(fake, stored, group.id)
    _assert_final_board(board, game_id)
    assert has_entry(board.content, EN, "over.abandon"), board.content
    await env.close()
