"""``/export [game]``: send the files of a game's record (:mod:`bot.services.export`)."""

from __future__ import annotations

from typing import Any

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.methods import SendDocument
from aiogram.types import BufferedInputFile, Message

from bot.services.export import export_answer
from bot.services.game_service import GameService
from bot.texts import norm_lang, tr


async def on_export(message: Message, command: CommandObject, game_service: GameService, **data: Any) -> None:
    """Answer ``/export``: with a game id, that game; alone, the sender's game in this chat."""
    user = message.from_user
    if user is None:
        return
    lang = norm_lang(data.get("locale") or user.language_code)
    words = (command.args or "").split()
    game_id = words[0][:64] if words else None
    if game_id is None:
        stored = await game_service.find_game(message.chat.id, user.id)
        game_id = stored.game_id if stored is not None else None
    if game_id is None:
        await game_service.reply(message, tr(lang, "export.usage"))
        return
    answer = await export_answer(game_service.store, game_id, message.chat.id, user.id, lang)
    await game_service.reply(message, answer.text)
    for file in answer.files:
        document = BufferedInputFile(file.data, filename=file.filename)
        await game_service.send(SendDocument(chat_id=message.chat.id, document=document))


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_export, Command("export"))
    return router
