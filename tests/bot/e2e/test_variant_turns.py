"""Turns of more than one part through the real Dispatcher: Acey-deucey's named double (six buttons, then an extra
roll) and Gul bara's hand-over (the opponent plays the unplayed moves of an escalated double), as each player sees
them; a stranger's or the waiting player's press changes nothing."""

from __future__ import annotations

from aiogram.types import User

from bot.storage import Store
from nardy import Phase
from nardy.game_record import replay
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, shown

MAX_ACTIONS = 3000


async def _start(env: Env, variant: str, chat_id: int) -> tuple[str, User, User, dict[int, User]]:
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(chat_id)
    await h.send_text(alice, group, f"/new {variant}")
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    return await only_game(env.store, group.id), alice, bob, {alice.id: alice, bob.id: bob}


async def test_acey_deucey_names_a_double_with_six_buttons_then_rolls_again(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("acey-choose"))
    game_id, _alice, _bob, users = await _start(env, "acey_deucey", -710)
    fake, h = env.fake, env.h
    for _ in range(MAX_ACTIONS):
        stored, match = await state(env, game_id)
        assert not stored.finished, "the game ended without a 1-2"
        if match.game.phase is Phase.CHOOSE:
            break
        await press_first(env, awaited_user(stored, match, users), -710)
    chooser = awaited_user(stored, match, users)
    other = next(u for u in users.values() if u.id != chooser.id)
    board = board_message(fake, -710)
    assert board.button_texts() == [f"{d}-{d}" for d in range(1, 7)]
    assert shown(EN, "turn.choose", name=chooser.first_name) in board.content.splitlines()
    version = stored.version
    await h.press(other, -710, board.message_id, board.button("6-6").callback_data or "")
    assert fake.toasts_for(other.id)[-1] == shown(EN, "toast.not_turn")
    assert (await state(env, game_id))[0].version == version  # nothing changed
    await h.press_button(chooser, board, "6-6")
    stored, match = await state(env, game_id)
    assert stored.version == version + 1
    assert shown(EN, "chose", name=chooser.first_name, d=6) in board_message(fake, -710).content
    chooser_index = next(i for i, p in enumerate(stored.data["players"]) if p["id"] == chooser.id)
    for _ in range(20):  # the chooser plays the named double by buttons
        stored, match = await state(env, game_id)
        history = match.game.history
        at = max(i for i, r in enumerate(history) if r["t"] == "choose")
        if any(r["t"] in ("move", "pass") for r in history[at:]) or stored.finished:
            break
        assert awaited_user(stored, match, users).id == chooser.id
        await press_first(env, chooser, -710)
    states = replay(match.game.to_dict())
    assert history[at]["die"] == 6
    part = next(i for i in range(at + 1, len(history)) if history[i]["t"] in ("move", "pass"))
    after = states[part + 1]  # the game right after the named double
    if history[part]["t"] == "move" and len(history[part]["steps"]) == 4:
        assert all(step[2] == 6 for step in history[part]["steps"])
        if after.phase is not Phase.OVER:  # played in full: the same player rolls again
            assert (after.phase, after.roller, after.bonus) == (Phase.ROLL, chooser_index, "extra")
    else:  # not played in full: the bonus ends, the opponent rolls
        assert after.roller == 1 - chooser_index or after.phase is Phase.OVER
    await env.close()


async def test_gul_bara_hands_the_unplayed_moves_to_the_opponent(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("gulbara-handover"))
    game_id, _alice, _bob, users = await _start(env, "gulbara", -711)
    fake, h = env.fake, env.h
    for _ in range(MAX_ACTIONS):
        stored, match = await state(env, game_id)
        assert not stored.finished, "the game ended without a hand-over"
        if match.game.hand_over and match.game.phase is Phase.MOVE:
            break
        await press_first(env, awaited_user(stored, match, users), -711)
    game = match.game
    receiver = awaited_user(stored, match, users)
    giver = next(u for u in users.values() if u.id != receiver.id)
    assert stored.data["players"][game.roller]["id"] == receiver.id
    board = board_message(fake, -711)
    assert shown(EN, "pools.handover", name=receiver.first_name, other=giver.first_name) in board.content
    assert board.buttons(), board.content
    version = stored.version
    await h.press(giver, -711, board.message_id, board.buttons()[0][0].callback_data or "")
    assert fake.toasts_for(giver.id)[-1] == shown(EN, "toast.not_turn")
    assert (await state(env, game_id))[0].version == version
    # the receiver plays them to the end, then rolls for its own turn
    for _ in range(50):
        stored, match = await state(env, game_id)
        if not match.game.hand_over or stored.finished:
            break
        await press_first(env, receiver, -711)
    stored, match = await state(env, game_id)
    assert not match.game.hand_over
    if not stored.finished:
        rolls = [r for r in match.game.history if r["t"] == "roll"]
        assert rolls, "no roll after the hand-over"
    await env.close()


async def test_a_tavli_match_rotates_its_games_and_says_so_in_the_caption(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("tavli-rotation"))
    game_id, _alice, _bob, users = await _start(env, "tavli", -712)
    board = board_message(env.fake, -712)
    assert "Tavli, game 1: Portes; next: Plakoto" in board.content  # the engine's description of the match
    assert shown(EN, "score", length=7, a=0, b=0) in board.content.splitlines()
    assert shown(EN, "crawford") not in board.content
    for _ in range(MAX_ACTIONS):  # play the first game to its end
        stored, match = await state(env, game_id)
        if match.game_index == 1:
            break
        await press_first(env, awaited_user(stored, match, users), -712)
    stored, match = await state(env, game_id)
    assert match.game.variant.name == "plakoto"
    first_result = match.finished_games[0]["state"]["result"]
    if first_result["winner"] is not None:  # the winner of a game rolls first in the next
        assert match.game.first_player == first_result["winner"]
    board = board_message(env.fake, -712)
    assert "Tavli, game 2: Plakoto; next: Fevga" in board.content, board.content
    assert shown(EN, "variant.plakoto") in board.content.splitlines()[0]
    await env.close()
