"""Issue 8 flows end to end: several games of one person in a chat, /board re-posts, game caps, presses answered at
once behind the pacer, announced turns, no Undo for the bot's own steps, the sweeper isolating a corrupt record,
and the final board.

Every test drives the real Dispatcher over the fake Bot API and asserts what the users see (messages, captions,
buttons, toasts) and what the store holds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest
from aiogram.methods import TelegramMethod
from aiogram.types import Chat, User

from bot.keyboards.callbacks import GameCb
from bot.model.actions import StepAction
from bot.services.actions import CHOOSE_BOARD, CHOOSE_RESIGN
from bot.storage import Store, StoredGame
from bot.texts import tr
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.helpers import Env, board_message, game_buttons, seeded
from tests.bot.event_clock import EventClock
from tests.bot.fake_telegram import FakeTelegram, ShownMessage

EN = "en"
TURN_LINES = (" to move", " to roll or double", " is thinking…")
"""Endings of the caption line saying whose action is awaited."""


def _users(fake: FakeTelegram, *names: str, base: int = 1) -> list[User]:
    return [fake.user(base + i, name, EN) for i, name in enumerate(names)]


async def _start(env: Env, chat: Chat, challenger: User, opponent: User, args: str = "short") -> str | None:
    """Challenge in the group and join; return the new game's id (None when nothing was created)."""
    before = set(await env.store.chat_games(chat.id))
    await env.h.send_text(challenger, chat, f"/new {args}")
    await env.h.press_button(opponent, env.fake.last_message(chat.id), "Join")
    created = [g for g in await env.store.chat_games(chat.id) if g not in before]
    assert len(created) <= 1, created
    return created[0] if created else None


def _photos(fake: FakeTelegram, chat_id: int) -> list[ShownMessage]:
    return [m for m in fake.messages(chat_id) if m.photo is not None or m.photo_file_id is not None]


def _live_boards(fake: FakeTelegram, chat_id: int, game_id: str) -> list[ShownMessage]:
    """Return the chat's photo messages carrying buttons of this game."""
    return [m for m in _photos(fake, chat_id) if any(f":{game_id}:" in data for _, data in game_buttons(m))]


def _message(fake: FakeTelegram, chat_id: int, message_id: int | None) -> ShownMessage:
    assert message_id is not None
    return fake.chats[chat_id][message_id]


def _board_of(fake: FakeTelegram, stored: StoredGame, chat_id: int) -> ShownMessage:
    """Return the game's current board message in the chat (as the store records it)."""
    return _message(fake, chat_id, stored.boards[chat_id].message_id)


async def _snapshot(store: Store, game_id: str) -> tuple[int, dict[str, Any]]:
    stored = await store.get_game(game_id)
    assert stored is not None
    return stored.version, stored.data


def _turn_lines(content: str) -> list[str]:
    return [line for line in content.splitlines() if line.endswith(TURN_LINES)]


def _played_line(name: str, move: str) -> str:
    return tr(EN, "played", name=name, move=move)


# ---------------------------------------------------------------------------------------------- 1. two games


