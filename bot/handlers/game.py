"""Board buttons (steps, undo, confirm, roll, double, take/pass, resignation answers, rematch) and /board."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.methods import EditMessageReplyMarkup
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.keyboards.callbacks import GameCb, WatchCb, parse_callback
from bot.keyboards.webapp import WebAppLinks, app_button
from bot.model.actions import GameCommand, ResignAction
from bot.services.actions import GameActions
from bot.services.boards import BoardPresenter
from bot.services.chat_games import ChatGames
from bot.services.inline import InlineGames
from bot.services.messaging import Replies
from bot.texts import norm_lang, tr


def _lang(user: object, locale: str | None) -> str:
    """Return the language to answer in: the one the language middleware chose (the /lang choice first), else the
    user's Telegram language."""
    return norm_lang(locale or getattr(user, "language_code", None))


async def on_game_button(
    query: CallbackQuery,
    callback_data: GameCb,
    actions: GameActions,
    inline_games: InlineGames,
    replies: Replies,
    locale: str | None = None,
) -> None:
    """Apply a board button press and answer it at once with a toast (a refusal or nothing); the boards follow
    through the paced sender in the background. An action no keyboard makes (forged) is refused."""
    lang = _lang(query.from_user, locale)
    action = callback_data.parsed_action()
    if action is None:
        await query.answer(tr(lang, "toast.bad"))
        return
    inline = query.inline_message_id
    if inline is not None and action in (GameCommand.CHOOSE_RESIGN, GameCommand.CHOOSE_BOARD):
        show = inline_games.resign_menu if action is GameCommand.CHOOSE_RESIGN else inline_games.restore_keyboard
        toast = await show(callback_data.game_id, callback_data.version, query.from_user.id, inline)
        await query.answer(toast or None)
        return
    message = query.message if isinstance(query.message, Message) else None
    toast = await actions.press(
        callback_data.game_id,
        callback_data.version,
        action,
        query.from_user.id,
        lang,
        chat_id=message.chat.id if message is not None else None,
        message_id=message.message_id if message is not None else None,
        shown_version=shown_version(message, callback_data.game_id) if message is not None else None,
    )
    await query.answer(toast or None)
    resign_menu = isinstance(action, ResignAction) or action is GameCommand.CHOOSE_RESIGN
    if not toast and resign_menu and isinstance(query.message, Message):
        # the resignation menu (or the "which game?" question before it) has done its job
        await replies.edit(EditMessageReplyMarkup(chat_id=query.message.chat.id, message_id=query.message.message_id))


def shown_version(message: Message, game_id: str) -> int | None:
    """Return the version of the game that the message's keyboard carries as Telegram delivered the press (the
    highest of its buttons'), or None when it carries no button of that game."""
    markup = message.reply_markup
    versions = [
        parsed.version
        for row in (markup.inline_keyboard if markup is not None else [])
        for button in row
        if isinstance(parsed := parse_callback(button.callback_data), GameCb) and parsed.game_id == game_id
    ]
    return max(versions) if versions else None


async def on_watch_button(
    query: CallbackQuery, callback_data: WatchCb, boards: BoardPresenter, locale: str | None = None
) -> None:
    """Make the presser a spectator of the game (its board follows in their private chat), answered at once."""
    lang = _lang(query.from_user, locale)
    outcome = await boards.watch(callback_data.game_id, query.from_user.id)
    keys = {"ok": "toast.watching", "player": "toast.watch_player", "already": "toast.watch_already"}
    await query.answer(tr(lang, keys.get(outcome, "toast.gone")), show_alert=outcome == "ok")


async def on_watch(
    message: Message,
    chat_games: ChatGames,
    replies: Replies,
    locale: str | None = None,
    webapp_links: WebAppLinks | None = None,
) -> None:
    """``/watch`` in a group: a Watch button for each game running in the chat, and beside it the link that opens
    the game in the Mini App when one is configured."""
    lang = _lang(message.from_user, locale)
    rows: list[list[InlineKeyboardButton]] = []
    private = message.chat.type == "private"
    for game_id, record in await chat_games.running(message.chat.id, scan=10):
        names = " — ".join(p.name for p in record.players)
        variant = tr(lang, f"variant.{record.variant}")
        text = f"{tr(lang, 'btn.watch')}: {names} · {variant}"
        row = [InlineKeyboardButton(text=text[:60], callback_data=WatchCb(game_id=game_id).pack())]
        app = app_button(webapp_links, game_id, lang, private=private) if webapp_links is not None else None
        rows.append([*row, app] if app is not None else row)
    if not rows:
        await replies.reply(message, tr(lang, "watch.none"))
        return
    await replies.reply(message, tr(lang, "watch.choose"), keyboard=InlineKeyboardMarkup(inline_keyboard=rows))


async def on_bad_game_button(query: CallbackQuery, locale: str | None = None) -> None:
    """Refuse a game button whose data does not parse (forged, truncated or oversized)."""
    await query.answer(tr(_lang(query.from_user, locale), "toast.bad"))


async def on_board(message: Message, actions: GameActions, replies: Replies, locale: str | None = None) -> None:
    """Re-post the board of the sender's game at the bottom of the chat."""
    if message.from_user is None:
        return
    lang = _lang(message.from_user, locale)
    refusal = await actions.repost(message.chat.id, message.from_user.id, lang)
    if refusal:
        await replies.reply(message, refusal)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.callback_query.register(on_game_button, GameCb.filter())
    router.callback_query.register(on_watch_button, WatchCb.filter())
    router.message.register(on_watch, Command("watch"))
    router.callback_query.register(on_bad_game_button, F.data.startswith("g:"))
    router.message.register(on_board, Command("board"))
    return router
