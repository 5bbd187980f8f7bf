"""Playing against the computer: ``/new bot [variant] [easy|medium|hard] [match N]`` (private chats and groups:
the sender plays the computer in that chat) and the "Play against the computer" menu button (a chooser of the
variant and the level, short and medium by default, then Start)."""

from __future__ import annotations

import re

from aiogram import F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.methods import EditMessageReplyMarkup, EditMessageText, SendMessage
from aiogram.types import CallbackQuery, Message, User

from bot.config import Settings
from bot.handlers.challenge import named_variant, parse_new_args, player_of, pressed_offer, refused_match_length
from bot.handlers.identity import proxy_refusal
from bot.keyboards.callbacks import ComputerCb, MenuCb
from bot.keyboards.game import computer_keyboard
from bot.keyboards.menu import PLAY_COMPUTER
from bot.model.challenge import ComputerOffer
from bot.model.clock import ClockError, TimeControl, clock_in
from bot.model.game import ChatLink, topic_of
from bot.services.actions import GameActions
from bot.services.challenges import Challenges
from bot.services.engine_flow import options_for
from bot.services.messaging import Replies
from bot.services.players import COMPUTER_LEVELS, computer_player
from bot.services.preferences import Preferences
from bot.texts import norm_lang, tr
from bot.variants import DEFAULT, computer_levels, computer_plays, computer_variants

DEFAULT_LEVEL = "medium"
OFFER_TTL = 3600.0
BOT_WORDS = ("bot", "бот", "computer", "компьютер", "ai")
LEVEL_WORDS = {
    "easy": "easy",
    "лёгкий": "easy",
    "легкий": "easy",
    "medium": "medium",
    "средний": "medium",
    "hard": "hard",
    "сложный": "hard",
}
BOT_ARGS = re.compile(r"^\s*(" + "|".join(BOT_WORDS) + r")(\s|$)", re.IGNORECASE)


def is_bot_command(message: Message, command: CommandObject) -> bool:
    """Return whether ``/new`` asks for a game against the computer (``/new bot ...``)."""
    return bool(command.args and BOT_ARGS.match(command.args))


def computer_default(default_variant: str) -> str:
    """Return the chat's variant when the computer plays it, else short nardy."""
    return default_variant if computer_plays(default_variant) else DEFAULT


def parse_bot_args(args: str | None, default_variant: str = DEFAULT) -> tuple[str, str, int]:
    """Return ``(variant, level, match length)`` of ``/new bot`` arguments like ``bot long hard`` (defaults: the
    chat's variant when the computer plays it, else short; medium, a single game; unknown words are ignored). A
    variant named explicitly is returned even when the computer does not play it (the caller says so)."""
    variant, length = parse_new_args(args, default_variant)
    if named_variant(args) is None:
        variant = computer_default(variant)
    level = DEFAULT_LEVEL
    for word in (args or "").lower().split()[:8]:
        level = LEVEL_WORDS.get(word, level)
    return variant, level, length


async def start_against_computer(
    chat_id: int,
    chat_type: str,
    user: User,
    variant: str,
    level: str,
    length: int,
    preferences: Preferences,
    actions: GameActions,
    *,
    locale: str | None = None,
    thread: int | None = None,
    clock: TimeControl | None = None,
) -> str | None:
    """Start a game of ``user`` (white, player 0) against the computer of ``level`` in the chat (in forum topic
    ``thread``, if any), with one board; ``clock``: the person's time control (the computer has none).

    Returns: the game id, or None when a games limit refused it (the chat was told). Raises: StoreUnavailableError.
    """
    human = player_of(user, locale)
    level = level if level in COMPUTER_LEVELS else DEFAULT_LEVEL
    available = computer_levels(variant)
    if level not in available and available:
        level = available[-1]  # e.g. no hard network for this game yet: the strongest level there is, named so
    computer = computer_player(level, human.lang)
    defaults = await preferences.chat(chat_id)
    return await actions.start_game(
        variant,
        length,
        [human, computer],
        [ChatLink(chat_id, viewer=0, thread=thread)],
        kind="private" if chat_type == ChatType.PRIVATE else "group",
        confirm=bool(defaults.confirm),
        options=options_for(variant, defaults),
        clock=clock,
    )


