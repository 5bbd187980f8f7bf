"""``/start`` and ``/help``: the welcome message with buttons to start a game, and the Language menu button.

The game buttons of the menu (new game, play against the computer, rules) are handled by the game flows
(``bot.handlers.challenge``, ``bot.handlers.computer``, ``bot.handlers.rules``)."""

from __future__ import annotations

import html

from aiogram import F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.methods import SendMessage
from aiogram.types import CallbackQuery, Message
from aiogram.utils.i18n import gettext as _

from bot.keyboards.callbacks import MenuCb
from bot.keyboards.menu import LANGUAGE, language_keyboard, main_menu_keyboard
from bot.sender import Sender


def welcome_text(first_name: str) -> str:
    """Return the welcome message (HTML, in the current language) for a user with this first name."""
    return _(
        "👋 Hi, {name}! I am a bot for playing <b>nardy</b> with friends: long nardy and short nardy "
        "(backgammon), a single game or a match.\n"
        "🎲 Eleven games in all: long and short nardy, tavli, Gul bara, acey-deucey and more — /rules names them "
        "all.\n\n"
        "Start a game with the buttons below and send the invitation to a friend, play against the computer, "
        "or add me to a group.\n\n"
        "/new — a new game (<code>/new long</code>, <code>/new short match 5</code>)\n"
        "/new bot — play against the computer (<code>/new bot long hard</code>)\n"
        "/help — what I can do\n"
        "/lang — change the language"
    ).format(name=html.escape(first_name))


def help_text() -> str:
    """Return the help message (HTML, in the current language)."""
    return (
        _(
            "<b>Nardy bot</b>\n\n"
            "I run games of long and short nardy and of their relatives (tavli, Gul bara, acey-deucey and more) "
            "between two people, or against the computer, in private chats or in a group. Moves are made with buttons "
            "under the board, or typed, like <code>13/7 8/7</code>.\n\n"
            "/start — welcome and a new game\n"
            "/new [game] [match N] — challenge someone (in a group: reply to a message to challenge its author)\n"
            "/new bot [game] [easy|medium|hard] — play against the computer\n"
            "/board, /resign, /stats, /rules, /settings — the board again, resign, wins and losses, rules, chat "
            "settings\n"
            "/help — this message\n"
            "/lang — change the language"
        )
        + "\n\n"
        + _(
            "<b>Eleven games</b>: long, short, nackgammon, hypergammon, Portes, Plakoto, Fevga, misère (backgammon "
            "to lose), Gul bara, acey-deucey and Dutch backgammon; and two kinds of match: Tavli (Portes, Plakoto "
            "and Fevga in turn) and mixed. E.g. <code>/new tavli match 5</code>, <code>/new bot plakoto</code>, "
            "<code>/rules gulbara</code>"
        )
        + "\n\n"
        + _(
            "<b>Tournaments and ratings</b>\n"
            "/tournament — in a group: create a tournament (round robin, Swiss, elimination), join it, see the "
            "standings; /tournament last — the last final table\n"
            "/rating — your ratings, per game\n"
            "/top [game] — the group's leaderboard"
        )
        + "\n\n"
        + _(
            "<b>Lobby</b>\n"
            "/play [game] [clock D+r] — in a private chat: an opponent of your strength from any chat of the bot, "
            "on a clock (12+2 unless you name one)"
        )
    )


async def start_private(message: Message, command: CommandObject, sender: Sender) -> None:
    """Answer /start in a private chat with the welcome and the main menu. A deep link that no game flow
    recognised (an expired or unknown invitation) is mentioned first. Returns nothing."""
    user = message.from_user
    text = welcome_text(user.first_name if user else "")
    if command.args:
        text = _("This invitation link is invalid or has expired.") + "\n\n" + text
    await sender.send(SendMessage(chat_id=message.chat.id, text=text, reply_markup=main_menu_keyboard()))


async def help_command(message: Message, sender: Sender) -> None:
    """Answer /help (anywhere) and /start in groups with the help text; the menu only in private chats.
    Returns nothing."""
    markup = main_menu_keyboard() if message.chat.type == ChatType.PRIVATE else None
    await sender.send(SendMessage(chat_id=message.chat.id, text=help_text(), reply_markup=markup))


async def menu_language(query: CallbackQuery, sender: Sender, locale: str | None = None) -> None:
    """Show the language keyboard in the chat of the pressed menu. Returns nothing."""
    await query.answer()
    if isinstance(query.message, Message):
        await sender.send(
            SendMessage(
                chat_id=query.message.chat.id,
                text=_("Choose your language:"),
                reply_markup=language_keyboard(locale),
            )
        )


def create_router() -> Router:
    """Return a new router with this module's handlers (a new one per Dispatcher, so several can coexist)."""
    router = Router(name=__name__)
    router.message.register(start_private, CommandStart(), F.chat.type == ChatType.PRIVATE)
    router.message.register(help_command, Command("help"))
    router.message.register(help_command, CommandStart())
    router.callback_query.register(menu_language, MenuCb.filter(F.action == LANGUAGE))
    return router
