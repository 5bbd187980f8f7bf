"""Board buttons (steps, undo, confirm, roll, double, take/pass, resignation answers, rematch) and /board."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.methods import EditMessageReplyMarkup
from aiogram.types import CallbackQuery, Message

from bot.keyboards.actions import GameCommand, ResignAction
from bot.keyboards.callbacks import GameCb
from bot.services.game_service import GameService
from bot.texts import norm_lang, tr


def _lang(user: object) -> str:
    return norm_lang(getattr(user, "language_code", None))


async def on_game_button(
    query: CallbackQuery, callback_data: GameCb, game_service: GameService, locale: str | None = None
) -> None:
    """Apply a board button press and answer it at once with a toast (a refusal or nothing); the boards follow
    through the paced sender in the background. An action no keyboard makes (forged) is refused."""
    lang = norm_lang(locale) if locale else _lang(query.from_user)
    action = callback_data.parsed_action()
    if action is None:
        await query.answer(tr(lang, "toast.bad"))
        return
    message = query.message if isinstance(query.message, Message) else None
    toast = await game_service.press(
        callback_data.game_id,
        callback_data.version,
        action,
        query.from_user.id,
        lang,
        chat_id=message.chat.id if message is not None else None,
        message_id=message.message_id if message is not None else None,
    )
    await query.answer(toast or None)
    resign_menu = isinstance(action, ResignAction) or action is GameCommand.CHOOSE_RESIGN
    if not toast and resign_menu and isinstance(query.message, Message):
        # the resignation menu (or the "which game?" question before it) has done its job
        await game_service.edit(
            EditMessageReplyMarkup(chat_id=query.message.chat.id, message_id=query.message.message_id)
        )


async def on_bad_game_button(query: CallbackQuery) -> None:
    """Refuse a game button whose data does not parse (forged, truncated or oversized)."""
    await query.answer(tr(_lang(query.from_user), "toast.bad"))


async def on_board(message: Message, game_service: GameService) -> None:
    """Re-post the board of the sender's game at the bottom of the chat."""
    if message.from_user is None:
        return
    lang = _lang(message.from_user)
    refusal = await game_service.repost(message.chat.id, message.from_user.id, lang)
    if refusal:
        await game_service.reply(message, refusal)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.callback_query.register(on_game_button, GameCb.filter())
    router.callback_query.register(on_bad_game_button, F.data.startswith("g:"))
    router.message.register(on_board, Command("board"))
    return router
