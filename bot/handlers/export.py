"""``/export [game]``: send the files of a game's record (:mod:`bot.services.export`); the same files follow the
📄 press of a ``/history`` line and of a finished board (:func:`send_export`)."""

from __future__ import annotations

import asyncio
import logging

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.methods import SendDocument, SendMessage
from aiogram.types import BufferedInputFile, Message, ReplyParameters

from bot.services.actions import GameActions
from bot.services.export import Exports
from bot.services.history import History
from bot.services.messaging import MessageSender, Replies
from bot.texts import norm_lang, tr

log = logging.getLogger(__name__)


async def send_export(
    exports: Exports,
    sender: MessageSender,
    message: Message,
    game_id: str,
    user_id: int,
    lang: str,
    *,
    quote: bool = True,
) -> None:
    """Answer a request of ``user_id`` for game ``game_id``'s record (from ``exports``) in the chat of
    ``message`` (as a reply to it when ``quote``): the answer text, then the files (or only a refusal), through
    ``sender``. The text and the files are queued together, each carrying the same notice, so that a shutdown that
    cannot send them answers "send /export again" in their place (:meth:`bot.sender.Sender.send`). Telegram errors
    are logged. Returns nothing.
    Raises: StoreUnavailableError."""
    answer = await exports.answer(game_id, message.chat.id, user_id, lang)
    chat_id = message.chat.id
    thread = message.message_thread_id if message.is_topic_message else None
    notice = (
        SendMessage(chat_id=chat_id, message_thread_id=thread, text=tr(lang, "export.restarting", game=game_id))
        if answer.files
        else None
    )
    reply = ReplyParameters(message_id=message.message_id, allow_sending_without_reply=True) if quote else None
    calls: list[SendMessage | SendDocument] = [
        SendMessage(chat_id=chat_id, message_thread_id=thread, text=answer.text, reply_parameters=reply)
    ]
    for file in answer.files:
        document = BufferedInputFile(file.data, filename=file.filename)
        calls.append(SendDocument(chat_id=chat_id, message_thread_id=thread, document=document))
    # gathered: each send is queued (in this order) before any is awaited, so a shutdown finds them all queued
    results = await asyncio.gather(*(sender.send(call, notice=notice) for call in calls), return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            log.info("the record of game %s was not sent: %r", game_id, result)


async def on_export(
    message: Message,
    command: CommandObject,
    exports: Exports,
    history: History,
    sender: MessageSender,
    replies: Replies,
    actions: GameActions,
    locale: str,
) -> None:
    """Answer ``/export``: with a game id, that game; alone, the sender's game running in this chat, else the last
    game they finished here."""
    user = message.from_user
    if user is None:
        return
    lang = norm_lang(locale)
    words = (command.args or "").split()
    game_id = words[0][:64] if words else None
    if game_id is None:
        game_id = await actions.find_game(message.chat.id, user.id)
    if game_id is None:
        finished = await history.entries(message.chat.id, user.id, lang)
        game_id = finished[0].game_id if finished else None
    if game_id is None:
        await replies.reply(message, tr(lang, "export.usage"))
        return
    await send_export(exports, sender, message, game_id, user.id, lang)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_export, Command("export"))
    return router
