"""``/rules [variant]``: a short readable summary of the rules of any offered variant in the user's language."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.keyboards.callbacks import MenuCb
from bot.services.messaging import Replies
from bot.texts import norm_lang, tr
from bot.variants import MAIN, OFFERED, resolve


def rules_text(lang: str, args: str | None) -> str:
    """Return the rules summary: of the variant named in ``args`` (any alias), else of short and long nardy with
    the list of the other games' ``/rules`` commands."""
    for word in (args or "").lower().split()[:8]:
        variant = resolve(word)
        if variant is not None:
            return tr(lang, f"rules.{variant}")
    others = ", ".join(f"/rules {v}" for v in OFFERED if v not in MAIN)
    parts = [tr(lang, f"rules.{v}") for v in MAIN]
    return "\n\n".join([*parts, tr(lang, "rules.more", commands=others)])


async def on_rules(message: Message, command: CommandObject, replies: Replies, locale: str) -> None:
    """Reply with the rules summary."""
    await replies.reply(message, rules_text(norm_lang(locale), command.args))


async def on_rules_button(query: CallbackQuery, replies: Replies, locale: str) -> None:
    """The Rules menu button: send the summaries of short and long nardy (and the other games' commands)."""
    await query.answer()
    if isinstance(query.message, Message):
        lang = norm_lang(locale)
        await replies.reply(query.message, rules_text(lang, None), quote=False)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_rules, Command("rules"))
    router.callback_query.register(on_rules_button, MenuCb.filter(F.action == "rules"))
    return router