async def test_typed_move_board_and_resign_with_two_games_in_one_chat(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("i8-d"))  # the challenger opens (and has the same roll) in both games
    fake, h = env.fake, env.h
    alice, bob, carol = _users(fake, "Alice", "Bob", "Carol")
    group = fake.group_chat(-800)
    with_bob = await _start(env, group, alice, bob)
    with_carol = await _start(env, group, alice, carol)
    assert with_bob and with_carol
    users = {u.id: u for u in (alice, bob, carol)}
    for game_id in (with_bob, with_carol):
        stored, match = await state(env, game_id)
        assert awaited_user(stored, match, users) is alice and match.game.phase is Phase.MOVE
    _, match = await state(env, with_carol)
    move = match.game.legal_moves()[0].notation  # legal in both games (the same position and dice)

    # Alice is to move in both games: a typed move is ambiguous and changes neither
    before = {g: await _snapshot(sqlite_store, g) for g in (with_bob, with_carol)}
    await h.send_text(alice, group, move)
    assert fake.last_message(group.id).content == tr(EN, "move.ambiguous")
    assert {g: await _snapshot(sqlite_store, g) for g in before} == before

    # Alice plays her turn against Bob with that board's buttons: now only the game with Carol awaits her
    stored_bob, _ = await state(env, with_bob)
    await h.press(
        alice,
        group.id,
        _board_of(fake, stored_bob, group.id).message_id,
        game_buttons(_board_of(fake, stored_bob, group.id))[0][1],
    )
    stored_bob, match_bob = await state(env, with_bob)
    assert stored_bob.version == before[with_bob][0] + 1 and awaited_user(stored_bob, match_bob, users) is bob
    await h.send_text(alice, group, move)
    stored_carol, match_carol = await state(env, with_carol)
    assert stored_carol.version == before[with_carol][0] + 1  # the typed move went to the game awaiting Alice
    assert awaited_user(stored_carol, match_carol, users) is carol
    assert {"t": "played", "player": 0, "move": move} in stored_carol.data["events"]
    assert _played_line("Alice", move) in _board_of(fake, stored_carol, group.id).content
    assert await _snapshot(sqlite_store, with_bob) == (stored_bob.version, stored_bob.data)  # untouched

    # /board with two games asks which one; the chosen game's board is posted anew at the bottom
    board_bob, board_carol = _board_of(fake, stored_bob, group.id), _board_of(fake, stored_carol, group.id)
    await h.send_text(alice, group, "/board")
    chooser = fake.last_message(group.id)
    assert chooser.content == tr(EN, "choose.game")
    assert chooser.button_texts() == ["Bob · short nardy", "Carol · short nardy"]
    assert [GameCb.unpack(data).action for _, data in game_buttons(chooser)] == [CHOOSE_BOARD, CHOOSE_BOARD]
    await h.press_button(bob, chooser, "Carol")  # not Bob's game
    assert fake.toasts_for(bob.id)[-1] == tr(EN, "toast.not_player")
    await h.press_button(alice, chooser, "Carol")
    assert fake.toasts_for(alice.id)[-1] is None
    reposted = board_message(fake, group.id)
    stored_carol, _ = await state(env, with_carol)
    assert reposted.message_id == stored_carol.boards[group.id].message_id != board_carol.message_id
    assert board_carol.buttons() == [] and reposted.buttons()
    assert _live_boards(fake, group.id, with_carol) == [reposted]
    assert _live_boards(fake, group.id, with_bob) == [board_bob]  # the other game's board is left alone
    assert await _snapshot(sqlite_store, with_carol) == (stored_carol.version, stored_carol.data)

    # /resign with two games asks which one too; only the chosen game gets the resignation offer
    await h.send_text(alice, group, "/resign")
    chooser = fake.last_message(group.id)
    assert chooser.content == tr(EN, "choose.game")
    assert [GameCb.unpack(data).action for _, data in game_buttons(chooser)] == [CHOOSE_RESIGN, CHOOSE_RESIGN]
    assert await _snapshot(sqlite_store, with_bob) == (stored_bob.version, stored_bob.data)
    await h.press_button(alice, chooser, "Bob")
    menu = fake.last_message(group.id)
    assert menu.content == tr(EN, "resign.choose")
    assert all(GameCb.unpack(data).game_id == with_bob for _, data in game_buttons(menu))
    await h.press_button(alice, menu, "single game")
    stored_bob, match_bob = await state(env, with_bob)
    assert match_bob.game.phase is Phase.RESIGN and awaited_user(stored_bob, match_bob, users) is bob
    assert "accept the resignation" in _board_of(fake, stored_bob, group.id).content
    assert await _snapshot(sqlite_store, with_carol) == (stored_carol.version, stored_carol.data)
    await env.close()


# ---------------------------------------------------------------------------------------------- 2. /board


