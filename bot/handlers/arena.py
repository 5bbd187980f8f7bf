"""``/arena`` (``/арена``): an arena in a group (docs/rules.md "Arena"), and the buttons of its card and of the notice
to a paused player (join, leave, pause, back). The tournament creation card's format "arena" starts one too
(:mod:`bot.handlers.tournament`).

Every button press is answered at once with a toast; what it changes is shown by the arena's reconciler (the card is
edited rarely, within the group's message budget: :mod:`bot.services.arena.reconcile`). Who may start an arena: as
for a tournament, the chat's admins, or anyone when the chat's ``/settings`` say so.
"""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, User

from bot.commands import read_number
from bot.handlers.challenge import display_name
from bot.handlers.identity import is_proxy_user, proxy_refusal
from bot.handlers.tournament import may_create, tournament_topic
from bot.keyboards.arena import ArenaCb
from bot.model.arena import DEFAULT_CLOCK, MAX_MINUTES, MIN_MINUTES, ArenaSettings
from bot.model.clock import CLOCK_WORDS, ClockError, clock_in
from bot.model.game import PlayerInfo, topic_of
from bot.services.arena import texts as arena_texts
from bot.services.arena.service import Arenas
from bot.services.game_config import GameConfig
from bot.services.messaging import Replies
from bot.services.preferences import Preferences
from bot.texts import norm_lang, tr
from bot.variants import is_offered, resolve

STATUS_WORDS = ("status", "статус", "марс")
"""Words of ``/arena`` that turn status scoring on (+1 марс/gammon, +2 кокс/backgammon)."""


def _person(user: User, lang: str) -> PlayerInfo:
    return PlayerInfo(user.id, display_name(user), lang)


def parse_arena(args: str, default_variant: str) -> ArenaSettings | None:
    """Return the settings ``/arena [game] [minutes] [clock D+r] [status]`` asks for (defaults: ``default_variant``,
    60 minutes, the 12+2 clock), or None when a word is not understood or a value is out of range.

    Raises: ClockError for a clock that cannot be used."""
    clock = clock_in(args) or DEFAULT_CLOCK
    words = args.split()
    variant, minutes, status = default_variant, ArenaSettings().minutes, False
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        lowered = word.lower()
        if lowered in CLOCK_WORDS:
            skip = True
            continue
        number = read_number(lowered, 3)
        named = resolve(lowered)
        if number is not None and MIN_MINUTES <= number <= MAX_MINUTES:
            minutes = number
        elif named is not None and is_offered(named):
            variant = named
        elif lowered in STATUS_WORDS:
            status = True
        else:
            return None
    return ArenaSettings(variant=variant, minutes=minutes, clock=clock, status_bonus=status)


async def on_arena(
    message: Message,
    command: CommandObject,
    bot: Bot,
    preferences: Preferences,
    replies: Replies,
    arenas: Arenas,
    game_config: GameConfig,
    locale: str,
) -> None:
    """Answer ``/arena [game] [minutes] [clock D+r] [status]`` in a group: start the group's arena (its card is posted
    by the arena itself), or, while one runs, show its standings. In private: a hint."""
    user = message.from_user
    lang = norm_lang(locale)
    refusal = proxy_refusal(message, lang)
    if user is None or refusal:
        await replies.reply(message, refusal or tr(lang, "toast.bad"))
        return
    if message.chat.type == ChatType.PRIVATE:
        await replies.reply(message, tr(lang, "arena.private"))
        return
    running = await arenas.records.running_in(message.chat.id)
    if running is not None:
        await replies.reply(message, arena_texts.standings_text(lang, running[1], game_config.clock()), quote=False)
        return
    defaults = await preferences.chat(message.chat.id)
    variant = defaults.variant if defaults.variant is not None and is_offered(defaults.variant) else "short"
    try:
        settings = parse_arena(command.args or "", variant)
    except ClockError as error:
        await replies.reply(message, tr(lang, "clock.invalid", value=error.value))
        return
    if settings is None:
        await replies.reply(message, tr(lang, "arena.usage"))
        return
    if not await may_create(bot, defaults, message.chat.id, user.id):
        await replies.reply(message, tr(lang, "tour.admins_only"))
        return
    topic = tournament_topic(defaults) or topic_of(message)
    arena_id = await arenas.actions.create(message.chat.id, _person(user, lang), settings, thread=topic)
    if arena_id is None:
        await replies.reply(message, tr(lang, "arena.one_at_a_time"))


async def on_arena_button(
    query: CallbackQuery, callback_data: ArenaCb, preferences: Preferences, arenas: Arenas, locale: str
) -> None:
    """A press on an arena's card (join, leave, pause, back) or on a paused player's notice (back). Always answered
    at once with a toast."""
    lang = norm_lang(locale)
    if is_proxy_user(query.from_user):
        await query.answer(tr(lang, "toast.bad"))
        return
    person = _person(query.from_user, lang)
    arena_id, action = callback_data.arena_id, callback_data.action
    if action == "join":
        toast = await arenas.join(arena_id, person)
        if toast == tr(lang, "arena.joined") and not (await preferences.user(person.id)).dm:
            await query.answer(tr(lang, "arena.joined.open_bot"), show_alert=True)
            return
    elif action == "leave":
        toast = await arenas.leave(arena_id, person)
    elif action == "pause":
        toast = await arenas.pause(arena_id, person)
    else:
        toast = await arenas.resume(arena_id, person)
    await query.answer(toast)


def create_router() -> Router:
    """Return a new router with this module's handlers."""
    router = Router(name=__name__)
    router.message.register(on_arena, Command("arena", "арена"))
    router.callback_query.register(on_arena_button, ArenaCb.filter())
    return router