async def on_new_bot(
    message: Message,
    command: CommandObject,
    preferences: Preferences,
    replies: Replies,
    actions: GameActions,
    locale: str,
) -> None:
    """``/new bot [variant] [easy|medium|hard] [match N] [clock D+r]``: the sender plays the computer in this chat (a
    variant the computer does not play yet is answered with the list of those it plays; a bad clock with the
    limits)."""
    if message.from_user is None:
        return
    refusal = proxy_refusal(message, locale)
    if refusal:
        await replies.reply(message, refusal)
        return
    if await refused_match_length(message, command, replies, locale):
        return
    defaults = await preferences.chat(message.chat.id)
    variant, level, length = parse_bot_args(command.args, defaults.variant or DEFAULT)
    try:
        clock = clock_in(command.args)
    except ClockError as error:
        await replies.reply(message, tr(norm_lang(locale), "clock.invalid", value=error.value))
        return
    if not computer_plays(variant):
        lang = norm_lang(locale)
        plays = ", ".join(tr(lang, f"variant.{v}") for v in computer_variants())
        await replies.reply(
            message, tr(lang, "computer.unsupported", variant=tr(lang, f"variant.{variant}"), variants=plays)
        )
        return
    await start_against_computer(
        message.chat.id,
        message.chat.type,
        message.from_user,
        variant,
        level,
        length,
        preferences,
        actions,
        locale=locale,
        thread=topic_of(message),
        clock=clock,
    )


async def on_menu_computer(
    query: CallbackQuery,
    challenges: Challenges,
    preferences: Preferences,
    replies: Replies,
    settings: Settings,
    locale: str,
) -> None:
    """The "Play against the computer" button: send the chooser (an open offer, like a challenge)."""
    await query.answer()
    if not isinstance(query.message, Message):
        return
    lang = norm_lang(locale)
    chat_id = query.message.chat.id
    defaults = await preferences.chat(chat_id)
    variant = computer_default(defaults.variant or DEFAULT)
    ttl = float(getattr(settings, "challenge_ttl", OFFER_TTL))
    offer_id = await challenges.create(ComputerOffer(chat_id), ttl=ttl)
    await replies.send(
        SendMessage(
            chat_id=chat_id,
            text=tr(lang, "computer.choose"),
            reply_markup=computer_keyboard(offer_id, variant, DEFAULT_LEVEL, lang),
        )
    )


async def on_computer_button(
    query: CallbackQuery,
    callback_data: ComputerCb,
    challenges: Challenges,
    preferences: Preferences,
    replies: Replies,
    actions: GameActions,
    locale: str,
) -> None:
    """A press on the chooser: tick another variant or level, or Start (once: the offer is claimed atomically).

    Only a computer offer, pressed in its own chat, is acted on: a forged button carrying a challenge's id (or
    pressed elsewhere) is refused and nothing is claimed."""
    lang = norm_lang(locale)
    message = query.message if isinstance(query.message, Message) else None
    offer_id, variant, level = callback_data.offer_id, callback_data.variant, callback_data.level
    if not computer_plays(variant):
        await query.answer(tr(lang, "toast.bad"))
        return
    chooser = await pressed_offer(query, challenges, offer_id, ComputerOffer, lang)
    if chooser is None:
        return
    if callback_data.action == "pick":
        await query.answer()
        if message is not None:
            await replies.edit(
                EditMessageReplyMarkup(
                    chat_id=message.chat.id,
                    message_id=message.message_id,
                    reply_markup=computer_keyboard(offer_id, variant, level, lang),
                )
            )
        return
    if not await challenges.claim(offer_id):
        await query.answer(tr(lang, "toast.challenge_gone"))
        return
    await query.answer()
    chat_id = chooser.chat_id  # the chat the press came from
    chat_type = query.message.chat.type if query.message is not None else ChatType.PRIVATE
    human = player_of(query.from_user, locale)
    if message is not None:
        text = tr(
            lang,
            "computer.started",
            name=human.name,
            computer=computer_player(level, lang).name,
            variant=tr(lang, f"variant.{variant}"),
        )
        await replies.edit(EditMessageText(chat_id=chat_id, message_id=message.message_id, text=text))
    await start_against_computer(
        chat_id,
        chat_type,
        query.from_user,
        variant,
        level,
        0,
        preferences,
        actions,
        locale=locale,
        thread=topic_of(message),
    )


def create_router() -> Router:
    """Return a new router with this module's handlers (it goes before the challenge router, which has ``/new``)."""
    router = Router(name=__name__)
    router.message.register(on_new_bot, Command("new"), is_bot_command)
    router.callback_query.register(on_menu_computer, MenuCb.filter(F.action == PLAY_COMPUTER))
    router.callback_query.register(on_computer_button, ComputerCb.filter())
    return router
