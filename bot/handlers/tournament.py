"""``/tournament`` (``/турнир``): the creation card, the registration card's buttons, and the tournament menu
during play (standings, my match, pairings, withdraw, watch a match); ``/tournament last`` shows the last table.

Every button press is answered at once with a toast; what it changes is shown by editing the cards (see
:mod:`bot.services.tournaments.service`). Who may create a tournament: the chat's admins, or anyone when the chat's
``/settings`` say so (``tournaments``: ``anyone``).
"""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.methods import DeleteMessage, EditMessageText, SendMessage
from aiogram.types import CallbackQuery, Message, User

from bot.commands import read_number
from bot.handlers.challenge import display_name
from bot.handlers.identity import is_proxy_user, proxy_refusal
from bot.handlers.settings import is_admin
from bot.keyboards.tournament import ARENA_CODE, SetupCb, TourCb, menu_keyboard, next_settings, setup_keyboard
from bot.model.arena import DEFAULT_CLOCK, ArenaSettings
from bot.model.clock import ClockError, clock_in
from bot.model.game import PlayerInfo, topic_of
from bot.model.settings import ChatSettings
from bot.model.tournament import TournamentRecord, TournamentRecordError, TournamentSettings
from bot.services.arena.service import Arenas
from bot.services.boards import BoardPresenter
from bot.services.game_config import GameConfig
from bot.services.messaging import SEND_FAILURES, Replies
from bot.services.preferences import Preferences
from bot.services.tournaments import chat_views as views
from bot.services.tournaments.messages import TournamentMessages
from bot.services.tournaments.records import TournamentRecordKeeper
from bot.services.tournaments.service import Tournaments
from bot.texts import norm_lang, tr
from bot.variants import is_offered

log = logging.getLogger(__name__)

DEEP_LINK = r"^t_[A-Za-z0-9_-]{10}$"
"""The payload of ``/start`` from a registration card's "open the bot" button."""


def _person(user: User, lang: str) -> PlayerInfo:
    return PlayerInfo(user.id, display_name(user), lang)


async def may_create(bot: Bot, chat_settings: ChatSettings, chat_id: int, user_id: int) -> bool:
    """Return whether the user may create a tournament in the chat: an admin, or anyone if the chat's settings
    ``chat_settings`` allow."""
    if chat_settings.anyone_creates_tournaments:
        return True
    return await is_admin(bot, chat_id, user_id)


# ====================================================================== /tournament


async def on_tournament(
    message: Message,
    command: CommandObject,
    bot: Bot,
    preferences: Preferences,
    replies: Replies,
    tournaments: Tournaments,
    locale: str,
) -> None:
    """Answer ``/tournament [last | clock D+r]``: in a group, the running tournament's standings and menu, its
    registration card, or (no tournament) the creation card — with ``clock D+r``, of a tournament on that clock (an
    invalid clock is answered with the limits); ``last``: the last finished table. In private: a hint."""
    user = message.from_user
    lang = norm_lang(locale)
    refusal = proxy_refusal(message, lang)
    if user is None or refusal:
        await replies.reply(message, refusal or tr(lang, "toast.bad"))
        return
    if message.chat.type == ChatType.PRIVATE:
        await replies.reply(message, tr(lang, "tour.private"))
        return
    argument = (command.args or "").strip().lower()
    if argument in ("last", "последний", "прошлый"):
        await _show_last(message, replies, tournaments.records, tournaments.messages, lang)
        return
    try:
        clock = clock_in(argument)  # "/tournament clock 12+1": a tournament on a clock (docs/rules.md §1)
    except ClockError as error:
        await replies.reply(message, tr(lang, "clock.invalid", value=error.value))
        return
    if argument and (clock is None or len(argument.split()) != 2):
        await replies.reply(message, tr(lang, "tour.usage"))
        return
    running = await tournaments.records.running_in(message.chat.id)
    if running is not None:
        stored, record = running
        if record.status == "registration":
            await replies.reply(message, tr(lang, "tour.reg.open_already"))
            return
        await _send_standings(
            replies, tournaments.messages, message.chat.id, stored.tournament_id, record, lang, menu=True
        )
        return
    defaults = await preferences.chat(message.chat.id)
    if not await may_create(bot, defaults, message.chat.id, user.id):
        await replies.reply(message, tr(lang, "tour.admins_only"))
        return
    settings = TournamentSettings(clock=clock)
    if defaults.variant is not None and is_offered(defaults.variant):
        settings = TournamentSettings(variant=defaults.variant, clock=clock)
    text, keyboard = views.setup_text(lang, settings), setup_keyboard(user.id, settings, lang)
    topic = tournament_topic(defaults)
    if topic is None or topic == topic_of(message):
        await replies.reply(message, text, keyboard=keyboard, quote=False)
        return
    try:  # the group gives tournaments a topic of their own: the card goes there
        await replies.send(
            SendMessage(chat_id=message.chat.id, text=text, reply_markup=keyboard, message_thread_id=topic)
        )
    except SEND_FAILURES as error:
        log.info("tournament card not sent to topic %s: %s", topic, error)
        await replies.reply(message, text, keyboard=keyboard, quote=False)
        return
    await replies.reply(message, tr(lang, "tour.in_topic"))