async def test_board_repost_leaves_one_live_board(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("repost-8"))
    fake, h = env.fake, env.h
    alice, bob = _users(fake, "Alice", "Bob")
    users = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-810)
    game_id = await _start(env, group, alice, bob)
    assert game_id
    stored, match = await state(env, game_id)
    old = board_message(fake, group.id)
    old_data = game_buttons(old)[0][1]
    await h.send_text(awaited_user(stored, match, users), group, "/board")
    new = board_message(fake, group.id)
    assert new.message_id > old.message_id and fake.last_message(group.id) is new  # at the bottom
    assert old.buttons() == [] and new.button_texts() == old.history[-1]["buttons"]  # the same buttons
    assert new.content == old.content
    assert _live_boards(fake, group.id, game_id) == [new]
    after = await sqlite_store.get_game(game_id)
    assert after is not None and after.version == stored.version  # re-posting is no action
    assert after.boards[group.id].message_id == new.message_id

    # a press kept from the old board is refused with a toast and changes nothing
    await h.press(awaited_user(stored, match, users), group.id, old.message_id, old_data)
    assert fake.toasts_for(awaited_user(stored, match, users).id)[-1] == tr(EN, "toast.old_board")
    assert await _snapshot(sqlite_store, game_id) == (after.version, after.data)
    assert old.buttons() == [] and new.buttons()

    # twelve actions later the one live board was edited in place: no new boards
    photos = len(_photos(fake, group.id))
    for _ in range(12):
        stored, match = await state(env, game_id)
        await press_first(env, awaited_user(stored, match, users), group.id)
    stored, _ = await state(env, game_id)
    assert stored.version >= after.version + 12 and not stored.finished
    assert len(_photos(fake, group.id)) == photos
    assert _live_boards(fake, group.id, game_id) == [new] and new.edits >= 12
    assert stored.boards[group.id].message_id == new.message_id
    assert all(f":{stored.version}:" in data for _, data in game_buttons(new))
    await env.close()


# ---------------------------------------------------------------------------------------------- 3. caps


async def test_user_cap_refuses_a_third_game(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("cap-user"), max_games_per_user=2)
    fake, h = env.fake, env.h
    alice, bob, carol, dave = _users(fake, "Alice", "Bob", "Carol", "Dave")
    group = fake.group_chat(-820)
    assert await _start(env, group, alice, bob) and await _start(env, group, alice, carol)
    refusal = tr(EN, "limit.user", name="Alice", limit=2)
    games = await sqlite_store.chat_games(group.id)
    # Alice challenges, or joins Dave's challenge, or plays the computer: refused, nothing created
    assert await _start(env, group, alice, dave) is None
    assert fake.last_message(group.id).content == refusal
    # the refused challenge's card is closed without claiming a game started
    cards = [m.content for m in fake.messages(group.id)]
    assert tr(EN, "challenge.started", a="Alice", b="Dave") not in cards
    assert tr(EN, "toast.challenge_gone") in cards
    assert await _start(env, group, dave, alice) is None
    assert fake.last_message(group.id).content == refusal
    await h.send_text(alice, group, "/new bot")
    assert fake.last_message(group.id).content == refusal
    assert await sqlite_store.chat_games(group.id) == games
    assert len(await sqlite_store.user_games(alice.id)) == 2
    assert await sqlite_store.user_games(dave.id) == []
    # the others may still play
    assert await _start(env, group, dave, bob)
    await env.close()


async def test_chat_cap_refuses_a_third_game(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("cap-chat"), max_games_per_chat=2)
    fake, h = env.fake, env.h
    alice, bob, carol, dave, eve, frank = _users(fake, "Alice", "Bob", "Carol", "Dave", "Eve", "Frank")
    group = fake.group_chat(-830)
    first = await _start(env, group, alice, bob)
    assert first and await _start(env, group, carol, dave)
    refusal = tr(EN, "limit.chat", limit=2)
    games = await sqlite_store.chat_games(group.id)
    assert await _start(env, group, eve, frank) is None
    assert fake.last_message(group.id).content == refusal
    await h.send_text(eve, group, "/new bot")  # a game against the computer in the group counts as well
    assert fake.last_message(group.id).content == refusal
    assert await sqlite_store.chat_games(group.id) == games
    assert await sqlite_store.user_games(eve.id) == [] and await sqlite_store.user_games(frank.id) == []
    # another chat is not affected, and a finished game frees its place
    assert await _start(env, fake.group_chat(-831), eve, frank)
    await h.send_text(alice, group, "/resign")
    await h.press_button(alice, fake.last_message(group.id), "single game")
    stored, _ = await state(env, first)
    await h.press_button(bob, _board_of(fake, stored, group.id), "Accept")
    stored, _ = await state(env, first)
    assert stored.finished
    assert await _start(env, group, eve, frank)
    await env.close()


