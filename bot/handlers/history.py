"""``/history``: the user's last finished games in the chat, each with a Replay and an Export button; the replay
is one photo message whose ⏮ ◀ ▶ ⏭ buttons step through the game (:mod:`bot.services.history`)."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command
from aiogram.methods import EditMessageMedia, SendPhoto
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)

from bot.handlers.export import send_export
from bot.keyboards.callbacks import HistoryCb, ReplayCb
from bot.model.game import RecordError
from bot.services.boards import render_photo
from bot.services.export import Exports
from bot.services.game_config import GameConfig
from bot.services.history import History, frame_caption, frame_match, replay_frames
from bot.services.messaging import MessageSender, Replies
from bot.texts import norm_lang, tr
from nardy import NardyError

log = logging.getLogger(__name__)


async def on_history(message: Message, history: History, replies: Replies, locale: str) -> None:
    """List the sender's last finished games in this chat."""
    user = message.from_user
    if user is None:
        return
    lang = norm_lang(locale)
    entries = await history.entries(message.chat.id, user.id, lang)
    if not entries:
        await replies.reply(message, tr(lang, "history.none"))
        return
    lines: list[str] = [tr(lang, "history.title")]
    rows: list[list[InlineKeyboardButton]] = []
    for number, entry in enumerate(entries, start=1):
        lines.append(f"{number}. {entry.line}")
        rows.append(
            [
                InlineKeyboardButton(
                    text=f"▶ {number}", callback_data=HistoryCb(game_id=entry.game_id, action="replay").pack()
                ),
                InlineKeyboardButton(
                    text=f"📄 {number}", callback_data=HistoryCb(game_id=entry.game_id, action="export").pack()
                ),
            ]
        )
    await replies.reply(message, "\n".join(lines), keyboard=InlineKeyboardMarkup(inline_keyboard=rows))


def _nav(game_id: str, index: int, last: int) -> InlineKeyboardMarkup:
    targets = [("⏮", 0), ("◀", max(0, index - 1)), ("▶", min(last, index + 1)), ("⏭", last)]
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=label, callback_data=ReplayCb(game_id=game_id, frame=target).pack())
                for label, target in targets
            ]
        ]
    )


async def _frame(
    history: History, config: GameConfig, game_id: str, index: int, lang: str
) -> tuple[bytes, str, InlineKeyboardMarkup] | None:
    """Return the photo, caption and buttons of frame ``index`` (clamped), or None when the game is gone."""
    try:
        record = await history.finished(game_id)
        if record is None:
            return None
        frames = replay_frames(record.match)
        if not frames:
            return None
        index = min(index, len(frames) - 1)
        match = frame_match(record.match, frames[index])
    except (RecordError, NardyError):
        log.warning("the replay of game %s cannot be built", game_id)
        return None
    record.pending_steps = []
    photo = await render_photo(config, record, match, None, lang)
    return photo, frame_caption(record, frames, index, lang, game_id), _nav(game_id, index, len(frames) - 1)


async def on_history_button(
    query: CallbackQuery,
    callback_data: HistoryCb,
    history: History,
    exports: Exports,
    sender: MessageSender,
    replies: Replies,
    game_config: GameConfig,
    locale: str,
) -> None:
    """Start a replay (a new photo message at the first frame) or send the game's record files (as ``/export``
    does)."""
    lang = norm_lang(locale)
    message = query.message if isinstance(query.message, Message) else None
    if message is None:
        await query.answer(tr(lang, "toast.bad"))
        return
    if callback_data.action == "export":  # also the 📄 Record button of a finished board
        await query.answer()
        await send_export(exports, sender, message, callback_data.game_id, query.from_user.id, lang, quote=False)
        return
    shown = await _frame(history, game_config, callback_data.game_id, 0, lang)
    if shown is None:
        await query.answer(tr(lang, "history.gone"))
        return
    await query.answer()
    photo, caption, keyboard = shown
    try:
        await replies.send(
            SendPhoto(
                chat_id=message.chat.id,
                photo=BufferedInputFile(photo, filename="replay.jpg"),
                caption=caption,
                reply_markup=keyboard,
            )
        )
    except TelegramAPIError as error:
        log.info("the replay of game %s could not be sent: %s", callback_data.game_id, error)


async def on_replay_button(
    query: CallbackQuery,
    callback_data: ReplayCb,
    history: History,
    replies: Replies,
    game_config: GameConfig,
    locale: str,
) -> None:
    """Show another frame of a replay on the same message."""
    lang = norm_lang(locale)
    message = query.message if isinstance(query.message, Message) else None
    if message is None:
        await query.answer(tr(lang, "toast.bad"))
        return
    await query.answer()  # at once: rendering the frame takes a moment
    shown = await _frame(history, game_config, callback_data.game_id, callback_data.frame, lang)
    if shown is None:
        return
    photo, caption, keyboard = shown
    try:
        await replies.edit(
            EditMessageMedia(
                chat_id=message.chat.id,
                message_id=message.message_id,
                media=InputMediaPhoto(media=BufferedInputFile(photo, filename="replay.jpg"), caption=caption),
                reply_markup=keyboard,
            )
        )
    except TelegramAPIError as error:
        log.info("a replay frame of game %s could not be shown: %s", callback_data.game_id, error)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_history, Command("history"))
    router.callback_query.register(on_history_button, HistoryCb.filter())
    router.callback_query.register(on_replay_button, ReplayCb.filter())
    return router
