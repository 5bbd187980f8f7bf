"""``/analyze [game]``: the post-game analysis of a finished game (:mod:`bot.services.analysis`): a summary per
player and the worst plays as boards in one album."""

from __future__ import annotations

import logging
from typing import Any

from aiogram import Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject
from aiogram.methods import SendMediaGroup, SendPhoto
from aiogram.types import BufferedInputFile, InputMediaPhoto, Message

from bot.services.analysis import Analyses
from bot.services.history import History
from bot.services.messaging import Replies
from bot.texts import norm_lang, tr

log = logging.getLogger(__name__)


async def on_analyze(
    message: Message, command: CommandObject, analyses: Analyses, history: History, replies: Replies, locale: str
) -> None:
    """Answer ``/analyze``: with a game id, that game; alone, the sender's last finished game in this chat."""
    user = message.from_user
    if user is None:
        return
    lang = norm_lang(locale)
    words = (command.args or "").split()
    game_id = words[0][:64] if words else None
    if game_id is None:
        entries = await history.entries(message.chat.id, user.id, lang)
        game_id = entries[0].game_id if entries else None
    if game_id is None:
        await replies.reply(message, tr(lang, "analysis.usage"))
        return
    answer = await analyses.answer(game_id, message.chat.id, user.id, lang)
    await replies.reply(message, answer.text)
    if not answer.boards:
        return
    media: list[Any] = [
        InputMediaPhoto(media=BufferedInputFile(photo, filename=f"play{i}.jpg"), caption=caption)
        for i, (photo, caption) in enumerate(answer.boards)
    ]
    try:
        if len(media) == 1:  # an album needs two pictures at least
            photo, caption = answer.boards[0]
            file = BufferedInputFile(photo, filename="play.jpg")
            await replies.send(SendPhoto(chat_id=message.chat.id, photo=file, caption=caption))
        else:
            await replies.send(SendMediaGroup(chat_id=message.chat.id, media=media))
    except TelegramAPIError as error:
        log.info("the boards of the analysis of game %s could not be sent: %s", game_id, error)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_analyze, Command("analyze", "analyse"))
    return router
