"""The lobby (docs/rules.md "Lobby"): ``/play [game] [clock] [more]`` in a private chat (in a group: where to go),
the deep link ``?start=play``, the Cancel button of a seek, the buttons under a lobby game's final board (Rematch,
New opponent, Block, Report) and the operator's ``/reports``."""

from __future__ import annotations

import contextlib

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.methods import EditMessageReplyMarkup, SendMessage
from aiogram.types import CallbackQuery, Message

from bot.config import Settings
from bot.handlers.challenge import player_of
from bot.handlers.identity import proxy_refusal
from bot.keyboards.callbacks import LobbyCb
from bot.keyboards.lobby import PLAY_DEEP_LINK, private_chat_keyboard
from bot.metrics import Metrics
from bot.model.clock import ClockError
from bot.services.lobby.rules import PlayArgsError, parse_play
from bot.services.lobby.service import LobbyParts
from bot.services.lobby.status import CancelOutcome
from bot.services.messaging import SEND_FAILURES, Replies
from bot.texts import norm_lang, tr


async def _seek(message: Message, args: str | None, lobby: LobbyParts, replies: Replies, locale: str) -> None:
    user = message.from_user
    if user is None:
        return
    lang = norm_lang(locale)
    refusal = proxy_refusal(message, lang)
    if refusal:
        await replies.reply(message, refusal)
        return
    try:
        request = parse_play(args)
    except PlayArgsError as error:
        await replies.reply(message, tr(lang, "lobby.bad", word=error.word))
        return
    except ClockError as error:
        await replies.reply(message, tr(lang, "clock.invalid", value=error.value))
        return
    outcome = await lobby.lobby.seek(player_of(user, locale), request.variant, request.clock, more=request.more)
    if outcome.text:
        await replies.reply(message, outcome.text)


async def on_play(
    message: Message, command: CommandObject, lobby: LobbyParts, replies: Replies, bot: Bot, locale: str
) -> None:
    """``/play [game] [clock D+r] [more]``: seek an opponent (in a private chat); in a group, say where to go."""
    if message.chat.type != ChatType.PRIVATE:
        lang = norm_lang(locale)
        username = (await bot.me()).username
        await replies.reply(message, tr(lang, "lobby.group"), keyboard=private_chat_keyboard(username, lang))
        return
    await _seek(message, command.args, lobby, replies, locale)


async def on_play_link(message: Message, lobby: LobbyParts, replies: Replies, locale: str) -> None:
    """``/start play`` (the group's button to the private chat): seek with the defaults."""
    await _seek(message, None, lobby, replies, locale)


async def on_lobby_button(
    query: CallbackQuery,
    callback_data: LobbyCb,
    lobby: LobbyParts,
    replies: Replies,
    locale: str,
    metrics: Metrics | None = None,
) -> None:
    """Cancel under a "seeking…" message; Rematch, New opponent, Block and Report under a lobby game's board."""
    user = query.from_user
    lang = norm_lang(locale)
    action, ref = callback_data.action, callback_data.ref
    if action == "cancel":
        cancelled = await lobby.lobby.cancel(user.id)
        if cancelled is CancelOutcome.CANCELLED:
            await query.answer()
            return
        if cancelled is CancelOutcome.FOUND:  # too late: the pair stands, the board comes
            await query.answer(tr(lang, "lobby.cancel_too_late"))
            return
        await query.answer(tr(lang, "lobby.not_seeking"))
        message = query.message
        if isinstance(message, Message) and message.chat.id == user.id:  # an old seek's message: no button left
            await replies.edit(EditMessageReplyMarkup(chat_id=message.chat.id, message_id=message.message_id))
        return
    if not ref:
        await query.answer(tr(lang, "toast.bad"))
        return
    if action == "rematch":
        await query.answer(await lobby.after_game.rematch(ref, user.id, lang))
    elif action == "new":
        outcome = await lobby.after_game.new_opponent(ref, player_of(user, locale))
        await query.answer()
        if outcome.text:
            with contextlib.suppress(*SEND_FAILURES):
                await replies.send(SendMessage(chat_id=user.id, text=outcome.text))
    elif action == "block":
        await query.answer(await lobby.after_game.block(ref, user.id, lang))
    else:
        toast = await lobby.after_game.report(ref, user.id, lang)
        if toast is None:
            await query.answer(tr(lang, "toast.gone"))
            return
        if metrics is not None and toast == tr(lang, "lobby.reported"):
            metrics.lobby_reports.inc()
        await query.answer(toast)


async def on_reports(message: Message, lobby: LobbyParts, replies: Replies, settings: Settings, locale: str) -> None:
    """``/reports`` (the operator's, in a private chat): the lobby players reported by others, most first."""
    user = message.from_user
    lang = norm_lang(locale)
    if user is None or user.id not in settings.operator_ids:
        await replies.reply(message, tr(lang, "lobby.operator_only"))
        return
    counts = await lobby.reports.counts()
    if not counts:
        await replies.reply(message, tr(lang, "lobby.reports.none"))
        return
    lines = [tr(lang, "lobby.reports.title")]
    lines += [tr(lang, "lobby.reports.line", user=c.user_id, count=c.reports) for c in counts]
    await replies.reply(message, "\n".join(lines))


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_play, Command("play"))
    router.message.register(
        on_play_link, CommandStart(deep_link=True, magic=F.args == PLAY_DEEP_LINK), F.chat.type == ChatType.PRIVATE
    )
    router.message.register(on_reports, Command("reports"), F.chat.type == ChatType.PRIVATE)
    router.callback_query.register(on_lobby_button, LobbyCb.filter())
    return router
