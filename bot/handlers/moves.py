"""Typed moves: ``13/7 8/7``, ``24-18 13-11``, ``бар/22`` from the player to move, in the game's chat."""

from __future__ import annotations

import re

from aiogram import F, Router
from aiogram.enums import ChatType
from aiogram.types import Message

from bot.config import Settings
from bot.handlers.identity import is_proxy_sender
from bot.services.actions import GameActions
from bot.services.chat_games import ChatGames
from bot.services.messaging import Replies
from bot.texts import norm_lang, tr

MAX_TEXT_MOVE = 200
MOVE_LIKE = re.compile(r"(\d{1,2}|bar|бар|off|оф|in|вв|ввод|res|резерв)\s*[/\-–—]", re.IGNORECASE)
"""In groups only messages that look like a move are taken as one (players chat there too)."""


async def on_text_move(
    message: Message,
    chat_games: ChatGames,
    replies: Replies,
    actions: GameActions,
    settings: Settings,
    locale: str,
) -> None:
    """Play the typed move, or reply with the engine's reason and some legal options.

    In private chats every text of a player with a game there is a move attempt; in groups only texts that look
    like a move (players chat there too). Texts longer than ``MAX_TEXT_MOVE_LENGTH`` are refused unparsed.
    """
    if message.from_user is None or message.text is None:
        return
    text = message.text
    limit = int(getattr(settings, "max_text_move_length", MAX_TEXT_MOVE))
    private = message.chat.type == ChatType.PRIVATE
    if not private and not MOVE_LIKE.search(text[: limit * 2]):
        return
    lang = norm_lang(locale)
    if is_proxy_sender(message):
        # a channel or an anonymous admin can have no game; answer only where a game is being played
        if private or await chat_games.any_in(message.chat.id):
            await replies.reply(message, tr(lang, "move.sender_chat"))
        return
    if await actions.find_game(message.chat.id, message.from_user.id) is None:
        return
    if len(text) > limit:
        await replies.reply(message, tr(lang, "move.too_long"))
        return
    reply = await actions.text_move(message.chat.id, message.from_user.id, text, lang)
    if reply:
        await replies.reply(message, reply)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_text_move, F.text, ~F.text.startswith("/"))
    return router
