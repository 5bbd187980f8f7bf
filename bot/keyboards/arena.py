"""Buttons of arenas: the card in the group (join, leave, pause, back; a button that opens the bot in private; the
Mini App's live view), and the "back" button of the private notice to a paused player. Every button fits Telegram's
64 bytes (checked in ``tests/bot/test_arena_keyboards.py``)."""

from __future__ import annotations

from typing import Literal

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.keyboards.callbacks import GameId
from bot.texts import tr

ArenaAction = Literal["join", "leave", "pause", "back"]
"""What an arena button does."""


class ArenaCb(CallbackData, prefix="ar"):
    """A press on an arena's card or notice."""

    arena_id: GameId
    action: ArenaAction


def arena_callback(arena_id: str, action: ArenaAction) -> str:
    """Return the packed arena button."""
    return ArenaCb(arena_id=arena_id, action=action).pack()


def card_keyboard(
    arena_id: str,
    lang: str,
    *,
    deep_link: str | None = None,
    app_button: InlineKeyboardButton | None = None,
) -> InlineKeyboardMarkup:
    """Return the keyboard of a running arena's card: Join / Leave, Pause / Back, (``deep_link``) a button that opens
    the bot in private (the games come there), and ``app_button`` (the Mini App's live view) when given."""
    button = InlineKeyboardButton
    rows = [
        [
            button(text=tr(lang, "arena.btn.join"), callback_data=arena_callback(arena_id, "join")),
            button(text=tr(lang, "arena.btn.leave"), callback_data=arena_callback(arena_id, "leave")),
        ],
        [
            button(text=tr(lang, "arena.btn.pause"), callback_data=arena_callback(arena_id, "pause")),
            button(text=tr(lang, "arena.btn.back"), callback_data=arena_callback(arena_id, "back")),
        ],
    ]
    if deep_link:
        rows.append([button(text=tr(lang, "tour.btn.open_bot"), url=deep_link)])
    if app_button is not None:
        rows.append([app_button])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def back_keyboard(arena_id: str, lang: str) -> InlineKeyboardMarkup:
    """Return the keyboard of the notice to a paused player: one "back" button."""
    data = arena_callback(arena_id, "back")
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=tr(lang, "arena.btn.back"), callback_data=data)]]
    )
