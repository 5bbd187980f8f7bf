"""Keyboards of the lobby (docs/rules.md "Lobby"): Cancel under the "seeking…" message, the buttons under a lobby
game's final board, and the way from a group to the private chat."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.keyboards.callbacks import HistoryCb, LobbyCb
from bot.texts import tr

PLAY_DEEP_LINK = "play"
"""The ``/start`` argument of the link that opens the private chat and seeks (``t.me/<bot>?start=play``)."""


def seeking_keyboard(lang: str, app: InlineKeyboardButton | None = None) -> InlineKeyboardMarkup:
    """Return the Cancel button of a "seeking…" message, and ``app`` (the Mini App's "Play" screen, where the seek
    can be watched and the game opens by itself) under it when given."""
    cancel = LobbyCb(action="cancel")
    rows = [[InlineKeyboardButton(text=tr(lang, "btn.lobby_cancel"), callback_data=cancel.pack())]]
    if app is not None:
        rows.append([app])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def lobby_over_keyboard(game_id: str, lang: str) -> InlineKeyboardMarkup:
    """Return the buttons under a finished lobby game's board: Rematch (a series, when both press it) and New
    opponent; Block and Report (of the opponent); Record (the game's files, as ``/export``)."""

    def button(key: str, action: str) -> InlineKeyboardButton:
        data = LobbyCb(action=action, ref=game_id)  # type: ignore[arg-type]
        return InlineKeyboardButton(text=tr(lang, key), callback_data=data.pack())

    record = HistoryCb(game_id=game_id, action="export")
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [button("btn.lobby_rematch", "rematch"), button("btn.lobby_new", "new")],
            [button("btn.lobby_block", "block"), button("btn.lobby_report", "report")],
            [InlineKeyboardButton(text=tr(lang, "btn.record"), callback_data=record.pack())],
        ]
    )


def private_chat_keyboard(bot_username: str | None, lang: str) -> InlineKeyboardMarkup | None:
    """Return the button that opens the private chat with the bot and seeks there (None without a username)."""
    if not bot_username:
        return None
    url = f"https://t.me/{bot_username}?start={PLAY_DEEP_LINK}"
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=tr(lang, "btn.lobby_open"), url=url)]])