# ---------------------------------------------------------------------------------------------- 5. announced turns


async def test_typed_and_confirmed_turns_are_announced(sqlite_store: Store) -> None:
    await sqlite_store.set_chat_settings(-851, {"confirm": True})
    env = Env(sqlite_store, seeded("i8-d"))  # Alice opens in every game
    fake, h = env.fake, env.h
    alice, bob, carol, dave = _users(fake, "Alice", "Bob", "Carol", "Dave")
    users = {u.id: u for u in (alice, bob, carol, dave)}

    # a button turn (the reference), then a typed turn, in a group without confirmation
    plain = fake.group_chat(-850)
    game_id = await _start(env, plain, alice, bob)
    assert game_id
    stored, _ = await state(env, game_id)
    board = _board_of(fake, stored, plain.id)
    label, data = game_buttons(board)[0]  # a whole-turn button: its label is the turn's notation
    await h.press(alice, plain.id, board.message_id, data)
    stored, match = await state(env, game_id)
    assert {"t": "played", "player": 0, "move": label} in stored.data["events"]
    assert _played_line("Alice", label) in board.content
    while awaited_user(stored, match, users) is not alice or match.game.phase is not Phase.MOVE:
        await press_first(env, awaited_user(stored, match, users), plain.id)
        stored, match = await state(env, game_id)
    move = match.game.legal_moves()[-1].notation
    await h.send_text(alice, plain, move)
    stored, _ = await state(env, game_id)
    assert {"t": "played", "player": 0, "move": move} in stored.data["events"]
    assert _played_line("Alice", move) in board.content

    # with /settings confirm on, the record confirms turns: nothing is announced until Confirm is pressed
    confirming = fake.group_chat(-851)
    game_id = await _start(env, confirming, carol, dave)
    assert game_id
    stored, _ = await state(env, game_id)
    assert stored.data["confirm"] is True
    board = _board_of(fake, stored, confirming.id)
    label, data = game_buttons(board)[0]
    await h.press(carol, confirming.id, board.message_id, data)
    stored, match = await state(env, game_id)
    assert match.game.phase is Phase.MOVE and match.game.turn == 0 and stored.data["pending_steps"]
    assert "played" not in board.content and "Confirm" in " ".join(board.button_texts())
    await h.press_button(carol, board, "Confirm")
    stored, match = await state(env, game_id)
    assert match.game.turn == 1 or match.game.phase is not Phase.MOVE
    assert {"t": "played", "player": 0, "move": label} in stored.data["events"]
    assert _played_line("Carol", label) in board.content
    assert _turn_lines(board.content) == [line for line in _turn_lines(board.content) if "Dave" in line]
    await env.close()


# ---------------------------------------------------------------------------------------------- 6. no Undo


def _undo_offered(board: ShownMessage) -> bool:
    return any(GameCb.unpack(data).action == "undo" for _, data in game_buttons(board))


async def test_no_undo_for_the_bots_own_first_step(sqlite_store: Store) -> None:
    # long nardy, seed s45: Alice opens with 3-3 and only one checker can leave the head: the bot plays 24/21
    await sqlite_store.set_chat_settings(-861, {"confirm": True, "variant": "long"})
    env = Env(sqlite_store, seeded("s45"))
    fake, h = env.fake, env.h
    alice, bob = _users(fake, "Alice", "Bob")
    group = fake.group_chat(-861)
    game_id = await _start(env, group, alice, bob, "long")
    assert game_id
    stored, match = await state(env, game_id)
    assert match.game.dice == (3, 3) and match.game.turn == 0
    assert stored.data["pending_steps"] == [[24, 21, 3, False]]
    board = _board_of(fake, stored, group.id)
    assert "Turn so far: 24→21" in board.content
    assert not _undo_offered(board)
    # a forged Undo is refused too: the bot's step stays
    undo = GameCb(game_id=game_id, version=stored.version, action="undo").pack()
    await h.press(alice, group.id, board.message_id, undo)
    assert fake.toasts_for(alice.id)[-1] == tr(EN, "toast.bad")
    assert await _snapshot(sqlite_store, game_id) == (stored.version, stored.data)
    # Alice's own choice can be taken back, down to the bot's step (and no further)
    await h.press(alice, group.id, board.message_id, game_buttons(board)[0][1])
    stored, _ = await state(env, game_id)
    assert len(stored.data["pending_steps"]) == 4 and _undo_offered(board)
    await h.press_button(alice, board, "Undo")
    stored, _ = await state(env, game_id)
    assert stored.data["pending_steps"] == [[24, 21, 3, False]]
    assert not _undo_offered(board)
    await env.close()


