"""``/resign``: the resigning player chooses a level; the opponent answers with Accept/Decline on the board.

The cube itself (Double, Take, Pass, Beaver, Raccoon) is played with the board buttons (``bot.handlers.game``).
"""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.handlers.identity import proxy_refusal
from bot.services.actions import GameActions
from bot.services.messaging import Replies
from bot.texts import norm_lang


async def on_resign(message: Message, actions: GameActions, replies: Replies, locale: str) -> None:
    """Offer the sender the resignation levels of their game in this chat."""
    if message.from_user is None:
        return
    lang = norm_lang(locale)
    proxy = proxy_refusal(message, lang)
    if proxy:
        await replies.reply(message, proxy)
        return
    refusal = await actions.offer_resign_menu(message.chat.id, message.from_user.id, lang)
    if refusal:
        await replies.reply(message, refusal)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_resign, Command("resign"))
    return router