def tournament_topic(chat_settings: ChatSettings) -> int | None:
    """Return the forum topic the group gives its tournaments (``/settings`` in that topic), else None."""
    topic = chat_settings.tour_topic
    return topic if topic is not None and topic > 0 else None


async def _show_last(
    message: Message, replies: Replies, records: TournamentRecordKeeper, messages: TournamentMessages, lang: str
) -> None:
    last = await records.last_in(message.chat.id)
    if last is None:
        await replies.reply(message, tr(lang, "tour.last.none"))
        return
    stored, record = last
    await _send_standings(replies, messages, message.chat.id, stored.tournament_id, record, lang, menu=False)


async def _send_standings(
    replies: Replies,
    messages: TournamentMessages,
    chat_id: int,
    tournament_id: str,
    record: TournamentRecord,
    lang: str,
    *,
    menu: bool,
) -> None:
    """Post the standings (a large bracket's album first) with the menu when ``menu``: as a picture, or as text in
    a chat that takes no pictures (:meth:`TournamentMessages.send_standings`)."""
    tournament = record.tournament()
    keyboard = None
    if menu and not tournament.is_over:
        watch = [
            (views.pairing_line(record, m, mentions=False), str(index))
            for index, m in enumerate(tournament.playable())
            if m.id in record.games
        ]
        keyboard = menu_keyboard(tournament_id, lang, watch=watch, app_button=messages.app_button(tournament_id, lang))
    if not views.standings_shows_bracket(tournament):  # a large bracket: its album, then the table with the menu
        await messages.send_bracket(chat_id, record, tournament, lang)
    await messages.send_standings(chat_id, tournament_id, record, lang, keyboard=keyboard)


# ====================================================================== the creation card


async def on_setup(
    query: CallbackQuery,
    callback_data: SetupCb,
    preferences: Preferences,
    replies: Replies,
    tournaments: Tournaments,
    arenas: Arenas,
    locale: str,
) -> None:
    """A press on the creation card: change an option, open registration, or close the card (its owner only)."""
    lang = norm_lang(locale)
    message = query.message if isinstance(query.message, Message) else None
    if message is None or message.chat.type == ChatType.PRIVATE:
        await query.answer(tr(lang, "toast.bad"))
        return
    if query.from_user.id != callback_data.owner:
        await query.answer(tr(lang, "tour.setup.not_yours"), show_alert=True)
        return
    try:
        settings = callback_data.settings()
    except TournamentRecordError:
        await query.answer(tr(lang, "toast.bad"))
        return
    if callback_data.action == "x":
        await query.answer()
        await replies.edit(DeleteMessage(chat_id=message.chat.id, message_id=message.message_id))
        return
    if callback_data.action != "go":
        await query.answer()
        changed = next_settings(settings, callback_data.action)
        await replies.edit(
            EditMessageText(
                chat_id=message.chat.id,
                message_id=message.message_id,
                text=views.setup_text(lang, changed),
                reply_markup=setup_keyboard(callback_data.owner, changed, lang),
            )
        )
        return
    topic = tournament_topic(await preferences.chat(message.chat.id)) or topic_of(message)
    if callback_data.format == ARENA_CODE:  # the card's format "arena": the arena starts at once on this card
        arena = ArenaSettings(variant=settings.variant, clock=settings.clock or DEFAULT_CLOCK)
        arena_id = await arenas.actions.create(
            message.chat.id, _person(query.from_user, lang), arena, card_message_id=message.message_id, thread=topic
        )
        await query.answer(tr(lang, "arena.started" if arena_id else "tour.one_at_a_time"), show_alert=not arena_id)
        return
    tournament_id = await tournaments.registration.open_registration(
        message.chat.id, _person(query.from_user, lang), settings, message.message_id, thread=topic
    )
    if tournament_id is None:
        await query.answer(tr(lang, "tour.one_at_a_time"), show_alert=True)
        return
    await query.answer(tr(lang, "tour.reg.opened"))


# ====================================================================== registration and play