async def test_no_undo_for_a_forced_step_in_the_middle_of_a_game(sqlite_store: Store) -> None:
    # seed f1: after 13 presses Bob has a checker on the bar that can only enter with the 2
    env = Env(sqlite_store, seeded("f1"))
    fake, h = env.fake, env.h
    alice, bob = _users(fake, "Alice", "Bob")
    users = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-862)
    game_id = await _start(env, group, alice, bob)
    assert game_id
    for _ in range(13):
        stored, match = await state(env, game_id)
        await press_first(env, awaited_user(stored, match, users), group.id)
    stored, match = await state(env, game_id)
    assert stored.data["pending_steps"] == [[25, 23, 2, False]] and match.game.phase is Phase.MOVE
    assert awaited_user(stored, match, users) is bob and stored.data["chosen"] == 0
    board = _board_of(fake, stored, group.id)
    assert not _undo_offered(board)
    undo = GameCb(game_id=game_id, version=stored.version, action="undo").pack()
    await h.press(bob, group.id, board.message_id, undo)
    assert fake.toasts_for(bob.id)[-1] == tr(EN, "toast.bad")
    assert await _snapshot(sqlite_store, game_id) == (stored.version, stored.data)
    await env.close()


async def test_a_declined_resignation_leaves_no_undo_for_the_bots_step(sqlite_store: Store) -> None:
    await sqlite_store.set_chat_settings(-863, {"confirm": True, "variant": "long"})
    env = Env(sqlite_store, seeded("s45"))
    fake, h = env.fake, env.h
    alice, bob = _users(fake, "Alice", "Bob")
    group = fake.group_chat(-863)
    game_id = await _start(env, group, alice, bob, "long")
    assert game_id
    stored, _ = await state(env, game_id)
    board = _board_of(fake, stored, group.id)
    await h.press(alice, group.id, board.message_id, game_buttons(board)[0][1])  # Alice chooses a turn
    await h.send_text(alice, group, "/resign")  # … and offers to resign instead
    await h.press_button(alice, fake.last_message(group.id), "single game")
    stored, match = await state(env, game_id)
    assert match.game.phase is Phase.RESIGN and stored.data["pending_steps"] == []
    await h.press_button(bob, board, "Decline")
    stored, match = await state(env, game_id)
    assert match.game.phase is Phase.MOVE and match.game.turn == 0 and match.game.dice == (3, 3)
    assert stored.data["pending_steps"] == [[24, 21, 3, False]]
    assert not _undo_offered(board)
    await env.close()


# ---------------------------------------------------------------------------------------------- 7. the sweeper


