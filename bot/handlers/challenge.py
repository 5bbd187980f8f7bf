"""Challenges: ``/new [variant] [match N]`` (any offered variant, see :mod:`bot.variants`) in a group (Join, or
Accept/Decline as a reply to someone; Cancel for the challenger) and in private (a deep link ``?start=c_<id>`` for
the opponent); the New game and More games menu buttons."""

from __future__ import annotations

import itertools
import re
from typing import TypeVar

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, User

from bot.commands import read_number
from bot.config import Settings
from bot.handlers.identity import is_proxy_user, proxy_refusal
from bot.keyboards.callbacks import ChallengeCb, MenuCb
from bot.keyboards.menu import MORE_GAMES, more_games_keyboard, new_action
from bot.model.challenge import ChallengeError, ComputerOffer, GroupChallenge, PrivateChallenge
from bot.model.clock import ClockError, TimeControl, clock_in
from bot.model.game import ChatLink, PlayerInfo, topic_of
from bot.services.actions import GameActions
from bot.services.challenges import Challenges
from bot.services.engine_flow import options_for
from bot.services.messaging import Replies
from bot.services.preferences import Preferences
from bot.texts import Html, norm_lang, tr
from bot.variants import DEFAULT, OFFERED, default_length, get_match_kind_games, is_offered, resolve
from rendering.names import MAX_NAME_LENGTH, drawable_name

CHALLENGE_TTL = 3600.0
MAX_MATCH_LENGTH = 25
DEEP_LINK = re.compile(r"^c_([A-Za-z0-9_-]{10})$")
MATCH_LENGTH_DIGITS = 6
"""A match length as typed: at most this many decimal digits of any script (:func:`bot.commands.read_number`)."""
VARIANTS = OFFERED


def named_variant(args: str | None) -> str | None:
    """Return the offered variant named in ``/new`` arguments (the last one named), or None when none is."""
    variant = None
    for word in (args or "").lower().split()[:8]:
        variant = resolve(word) or variant
    return variant


def parse_new_args(args: str | None, default_variant: str = DEFAULT) -> tuple[str, int]:
    """Return ``(variant, match length)`` from ``/new`` arguments like ``long match 5`` or ``поддавки match 3``
    (any alias of an offered variant or match kind, in either language; unknown words ignored). A Tavli match is
    to 7 points unless another length is asked; the mixed match is three games (and deciders), never a length."""
    variant = named_variant(args) or (default_variant if is_offered(default_variant) else DEFAULT)
    length = 0
    words = (args or "").lower().split()[:8]
    for i, word in enumerate(words):
        number = read_number(word, MATCH_LENGTH_DIGITS)
        if number is not None and i > 0 and words[i - 1] in ("match", "матч", "до"):
            length = max(0, min(MAX_MATCH_LENGTH, number))
    if get_match_kind_games(variant):
        return variant, 0  # a match of a fixed number of games has no length
    return variant, length or default_length(variant)


LENGTH_WORDS = ("match", "матч", "до")
"""The words a match length follows in ``/new`` arguments."""


def unread_match_length(args: str | None) -> str | None:
    """Return the word after ``match`` (``матч``, ``до``) in ``/new`` arguments that is no length in digits (``²``,
    ``five``), or None when every such word is one (or there is none): such a command is refused with the reason,
    never started as a single game."""
    words = (args or "").lower().split()[:8]
    for before, word in itertools.pairwise(words):
        if before in LENGTH_WORDS and read_number(word, MATCH_LENGTH_DIGITS) is None and resolve(word) is None:
            return word
    return None


async def refused_match_length(message: Message, command: CommandObject, replies: Replies, locale: str) -> bool:
    """Answer a ``/new`` whose match length cannot be read (:func:`unread_match_length`) with the reason; return
    whether it was refused (then nothing is created)."""
    word = unread_match_length(command.args)
    if word is None:
        return False
    await replies.reply(message, tr(norm_lang(locale), "match.bad_length", value=word, most=MAX_MATCH_LENGTH))
    return True


