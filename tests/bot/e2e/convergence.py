"""What "converged" means for a game's boards, checked against what the fake Telegram shows: every board message of
the game shows the saved version (its caption, and the buttons carrying that version), the game's wake-up deadline
is released, and (on request) no other message of the game in its chats keeps a live keyboard."""

from __future__ import annotations

import pytest

from bot.keyboards.callbacks import GameCb, parse_callback
from bot.model.game import GameRecord
from bot.services.boards import chat_lang
from bot.services.captions import caption
from bot.services.engine_flow import load_match
from tests.bot.e2e.helpers import Env
from tests.bot.fake_telegram import FakeTelegram, ShownMessage


def shown_message(fake: FakeTelegram, chat_id: int, message_id: int | None) -> ShownMessage:
    """Return the message ``message_id`` of the chat. Raises: AssertionError when it does not exist."""
    found = [m for m in fake.messages(chat_id) if m.message_id == message_id]
    assert found, f"board message {message_id} of chat {chat_id} does not exist"
    return found[0]


def game_versions(message: ShownMessage, game_id: str) -> set[int]:
    """Return the versions of the game that the message's buttons carry."""
    versions = set()
    for row in message.buttons():
        for button in row:
            parsed = parse_callback(button.callback_data)
            if isinstance(parsed, GameCb) and parsed.game_id == game_id:
                versions.add(parsed.version)
    return versions


async def assert_converged(env: Env, game_id: str, *, one_keyboard: bool = False) -> None:
    """Assert that every board of the game shows its saved version and the game's wake-up deadline is released;
    with ``one_keyboard``, also that no other message of the game in its chats carries buttons of it."""
    stored = await env.store.get_game(game_id)
    assert stored is not None
    record = GameRecord.from_stored(stored)
    match = load_match(record, game_id, env.service.config.dice)
    for chat in record.chats:
        chat_id = chat.chat_id
        state = stored.boards.get(chat_id)
        assert state is not None and state.shown_version == stored.version, (chat_id, state, stored.version)
        message = shown_message(env.fake, chat_id, state.message_id)
        assert message.caption == caption(record, match, chat_lang(record, chat), game_id)
        assert game_versions(message, game_id) <= {stored.version}
        if one_keyboard:
            others = [m.message_id for m in env.fake.messages(chat_id) if m.message_id != state.message_id]
            live = [i for i in others if game_versions(shown_message(env.fake, chat_id, i), game_id)]
            assert not live, f"old boards {live} of chat {chat_id} keep their keyboards"
        assert not state.stale, state
    if stored.finished:
        assert stored.deadline is None
    else:
        assert stored.deadline == pytest.approx(stored.data["turn_deadline"])
