"""``/stats``: the sender's (or the replied-to user's) wins, losses and draws in this chat against people,
and (counted apart, for all chats) against the computer."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.handlers.challenge import display_name
from bot.handlers.identity import is_proxy_user, proxy_refusal
from bot.services.messaging import Replies
from bot.services.player_stats import PlayerStats
from bot.texts import esc, norm_lang, tr


async def on_stats(message: Message, player_stats: PlayerStats, replies: Replies, locale: str) -> None:
    """Reply with the user's counters in the chat."""
    user = message.from_user
    if user is None:
        return
    lang = norm_lang(locale)
    refusal = proxy_refusal(message, lang)
    if refusal:
        await replies.reply(message, refusal)
        return
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None:
        if replied.sender_chat is not None or is_proxy_user(replied.from_user):
            await replies.reply(message, tr(lang, "move.sender_chat"))
            return
        user = replied.from_user
    summary = await player_stats.summary(message.chat.id, user.id)
    stats, computer, inline = summary.chat, summary.computer, summary.inline
    if not stats.played and not computer.played and not inline.played:
        await replies.reply(message, tr(lang, "stats.none"))
        return
    name = display_name(user)
    lines: list[str] = []  # Telegram HTML: the texts are Html, the name is escaped here
    if stats.played:
        lines.append(tr(lang, "stats", name=name, wins=stats.wins, losses=stats.losses, draws=stats.draws))
    else:
        lines.append(f"{esc(name)}: {tr(lang, 'stats.none')}")
    if computer.played:
        lines.append(tr(lang, "stats.computer", wins=computer.wins, losses=computer.losses, draws=computer.draws))
    if inline.played:
        lines.append(tr(lang, "stats.inline", wins=inline.wins, losses=inline.losses, draws=inline.draws))
    await replies.reply(message, "\n".join(lines))


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_stats, Command("stats"))
    return router
