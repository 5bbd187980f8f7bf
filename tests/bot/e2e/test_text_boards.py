"""A game in a group that forbids the bot's pictures: its board is a text message with the same buttons, the game is
played through it to the end of several turns, the admins are told once, and an hour after the admins allow
pictures again the board becomes a picture in place (Telegram edits a text message into a photo) and the chat is
forgotten. A board picture Telegram refuses on its own (``PHOTO_INVALID_DIMENSIONS``) goes as text that once."""

from __future__ import annotations

import pytest

from bot.model.settings import ChatSettings
from bot.services.media import MEDIA_RETRY_AFTER
from bot.storage import Store
from tests.bot.e2e.convergence import assert_converged, game_versions
from tests.bot.e2e.drive import awaited_user, only_game, state
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.texts import EN, shown
from tests.bot.fake_telegram import ShownMessage
from tests.bot.virtual_time import VirtualClock

GROUP = -980


def _boards(env: Env) -> list[ShownMessage]:
    """Return the group's messages carrying the game's buttons or its drawing (text or picture boards)."""
    return [m for m in env.fake.messages(GROUP) if m.photo is not None or (m.text or "").startswith("<pre>")]


async def _press(env: Env, game_id: str, board: ShownMessage) -> None:
    stored, match = await state(env, game_id)
    users = {u.id: u for u in env.fake.users.values()}
    data = next(b.callback_data for row in board.buttons() for b in row if (b.callback_data or "").startswith("g:"))
    await env.h.press(awaited_user(stored, match, users), GROUP, board.message_id, data or "")


async def test_a_group_without_pictures_plays_on_a_text_board(sqlite_store: Store) -> None:
    clock = VirtualClock(start=1_700_000_000.0)
    env = Env(sqlite_store, seeded("text-board"), clock=clock)
    fake, h = env.fake, env.h
    fake.media_forbidden.add(GROUP)
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(GROUP)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(GROUP), shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, GROUP)

    board = fake.last_message(GROUP)
    assert board.photo is None and board.text is not None and board.text.startswith("<pre>")
    assert game_versions(board, game_id)  # the buttons are there
    notices = [m for m in fake.messages(GROUP) if m.content == shown(EN, "media.notice")]
    assert len(notices) == 1
    for _ in range(6):
        await _press(env, game_id, board)
    stored, _ = await state(env, game_id)
    assert stored.version >= 7
    assert [m.message_id for m in _boards(env)] == [board.message_id]  # one board, edited as text
    await assert_converged_text(env, game_id, board)
    assert len([m for m in fake.messages(GROUP) if m.content == shown(EN, "media.notice")]) == 1
    refused = [c for c in fake.calls if c.name in ("sendPhoto", "editMessageMedia")]
    assert len(refused) == 1  # the chat is remembered: no picture is tried again within the hour

    # the admins allow pictures; an hour after the refusal the next board is a picture again, in the same message
    fake.media_forbidden.discard(GROUP)
    clock.now += MEDIA_RETRY_AFTER + 1.0
    await _press(env, game_id, board)
    assert board.photo is not None and board.text is None
    assert [m.message_id for m in _boards(env)] == [board.message_id]
    assert ChatSettings.from_dict(await sqlite_store.get_chat_settings(GROUP)).media_refused is None
    await assert_converged(env, game_id, one_keyboard=True)
    await env.close()


async def assert_converged_text(env: Env, game_id: str, board: ShownMessage) -> None:
    """Assert that the text board shows the saved version (its buttons) and the store knows it."""
    stored, _ = await state(env, game_id)
    assert stored.boards[GROUP].message_id == board.message_id
    assert stored.boards[GROUP].shown_version == stored.version
    assert game_versions(board, game_id) == {stored.version}


@pytest.mark.parametrize("description", ["Bad Request: PHOTO_INVALID_DIMENSIONS"])
async def test_a_refused_picture_goes_as_text_that_once(sqlite_store: Store, description: str) -> None:
    env = Env(sqlite_store, seeded("refused-picture"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(GROUP)
    fake.fail_next("sendPhoto", description=description)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(GROUP), shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, GROUP)
    board = fake.last_message(GROUP)
    assert board.text is not None and board.text.startswith("<pre>") and game_versions(board, game_id)
    assert not [m for m in fake.messages(GROUP) if m.content == shown(EN, "media.notice")]
    await _press(env, game_id, board)  # the next board is a picture again, in the same message
    assert board.photo is not None
    assert ChatSettings.from_dict(await sqlite_store.get_chat_settings(GROUP)).media_refused is None
    await assert_converged(env, game_id, one_keyboard=True)
    await env.close()