def display_name(user: User) -> str:
    """Return the name to show for a Telegram user: the first name (else the username, else the id) on one line,
    without control or invisible format characters, at most :data:`MAX_NAME_LENGTH` characters. It is plain
    text: :func:`bot.texts.tr` escapes it for HTML."""
    return drawable_name(user.first_name or user.username or str(user.id), MAX_NAME_LENGTH)


def player_of(user: User, locale: str | None = None) -> PlayerInfo:
    """Return the player record of a Telegram user (display name, language)."""
    return PlayerInfo(user.id, display_name(user), norm_lang(locale or user.language_code))


def _what(lang: str, variant: str, length: int, clock: TimeControl | None = None) -> tuple[str, str]:
    match = tr(lang, "challenge.match", length=length) if length else ""
    if clock is not None:
        match = Html(match + tr(lang, "challenge.clock", control=clock.label))
    return tr(lang, f"variant.{variant}"), match


def _ttl(settings: Settings | None) -> float:
    return float(getattr(settings, "challenge_ttl", CHALLENGE_TTL))


async def create_challenge(
    message_chat_id: int,
    chat_type: str,
    user: User,
    variant: str,
    length: int,
    challenges: Challenges,
    replies: Replies,
    bot: Bot,
    *,
    locale: str | None = None,
    opponent: User | None = None,
    ttl: float = CHALLENGE_TTL,
    thread: int | None = None,
    clock: TimeControl | None = None,
) -> None:
    """Post a challenge card in a group (in forum topic ``thread``, if any), or send the deep link in a private
    chat; ``clock``: the time control the game will be played on (None: none). Returns nothing."""
    challenger = player_of(user, locale)
    lang = challenger.lang
    what, match = _what(lang, variant, length, clock)
    if chat_type == ChatType.PRIVATE:
        challenge = PrivateChallenge(challenger, variant, length, clock=clock)
        challenge_id = await challenges.create(challenge, ttl=ttl)
        me = await bot.me()
        link = f"https://t.me/{me.username}?start=c_{challenge_id}"
        await replies.send(
            SendMessage(chat_id=message_chat_id, text=tr(lang, "challenge.link", link=link, variant=what, match=match))
        )
        return
    addressed = player_of(opponent) if opponent is not None else None
    card = GroupChallenge(challenger, variant, message_chat_id, length, addressed, clock=clock)
    challenge_id = await challenges.create(card, ttl=ttl, chat_id=message_chat_id)
    if addressed is not None:
        text = tr(
            lang,
            "challenge.card.to",
            name=challenger.name,
            opponent=addressed.name,
            variant=what,
            match=match,
        )
        buttons = [
            InlineKeyboardButton(
                text=tr(lang, "btn.accept"),
                callback_data=ChallengeCb(challenge_id=challenge_id, action="accept").pack(),
            ),
            InlineKeyboardButton(
                text=tr(lang, "btn.decline"),
                callback_data=ChallengeCb(challenge_id=challenge_id, action="decline").pack(),
            ),
        ]
    else:
        text = tr(lang, "challenge.card", name=challenger.name, variant=what, match=match)
        buttons = [
            InlineKeyboardButton(
                text=tr(lang, "btn.join"), callback_data=ChallengeCb(challenge_id=challenge_id, action="join").pack()
            )
        ]
    buttons.append(
        InlineKeyboardButton(
            text=tr(lang, "btn.cancel"), callback_data=ChallengeCb(challenge_id=challenge_id, action="cancel").pack()
        )
    )
    await replies.send(
        SendMessage(
            chat_id=message_chat_id,
            text=text,
            reply_markup=InlineKeyboardMarkup(inline_keyboard=[buttons]),
            message_thread_id=thread,
        )
    )


