"""Several games of one person in one group chat: a typed move that could belong to either game is refused, and
/board and /resign ask which game is meant, then act on that game alone.

The test drives the real Dispatcher over the fake Bot API and asserts what the users see (messages, buttons,
toasts) and what the store holds.
"""

from __future__ import annotations

from bot.keyboards.callbacks import GameCb
from bot.services.actions import CHOOSE_BOARD, CHOOSE_RESIGN
from bot.storage import Store
from bot.texts import tr
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, state
from tests.bot.e2e.group_play import board_of, live_boards, played_line, snapshot, start_game, users
from tests.bot.e2e.helpers import Env, board_message, game_buttons, seeded
from tests.bot.e2e.texts import EN, resign_button, shown


async def test_typed_move_board_and_resign_with_two_games_in_one_chat(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("i8-d"))  # the challenger opens (and has the same roll) in both games
    fake, h = env.fake, env.h
    alice, bob, carol = users(fake, "Alice", "Bob", "Carol")
    group = fake.group_chat(-800)
    with_bob = await start_game(env, group, alice, bob)
    with_carol = await start_game(env, group, alice, carol)
    assert with_bob and with_carol
    people = {u.id: u for u in (alice, bob, carol)}
    for game_id in (with_bob, with_carol):
        stored, match = await state(env, game_id)
        assert awaited_user(stored, match, people) is alice and match.game.phase is Phase.MOVE
    _, match = await state(env, with_carol)
    move = match.game.legal_moves()[0].notation  # legal in both games (the same position and dice)

    # Alice is to move in both games: a typed move is ambiguous and changes neither
    before = {g: await snapshot(sqlite_store, g) for g in (with_bob, with_carol)}
    await h.send_text(alice, group, move)
    assert fake.last_message(group.id).content == shown(EN, "move.ambiguous")
    assert {g: await snapshot(sqlite_store, g) for g in before} == before

    # Alice plays her turn against Bob with that board's buttons: now only the game with Carol awaits her
    stored_bob, _ = await state(env, with_bob)
    await h.press(
        alice,
        group.id,
        board_of(fake, stored_bob, group.id).message_id,
        game_buttons(board_of(fake, stored_bob, group.id))[0][1],
    )
    stored_bob, match_bob = await state(env, with_bob)
    assert stored_bob.version == before[with_bob][0] + 1 and awaited_user(stored_bob, match_bob, people) is bob
    await h.send_text(alice, group, move)
    stored_carol, match_carol = await state(env, with_carol)
    assert stored_carol.version == before[with_carol][0] + 1  # the typed move went to the game awaiting Alice
    assert awaited_user(stored_carol, match_carol, people) is carol
    assert {"t": "played", "player": 0, "move": move} in stored_carol.data["events"]
    assert played_line("Alice", move) in board_of(fake, stored_carol, group.id).content
    assert await snapshot(sqlite_store, with_bob) == (stored_bob.version, stored_bob.data)  # untouched

    # /board with two games asks which one; the chosen game's board is posted anew at the bottom
    board_bob, board_carol = board_of(fake, stored_bob, group.id), board_of(fake, stored_carol, group.id)
    await h.send_text(alice, group, "/board")
    chooser = fake.last_message(group.id)
    assert chooser.content == shown(EN, "choose.game")
    assert chooser.button_texts() == [f"{name} · {shown(EN, 'variant.short')}" for name in ("Bob", "Carol")]
    assert [GameCb.unpack(data).action for _, data in game_buttons(chooser)] == [CHOOSE_BOARD, CHOOSE_BOARD]
    await h.press_button(bob, chooser, "Carol")  # not Bob's game
    assert fake.toasts_for(bob.id)[-1] == shown(EN, "toast.not_player")
    await h.press_button(alice, chooser, "Carol")
    assert fake.toasts_for(alice.id)[-1] is None
    reposted = board_message(fake, group.id)
    stored_carol, _ = await state(env, with_carol)
    assert reposted.message_id == stored_carol.boards[group.id].message_id != board_carol.message_id
    assert board_carol.buttons() == [] and reposted.buttons()
    assert live_boards(fake, group.id, with_carol) == [reposted]
    assert live_boards(fake, group.id, with_bob) == [board_bob]  # the other game's board is left alone
    assert await snapshot(sqlite_store, with_carol) == (stored_carol.version, stored_carol.data)

    # /resign with two games asks which one too; only the chosen game gets the resignation offer
    await h.send_text(alice, group, "/resign")
    chooser = fake.last_message(group.id)
    assert chooser.content == shown(EN, "choose.game")
    assert [GameCb.unpack(data).action for _, data in game_buttons(chooser)] == [CHOOSE_RESIGN, CHOOSE_RESIGN]
    assert await snapshot(sqlite_store, with_bob) == (stored_bob.version, stored_bob.data)
    await h.press_button(alice, chooser, "Bob")
    menu = fake.last_message(group.id)
    assert menu.content == shown(EN, "resign.choose")
    assert all(GameCb.unpack(data).game_id == with_bob for _, data in game_buttons(menu))
    await h.press_button(alice, menu, resign_button(EN, "single"))
    stored_bob, match_bob = await state(env, with_bob)
    assert match_bob.game.phase is Phase.RESIGN and awaited_user(stored_bob, match_bob, people) is bob
    offer = shown(EN, "turn.resign", name="Bob", level=tr(EN, "kind.single"))
    assert offer in board_of(fake, stored_bob, group.id).content.splitlines()
    assert await snapshot(sqlite_store, with_carol) == (stored_carol.version, stored_carol.data)
    await env.close()
