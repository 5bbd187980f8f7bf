"""Keyboards of the welcome message and of /lang."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.i18n import LANGUAGE_NAMES, SUPPORTED_LANGUAGES
from bot.texts import tr
from bot.variants import MAIN, OFFERED

from .callbacks import LangCb, MenuCb

NEW_LONG = "new_long"
NEW_SHORT = "new_short"
MORE_GAMES = "more"
PLAY_COMPUTER = "bot"
RULES = "rules"
LANGUAGE = "lang"
MENU_ACTIONS = (NEW_LONG, NEW_SHORT, MORE_GAMES, PLAY_COMPUTER, RULES, LANGUAGE)
"""The ``MenuCb.action`` values of the welcome keyboard."""


def new_action(variant: str) -> str:
    """Return the ``MenuCb.action`` of the New game button of ``variant`` (``new_<variant>``)."""
    return f"new_{variant}"


def main_menu_keyboard() -> InlineKeyboardMarkup:
    """Return the welcome keyboard (in the current i18n language): new long game, new short game, more games (the
    other variants: :func:`more_games_keyboard`), play against the computer, rules and language buttons."""
    builder = InlineKeyboardBuilder()
    builder.button(text=_("🎲 New long nardy game"), callback_data=MenuCb(action=NEW_LONG))
    builder.button(text=_("🎲 New short nardy game"), callback_data=MenuCb(action=NEW_SHORT))
    builder.button(text=_("🎲 More games…"), callback_data=MenuCb(action=MORE_GAMES))
    builder.button(text=_("🤖 Play against the computer"), callback_data=MenuCb(action=PLAY_COMPUTER))
    builder.button(text=_("📖 Rules"), callback_data=MenuCb(action=RULES))
    builder.button(text=_("🌐 Language"), callback_data=MenuCb(action=LANGUAGE))
    builder.adjust(1, 1, 1, 1, 2)
    return builder.as_markup()


def more_games_keyboard(lang: str) -> InlineKeyboardMarkup:
    """Return the chooser of the other variants (beyond long and short nardy), two a row: a press starts a new
    game of that variant, like the welcome keyboard's New game buttons."""
    builder = InlineKeyboardBuilder()
    others = [v for v in OFFERED if v not in MAIN]
    for variant in others:
        builder.button(text="🎲 " + tr(lang, f"btn.{variant}"), callback_data=MenuCb(action=new_action(variant)))
    builder.adjust(2)
    return builder.as_markup()


def language_keyboard(current: str | None = None) -> InlineKeyboardMarkup:
    """Return one button per supported language; the ``current`` one is marked with a check mark."""
    builder = InlineKeyboardBuilder()
    for code in SUPPORTED_LANGUAGES:
        mark = "✓ " if code == current else ""
        builder.button(text=f"{mark}{LANGUAGE_NAMES[code]}", callback_data=LangCb(code=code))  # type: ignore[arg-type]
    builder.adjust(len(SUPPORTED_LANGUAGES))
    return builder.as_markup()