async def test_sweeper_quarantines_a_corrupt_record_sqlite(
    sqlite_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    await _sweep_with_a_corrupt_record(sqlite_store, caplog)


async def test_sweeper_quarantines_a_corrupt_record_redis(redis_store: Store, caplog: pytest.LogCaptureFixture) -> None:
    await _sweep_with_a_corrupt_record(redis_store, caplog)


async def _sweep_with_a_corrupt_record(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    """Five overdue games, the third one's record corrupt: a sweep handles the four others and quarantines it."""
    env = Env(store, seeded("sweep-8"))
    fake = env.fake
    alice, bob = _users(fake, "Alice", "Bob")
    users = {alice.id: alice, bob.id: bob}
    chats = [fake.group_chat(-870 - i) for i in range(5)]
    games: list[str] = []
    for chat in chats:
        game_id = await _start(env, chat, alice, bob)
        assert game_id
        games.append(game_id)
    bad = games[2]
    stored = await store.get_game(bad)
    assert stored is not None
    garbage = {**stored.data, "match": {"variant": "short", "game": {"history": ["%%% not a record %%%"]}}}
    assert await store.update_game(bad, stored.version, garbage, deadline=stored.deadline) == stored.version + 1
    good = [g for g in games if g != bad]
    awaited = {}
    for game_id in good:
        record, match = await state(env, game_id)
        awaited[game_id] = awaited_user(record, match, users)
        assert record.deadline is not None and not record.data["reminded"]
    now = time.time() + env.service.config.turn_reminder_after + 60  # every game is overdue
    assert sorted(await store.due_games(now)) == sorted(games)

    with caplog.at_level(logging.ERROR, logger="bot.services.timers"):
        handled = await env.service.sweep(now)
    await env.service.settle()
    assert handled == 4
    for game_id, chat in zip(games, chats, strict=True):
        record = await store.get_game(game_id)
        assert record is not None
        if game_id == bad:
            assert record.quarantined and record.data == garbage
            assert fake.last_message(chat.id).content == _board_content(record, fake, chat.id)  # no reminder
            continue
        assert not record.quarantined and record.data["reminded"] is True
        reminder = tr(EN, "reminder", name=awaited[game_id].first_name)
        assert fake.last_message(chat.id).content == reminder
    assert await store.quarantined_games() == [bad]
    assert bad not in await store.due_games(now + 10 * 24 * 3600)
    assert await store.chat_games(chats[2].id) == []
    logged = [r for r in caplog.records if r.name == "bot.services.timers" and bad in r.getMessage()]
    assert logged and "quarantined" in logged[0].getMessage() and logged[0].exc_info is not None
    # the next sweep (turn timeout) finishes the four games and does not touch the quarantined one again
    later = now + env.service.config.turn_timeout
    assert await env.service.sweep(later) == 4
    for game_id in good:
        record = await store.get_game(game_id)
        assert record is not None and record.finished
    record = await store.get_game(bad)
    assert record is not None and record.quarantined and record.data == garbage
    await env.close()


def _board_content(stored: StoredGame, fake: FakeTelegram, chat_id: int) -> str:
    return _board_of(fake, stored, chat_id).content


# ---------------------------------------------------------------------------------------------- 8. final board


def _assert_final_board(board: ShownMessage, game_id: str) -> None:
    assert "Game over" in board.content, board.content
    assert _turn_lines(board.content) == [], board.content  # nobody is to move, roll or think
    assert board.button_texts() == [tr(EN, "btn.rematch"), tr(EN, "btn.new"), tr(EN, "btn.record")]
    assert GameCb.unpack(game_buttons(board)[0][1]).game_id == game_id


async def test_final_board_names_nobody_to_move(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("f2"))
    fake, h = env.fake, env.h
    alice, bob = _users(fake, "Alice", "Bob")
    users = {alice.id: alice, bob.id: bob}
    # played to the end with the buttons
    group = fake.group_chat(-880)
    game_id = await _start(env, group, alice, bob)
    assert game_id
    for _ in range(200):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        await press_first(env, awaited_user(stored, match, users), group.id)
    stored, match = await state(env, game_id)
    assert stored.finished and match.game.phase is Phase.OVER
    assert any(e.get("t") == "over" for e in stored.data["events"])
    board = _board_of(fake, stored, group.id)
    _assert_final_board(board, game_id)
    assert _live_boards(fake, group.id, game_id) == [board]
    # ended by a resignation (offered in the middle of a turn)
    group = fake.group_chat(-881)
    game_id = await _start(env, group, alice, bob)
    assert game_id
    stored, match = await state(env, game_id)
    resigning = awaited_user(stored, match, users)
    other = bob if resigning is alice else alice
    await h.send_text(resigning, group, "/resign")
    await h.press_button(resigning, fake.last_message(group.id), "single game")
    stored, _ = await state(env, game_id)
    await h.press_button(other, _board_of(fake, stored, group.id), "Accept")
    stored, _ = await state(env, game_id)
    assert stored.finished
    _assert_final_board(_board_of(fake, stored, group.id), game_id)
    # ended by the timeout
    group = fake.group_chat(-882)
    game_id = await _start(env, group, alice, bob)
    assert game_id
    now = time.time() + env.service.config.turn_reminder_after + 60
    await env.service.sweep(now)
    await env.service.sweep(now + env.service.config.turn_timeout)
    stored, _ = await state(env, game_id)
    assert stored.finished
    board = _board_of(fake, stored, group.id)
    _assert_final_board(board, game_id)
    assert "ran out of time" in board.content
    await env.close()


# ---------------------------------------------------------------------------------------------- 4. answers at once


async def _no_settle() -> None:
    return None


async def test_presses_are_answered_before_the_paced_board_edit(sqlite_store: Store) -> None:
    clock = EventClock()
    clock.start()
    env = Env(sqlite_store, seeded("pace-8"), sender_clock=clock)
    fake, h = env.fake, env.h
    calls: list[tuple[float, str, Any]] = []  # (virtual time, method, chat) of every Bot API call
    make_request = fake.make_request

    async def timed(bot: Any, method: TelegramMethod[Any], timeout: int | None = None) -> Any:
        calls.append((clock.now, method.__api_method__, getattr(method, "chat_id", None)))
        return await make_request(bot, method, timeout)

    fake.make_request = timed  # type: ignore[method-assign]
    alice, bob = _users(fake, "Alice", "Bob")
    users = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-840)
    game_id = await _start(env, group, alice, bob)
    assert game_id

    def group_calls_in_last_window() -> int:
        return sum(1 for t, name, chat in calls if chat == group.id and t > clock.now - 61.0)

    # play quickly until the group has used Telegram's budget (19 calls in the last minute)
    while group_calls_in_last_window() < env.sender.limits.group_per_minute:
        stored, match = await state(env, game_id)
        assert not stored.finished
        await press_first(env, awaited_user(stored, match, users), group.id)

    # time stands still from here: a board edit now waits for the pacer until the clock moves on
    await clock.stop()
    env.h.settle = _no_settle
    frozen, mark = clock.now, len(calls)
    stored, match = await state(env, game_id)
    mover = awaited_user(stored, match, users)
    other = bob if mover is alice else alice
    board = _board_of(fake, stored, group.id)
    data = game_buttons(board)[0][1]
    await h.press(mover, group.id, board.message_id, data)  # applied: its board edit is queued
    for _ in range(2000):
        if env.sender.pending():
            break
        await asyncio.sleep(0.005)
    assert env.sender.pending() == 1
    await h.press(other, group.id, board.message_id, data)  # the board is behind: refused with a toast
    stored, match = await state(env, game_id)
    assert stored.version == stored.boards[group.id].shown_version + 1
    game = match.game
    action = "roll" if game.phase is Phase.ROLL else StepAction.of(game.plan().next_steps([])[0]).pack()
    nxt = awaited_user(stored, match, users)
    await h.press(
        nxt, group.id, board.message_id, GameCb(game_id=game_id, version=stored.version, action=action).pack()
    )
    after = await sqlite_store.get_game(game_id)
    assert after is not None and after.version == stored.version + 1  # the third press was applied too
    # every press was answered at once; nothing else reached Telegram meanwhile
    assert [(t, name) for t, name, _ in calls[mark:]] == [(frozen, "answerCallbackQuery")] * 3
    assert [(t.user_id, t.text) for t in fake.toasts[-3:]] == [
        (mover.id, None),
        (other.id, tr(EN, "toast.synced")),
        (nxt.id, None),
    ]

    # when the clock moves on, the paced edits follow and the board shows the newest version
    shown_before = board.edits
    clock.start()
    await env.service.settle()
    edits = [(t, name) for t, name, chat in calls[mark:] if chat == group.id]
    assert edits and all(name == "editMessageMedia" for _, name in edits)
    assert edits[0][0] > frozen + 1.0  # the edit waited for the group's budget, the answers did not
    assert board.edits > shown_before
    assert all(f":{after.version}:" in d for _, d in game_buttons(board))
    final = await sqlite_store.get_game(game_id)
    assert final is not None and final.boards[group.id].shown_version == final.version
    await clock.stop()
    await env.close()
