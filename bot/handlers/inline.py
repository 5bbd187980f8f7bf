"""Inline mode: the answer to ``@bot …`` in any chat, and the presses on the invitations it posts
(:mod:`bot.services.inline`). Presses on the board of an inline game are game buttons (:mod:`bot.handlers.game`)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import CallbackQuery, InlineQuery, InlineQueryResultUnion

from bot.handlers.challenge import display_name, player_of
from bot.keyboards.callbacks import InviteCb
from bot.services.inline import InlineGames
from bot.texts import norm_lang, tr

INLINE_CACHE_SECONDS = 30
"""How long Telegram may reuse an answer (per user: the buttons name the one who asked)."""


async def on_inline_query(query: InlineQuery, inline_games: InlineGames, locale: str | None = None) -> None:
    """Offer the games an invitation can be posted for, as articles (the typed variant and length first)."""
    lang = norm_lang(locale or query.from_user.language_code)
    articles = await inline_games.results(query.from_user, display_name(query.from_user), query.query, lang)
    results: list[InlineQueryResultUnion] = list(articles)
    await query.answer(results, cache_time=INLINE_CACHE_SECONDS, is_personal=True)


async def on_invite_button(
    query: CallbackQuery, callback_data: InviteCb, inline_games: InlineGames, locale: str | None = None
) -> None:
    """Join (or, for its host, withdraw) an inline invitation; answered at once, the board follows."""
    presser = player_of(query.from_user, locale)
    toast = await inline_games.press(callback_data, query.inline_message_id, presser)
    await query.answer(toast or None)


async def on_bad_invite_button(query: CallbackQuery, locale: str | None = None) -> None:
    """Refuse an invitation button whose data does not parse (forged or truncated)."""
    await query.answer(tr(norm_lang(locale or query.from_user.language_code), "toast.bad"))


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.inline_query.register(on_inline_query)
    router.callback_query.register(on_invite_button, InviteCb.filter())
    router.callback_query.register(on_bad_invite_button, F.data.startswith("il:"))
    return router
