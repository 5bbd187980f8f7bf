"""The bot's command menu (``setMyCommands``) in every language, for private and group chats."""

from __future__ import annotations

from dataclasses import dataclass

from aiogram import Bot
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from aiogram.utils.i18n import I18n

from bot.i18n import SUPPORTED_LANGUAGES, gettext_noop


@dataclass(frozen=True)
class CommandInfo:
    """One command: its name, its description (an English msgid) and where it is offered."""

    name: str
    description: str
    private: bool = True
    group: bool = True


COMMANDS: tuple[CommandInfo, ...] = (
    CommandInfo("start", gettext_noop("Welcome and a new game"), group=False),
    CommandInfo("help", gettext_noop("What this bot does")),
    CommandInfo("lang", gettext_noop("Change the language")),
    CommandInfo(
        "new", gettext_noop("New game: /new and a game (long, short, tavli…), match N; /new bot: the computer")
    ),
    CommandInfo("play", gettext_noop("Find an opponent of your strength: /play and a game, a clock D+r"), group=False),
    CommandInfo("board", gettext_noop("Show the board of your game again")),
    CommandInfo("resign", gettext_noop("Resign the current game")),
    CommandInfo("stats", gettext_noop("Wins and losses in this chat")),
    CommandInfo("rating", gettext_noop("Your ratings, per game")),
    CommandInfo("top", gettext_noop("Leaderboard of this group: /top and a game"), private=False),
    CommandInfo("tournament", gettext_noop("The group's tournament: create, join, standings; /tournament last")),
    CommandInfo("rules", gettext_noop("Rules of every game: /rules and its name")),
    CommandInfo("verify", gettext_noop("Check a game's dice: /verify and the game's id")),
    CommandInfo("export", gettext_noop("A game's record as files (.mat for gnubg and XG)")),
    CommandInfo("history", gettext_noop("Your last finished games here: replay and records")),
    CommandInfo("watch", gettext_noop("Watch a game of this group in your private chat"), private=False),
    CommandInfo("analyze", gettext_noop("Analysis of a finished game: /analyze and its id")),
    CommandInfo("settings", gettext_noop("Chat settings (admins)")),
)
"""Commands shown in Telegram's menu. Game flows add theirs here (new, board, resign, stats, rules, settings)."""


def bot_commands(i18n: I18n, locale: str, *, group: bool) -> list[BotCommand]:
    """Return the menu of private (``group=False``) or group chats with descriptions in ``locale``."""
    return [
        BotCommand(command=c.name, description=i18n.gettext(c.description, locale=locale))
        for c in COMMANDS
        if (c.group if group else c.private)
    ]


async def set_bot_commands(bot: Bot, i18n: I18n) -> None:
    """Call ``setMyCommands`` for private and group chats, for each supported language and as the default
    (in the default language). Raises: ``TelegramAPIError`` from the calls."""
    for group, scope in (
        (False, BotCommandScopeAllPrivateChats()),
        (True, BotCommandScopeAllGroupChats()),
    ):
        await bot.set_my_commands(bot_commands(i18n, i18n.default_locale, group=group), scope=scope)
        for locale in SUPPORTED_LANGUAGES:
            await bot.set_my_commands(bot_commands(i18n, locale, group=group), scope=scope, language_code=locale)


def read_number(word: str, max_digits: int) -> int | None:
    """Return the whole number ``word`` writes in decimal digits of any script (``5``, ``١٢``, ``５``), the same
    digits the typed-move parser reads (:mod:`nardy.notation`); None for anything else: other number characters
    (``²``, ``①``, ``Ⅻ``: ``str.isdigit`` accepts some, ``int()`` refuses them all), signs, ``_``, spaces, an empty
    word or one of more than ``max_digits`` digits."""
    if not 0 < len(word) <= max_digits or not word.isdecimal():
        return None
    return int(word)  # int() reads exactly the characters str.isdecimal accepts (Unicode category Nd)