async def on_new(
    message: Message,
    command: CommandObject,
    challenges: Challenges,
    preferences: Preferences,
    replies: Replies,
    bot: Bot,
    settings: Settings,
    locale: str,
) -> None:
    """``/new [variant] [match N] [clock D+r]``: a challenge card (group) or an invitation link (private); a clock
    that cannot be used is answered with the limits and nothing is created."""
    if message.from_user is None:
        return
    refusal = proxy_refusal(message, locale)
    if refusal:
        await replies.reply(message, refusal)
        return
    if await refused_match_length(message, command, replies, locale):
        return
    defaults = await preferences.chat(message.chat.id)
    variant, length = parse_new_args(command.args, defaults.variant or DEFAULT)
    try:
        clock = clock_in(command.args)
    except ClockError as error:
        await replies.reply(message, tr(norm_lang(locale), "clock.invalid", value=error.value))
        return
    opponent = None
    reply = message.reply_to_message
    if (
        reply is not None
        and reply.from_user is not None
        and reply.sender_chat is None
        and not reply.from_user.is_bot
        and not is_proxy_user(reply.from_user)
        and reply.from_user.id != message.from_user.id
    ):
        opponent = reply.from_user
    await create_challenge(
        message.chat.id,
        message.chat.type,
        message.from_user,
        variant,
        length,
        challenges,
        replies,
        bot,
        locale=locale,
        opponent=opponent,
        ttl=_ttl(settings),
        thread=topic_of(message),
        clock=clock,
    )


async def on_menu_new(
    query: CallbackQuery,
    callback_data: MenuCb,
    challenges: Challenges,
    replies: Replies,
    bot: Bot,
    settings: Settings,
    locale: str,
) -> None:
    """The New game menu buttons (``new_<variant>``): like ``/new <variant>`` in the pressed message's chat."""
    await query.answer()
    if not isinstance(query.message, Message):
        return
    variant = callback_data.action.removeprefix("new_")
    if not is_offered(variant):
        return
    await create_challenge(
        query.message.chat.id,
        query.message.chat.type,
        query.from_user,
        variant,
        0,
        challenges,
        replies,
        bot,
        locale=locale,
        ttl=_ttl(settings),
        thread=topic_of(query.message),
    )


async def on_menu_more(query: CallbackQuery, replies: Replies, locale: str) -> None:
    """The More games menu button: send the chooser of the other variants to the pressed message's chat."""
    await query.answer()
    if not isinstance(query.message, Message):
        return
    lang = norm_lang(locale)
    await replies.send(
        SendMessage(chat_id=query.message.chat.id, text=tr(lang, "menu.more"), reply_markup=more_games_keyboard(lang))
    )


Offer = TypeVar("Offer", GroupChallenge, ComputerOffer)


async def pressed_offer(
    query: CallbackQuery, challenges: Challenges, offer_id: str, kind: type[Offer], lang: str
) -> Offer | None:
    """Return the open offer ``offer_id`` of ``kind`` (a group's challenge card or a computer chooser) when the press
    came from its own chat and from a person; otherwise answer the press ("gone" when it is no longer open, "bad"
    for a forged or misplaced button) and return None. Nothing is claimed. Raises: StoreUnavailableError."""
    try:
        offer = await challenges.get(offer_id)
    except ChallengeError:  # a forged or garbled one: refused below as any other kind is
        offer = None
    else:
        if offer is None:
            await query.answer(tr(lang, "toast.challenge_gone"))
            return None
    pressed_in = query.message.chat.id if query.message is not None else None
    if (
        not isinstance(offer, kind)
        or pressed_in is None
        or offer.chat_id != pressed_in
        or is_proxy_user(query.from_user)
    ):
        await query.answer(tr(lang, "toast.bad"))
        return None
    return offer


