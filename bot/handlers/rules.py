"""``/rules [long|short]``: a short readable summary of the rules in the user's language."""

from __future__ import annotations

from typing import Any

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.keyboards.callbacks import MenuCb
from bot.services.game_service import GameService
from bot.texts import norm_lang, tr


def rules_text(lang: str, args: str | None) -> str:
    """Return the rules summary: one variant when named in ``args``, else both."""
    words = (args or "").lower().split()
    if any(w in ("long", "длинные") for w in words):
        return tr(lang, "rules.long")
    if any(w in ("short", "короткие") for w in words):
        return tr(lang, "rules.short")
    return tr(lang, "rules.short") + "\n\n" + tr(lang, "rules.long")


async def on_rules(message: Message, command: CommandObject, game_service: GameService, **data: Any) -> None:
    """Reply with the rules summary."""
    code = data.get("locale") or (message.from_user.language_code if message.from_user else None)
    await game_service.reply(message, rules_text(norm_lang(code), command.args))


async def on_rules_button(query: CallbackQuery, game_service: GameService, **data: Any) -> None:
    """The Rules menu button: send both summaries to the chat."""
    await query.answer()
    if isinstance(query.message, Message):
        lang = norm_lang(data.get("locale") or query.from_user.language_code)
        await game_service.reply(query.message, rules_text(lang, None), quote=False)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_rules, Command("rules"))
    router.callback_query.register(on_rules_button, MenuCb.filter(F.action == "rules"))
    return router
