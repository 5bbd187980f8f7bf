"""Games of people in a group, for the end-to-end tests: starting one by a challenge, finding its board messages,
and a snapshot of its record."""

from __future__ import annotations

from typing import Any

from aiogram.types import Chat, User

from bot.storage import Store, StoredGame
from tests.bot.e2e.helpers import Env, game_buttons
from tests.bot.e2e.texts import EN, TURN_KEYS, entry_lines, shown
from tests.bot.fake_telegram import FakeTelegram, ShownMessage


def users(fake: FakeTelegram, *names: str, base: int = 1) -> list[User]:
    """Return English-speaking users with these first names and the ids ``base``, ``base + 1``, …"""
    return [fake.user(base + i, name, EN) for i, name in enumerate(names)]


async def start_game(env: Env, chat: Chat, challenger: User, opponent: User, args: str = "short") -> str | None:
    """Challenge in the group (``/new args``) and join; return the new game's id (None when nothing was created).
    Raises: AssertionError when more than one game was created."""
    before = set(await env.store.chat_games(chat.id))
    await env.h.send_text(challenger, chat, f"/new {args}")
    await env.h.press_button(opponent, env.fake.last_message(chat.id), shown(EN, "btn.join"))
    created = [g for g in await env.store.chat_games(chat.id) if g not in before]
    assert len(created) <= 1, created
    return created[0] if created else None


def photos(fake: FakeTelegram, chat_id: int) -> list[ShownMessage]:
    """Return the chat's photo messages sent by the bot, oldest first."""
    return [m for m in fake.messages(chat_id) if m.photo is not None or m.photo_file_id is not None]


def live_boards(fake: FakeTelegram, chat_id: int, game_id: str) -> list[ShownMessage]:
    """Return the chat's photo messages carrying buttons of this game."""
    return [m for m in photos(fake, chat_id) if any(f":{game_id}:" in data for _, data in game_buttons(m))]


def message(fake: FakeTelegram, chat_id: int, message_id: int | None) -> ShownMessage:
    """Return the message ``message_id`` of the chat. Raises: AssertionError for None."""
    assert message_id is not None
    return fake.chats[chat_id][message_id]


def board_of(fake: FakeTelegram, stored: StoredGame, chat_id: int) -> ShownMessage:
    """Return the game's current board message in the chat (as the store records it)."""
    return message(fake, chat_id, stored.boards[chat_id].message_id)


async def snapshot(store: Store, game_id: str) -> tuple[int, dict[str, Any]]:
    """Return (version, data) of the stored game. Raises: AssertionError when there is no such game."""
    stored = await store.get_game(game_id)
    assert stored is not None
    return stored.version, stored.data


def turn_lines(content: str) -> list[str]:
    """Return the caption lines saying whose action is awaited (to move, to roll or double, thinking)."""
    return entry_lines(content, EN, *TURN_KEYS)


def played_line(name: str, move: str) -> str:
    """Return the caption line announcing that ``name`` played ``move``."""
    return shown(EN, "played", name=name, move=move)
