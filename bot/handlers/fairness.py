"""``/verify [game]``: the dice commitment of a running game; the revealed seeds, the check of every roll and the
exported record of a finished one (:mod:`bot.services.fairness`)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.methods import SendDocument
from aiogram.types import BufferedInputFile, Message

from bot.services.actions import GameActions
from bot.services.fairness import Fairness
from bot.services.messaging import Replies
from bot.texts import norm_lang, tr


async def on_verify(
    message: Message,
    command: CommandObject,
    fairness: Fairness,
    replies: Replies,
    actions: GameActions,
    locale: str,
) -> None:
    """Answer ``/verify``: with a game id, that game; alone, the sender's game in this chat."""
    user = message.from_user
    lang = norm_lang(locale)
    words = (command.args or "").split()
    game_id = words[0] if words else None
    if game_id is None and user is not None:
        game_id = await actions.find_game(message.chat.id, user.id)
    if game_id is None:
        await replies.reply(message, tr(lang, "fair.usage"))
        return
    answer = await fairness.answer(game_id[:64], lang)
    await replies.reply(message, answer.text)
    if answer.file is not None:
        document = BufferedInputFile(answer.file, filename=answer.filename or "record.json")
        await replies.send(SendDocument(chat_id=message.chat.id, document=document))


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_verify, Command("verify"))
    return router