async def on_tour_button(
    query: CallbackQuery,
    callback_data: TourCb,
    bot: Bot,
    preferences: Preferences,
    replies: Replies,
    boards: BoardPresenter,
    game_config: GameConfig,
    tournaments: Tournaments,
    locale: str,
) -> None:
    """A press on a registration card or on the tournament menu. Always answered at once with a toast."""
    lang = norm_lang(locale)
    message = query.message if isinstance(query.message, Message) else None
    if message is None or is_proxy_user(query.from_user):
        await query.answer(tr(lang, "toast.bad"))
        return
    registration = tournaments.registration
    user = query.from_user
    tournament_id = callback_data.tournament_id
    action = callback_data.action
    loaded = await tournaments.records.load(tournament_id)
    if loaded is None or loaded[1].chat_id != message.chat.id:
        await query.answer(tr(lang, "tour.gone"))
        return
    record = loaded[1]
    if action == "join":
        toast = await registration.join(tournament_id, _person(user, lang))
        alert = False
        joined_private = toast == tr(lang, "tour.joined") and record.settings.venue == "private"
        if joined_private and not (await preferences.user(user.id)).dm:
            toast, alert = tr(lang, "tour.joined.open_bot"), True
        await query.answer(toast, show_alert=alert)
    elif action == "leave":
        await query.answer(await registration.leave(tournament_id, user.id, lang))
    elif action in ("start", "cancel", "add"):
        admin = user.id != record.organiser and await is_admin(bot, message.chat.id, user.id)
        if action == "start":
            toast = await registration.start(tournament_id, user.id, lang, admin=admin)
        elif action == "cancel":
            toast = await registration.cancel(tournament_id, user.id, lang, admin=admin)
        elif callback_data.arg in ("easy", "medium", "hard"):
            toast = await registration.add_computer(tournament_id, user.id, callback_data.arg, lang, admin=admin)
        else:
            toast = tr(lang, "toast.bad")
        await query.answer(toast)
    elif action == "quit":
        await query.answer(await registration.withdraw(tournament_id, user.id, lang), show_alert=True)
    elif action in ("table", "pairs", "mine", "watch"):
        await _menu(query, callback_data, replies, boards, game_config, tournaments.messages, record, lang)
    else:
        await query.answer(tr(lang, "toast.bad"))


async def _menu(
    query: CallbackQuery,
    callback_data: TourCb,
    replies: Replies,
    boards: BoardPresenter,
    game_config: GameConfig,
    messages: TournamentMessages,
    record: TournamentRecord,
    lang: str,
) -> None:
    message = query.message
    assert isinstance(message, Message)
    if record.status not in ("running", "finished"):
        await query.answer(tr(lang, "tour.not_started"))
        return
    tournament = record.tournament()
    action = callback_data.action
    if action == "table":
        await query.answer()
        await _send_standings(replies, messages, message.chat.id, callback_data.tournament_id, record, lang, menu=False)
    elif action == "pairs":
        await query.answer()
        text = views.pairings_text(lang, record, tournament, game_config.clock())
        await replies.reply(message, text, quote=False)
    elif action == "mine":
        entrant = record.person(query.from_user.id)
        mine = (
            None
            if entrant is None
            else next((m for m in tournament.playable() if entrant.pid in (m.first, m.second)), None)
        )
        if entrant is None:
            await query.answer(tr(lang, "tour.not_in"), show_alert=True)
        elif mine is None:
            await query.answer(tr(lang, "tour.mine.none"), show_alert=True)
        else:
            opponent = views.plain(record.entrant(mine.opponent(entrant.pid)))
            where = tr(lang, f"tour.mine.where.{record.settings.venue}")
            await query.answer(tr(lang, "tour.mine", opponent=opponent, where=where), show_alert=True)
    else:
        playing = [m for m in tournament.playable() if m.id in record.games]
        index = read_number(callback_data.arg, 3)
        if index is None or not 0 <= index < len(playing):
            await query.answer(tr(lang, "tour.watch.over"))
            return
        sent = await boards.show_to(record.games[playing[index].id], query.from_user.id, lang)
        await query.answer(tr(lang, "tour.watch.sent" if sent else "tour.watch.open_bot"), show_alert=not sent)


async def on_deep_link(message: Message, preferences: Preferences, replies: Replies, locale: str) -> None:
    """``/start t_<id>`` from a registration card: the bot may now write to this person; say so."""
    lang = norm_lang(locale)
    if message.from_user is not None:
        await preferences.allow_messages(message.from_user.id)
    await replies.send(SendMessage(chat_id=message.chat.id, text=tr(lang, "tour.dm.ready")))


def create_router() -> Router:
    """Return a new router with this module's handlers."""
    router = Router(name=__name__)
    router.message.register(
        on_deep_link, CommandStart(deep_link=True, magic=F.args.regexp(DEEP_LINK)), F.chat.type == ChatType.PRIVATE
    )
    router.message.register(on_tournament, Command("tournament", "турнир"))
    router.callback_query.register(on_setup, SetupCb.filter())
    router.callback_query.register(on_tour_button, TourCb.filter())
    return router