async def on_challenge_button(
    query: CallbackQuery,
    callback_data: ChallengeCb,
    challenges: Challenges,
    preferences: Preferences,
    replies: Replies,
    actions: GameActions,
    locale: str,
) -> None:
    """Join / Accept / Decline / Cancel on a challenge card: only on a group challenge's own card (a forged button
    carrying a computer offer's or a private challenge's id, or pressed in another chat, is refused unclaimed)."""
    user = query.from_user
    lang = norm_lang(locale)
    info = await pressed_offer(query, challenges, callback_data.challenge_id, GroupChallenge, lang)
    if info is None:
        return
    challenger = info.challenger
    opponent = info.opponent
    action = callback_data.action
    if action == "cancel":
        if user.id != challenger.id:
            await query.answer(tr(lang, "toast.not_challenger"))
            return
    elif user.id == challenger.id:
        await query.answer(tr(lang, "toast.own_challenge"))
        return
    elif opponent is not None and user.id != opponent.id:
        await query.answer(tr(lang, "toast.not_for_you"))
        return
    elif (opponent is None) != (action == "join"):  # Join is on open cards only, Accept/Decline on aimed ones
        await query.answer(tr(lang, "toast.bad"))
        return
    if not await challenges.claim(callback_data.challenge_id):
        await query.answer(tr(lang, "toast.challenge_gone"))
        return
    await query.answer()
    message = query.message if isinstance(query.message, Message) else None
    card_lang = challenger.lang
    if action in ("cancel", "decline"):
        key = "challenge.cancelled" if action == "cancel" else "challenge.declined"
        text = tr(card_lang, key, name=display_name(user))
        if message is not None:
            await replies.edit(EditMessageText(chat_id=message.chat.id, message_id=message.message_id, text=text))
        return
    first = PlayerInfo(challenger.id, challenger.name, challenger.lang)
    second = player_of(user, locale)
    defaults = await preferences.chat(info.chat_id)
    started = await actions.start_game(
        info.variant,
        info.length,
        [first, second],
        [ChatLink(info.chat_id, thread=topic_of(message))],
        kind="group",
        confirm=bool(defaults.confirm),
        options=options_for(info.variant, defaults),
        clock=info.clock,
    )
    if message is not None:  # a refused start (a game cap, answered in the chat) closes the card without a game
        key = "challenge.started" if started is not None else "toast.challenge_gone"
        await replies.edit(
            EditMessageText(
                chat_id=message.chat.id,
                message_id=message.message_id,
                text=tr(card_lang, key, a=first.name, b=second.name),
            )
        )


async def on_deep_link(
    message: Message,
    command: CommandObject,
    challenges: Challenges,
    replies: Replies,
    actions: GameActions,
    locale: str,
) -> None:
    """``/start c_<id>``: join a private challenge; the game is played in the two private chats."""
    user = message.from_user
    if user is None or command.args is None:
        return
    lang = norm_lang(locale)
    refusal = proxy_refusal(message, lang)
    if refusal:
        await replies.reply(message, refusal)
        return
    found = DEEP_LINK.match(command.args)
    if found is None:
        return
    challenge_id = found.group(1)
    try:
        info = await challenges.get(challenge_id)
    except ChallengeError:
        info = None
    if not isinstance(info, PrivateChallenge):
        await replies.reply(message, tr(lang, "toast.challenge_gone"))
        return
    challenger = info.challenger
    if challenger.id == user.id:
        await replies.reply(message, tr(lang, "toast.own_challenge"))
        return
    if not await challenges.claim(challenge_id):
        await replies.reply(message, tr(lang, "toast.challenge_gone"))
        return
    first = PlayerInfo(challenger.id, challenger.name, challenger.lang)
    second = player_of(user, locale)
    await actions.start_game(
        info.variant,
        info.length,
        [first, second],
        [ChatLink(first.id, viewer=0), ChatLink(message.chat.id, viewer=1)],
        kind="private",
        options=options_for(info.variant),
        clock=info.clock,
    )


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_new, Command("new"))
    router.callback_query.register(on_menu_new, MenuCb.filter(F.action.in_({new_action(v) for v in OFFERED})))
    router.callback_query.register(on_menu_more, MenuCb.filter(F.action == MORE_GAMES))
    router.callback_query.register(on_challenge_button, ChallengeCb.filter())
    router.message.register(
        on_deep_link, CommandStart(deep_link=True, magic=F.args.regexp(DEEP_LINK)), F.chat.type == ChatType.PRIVATE
    )
    return router
