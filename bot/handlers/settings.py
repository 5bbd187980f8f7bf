"""``/settings`` in groups, for admins: default variant, confirm-turn on/off, cube in long nardy on/off, and who
may create tournaments (admins or anyone)."""

from __future__ import annotations

from typing import Any

from aiogram import Bot, Router
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command
from aiogram.methods import EditMessageText
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.handlers.identity import is_proxy_user, proxy_refusal
from bot.keyboards.callbacks import SettingsCb
from bot.services.game_service import GameService
from bot.texts import norm_lang, tr
from bot.variants import DEFAULT, OFFERED, is_offered, next_variant

ALLOWED: dict[str, tuple[str, ...]] = {
    "variant": OFFERED,
    "confirm": ("on", "off"),
    "cube_long": ("on", "off"),
    "tournaments": ("admins", "anyone"),
}


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Return whether the user administers the chat (False when Telegram cannot tell)."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramAPIError:
        return False
    return member.status in (ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR)


def settings_view(lang: str, current: dict[str, Any]) -> tuple[str, InlineKeyboardMarkup]:
    """Return the settings text and keyboard for the chat's ``current`` settings."""
    variant = str(current.get("variant", DEFAULT))
    if not is_offered(variant):
        variant = DEFAULT
    confirm = bool(current.get("confirm"))
    cube_long = bool(current.get("cube_long"))
    creators = "anyone" if current.get("tournaments") == "anyone" else "admins"
    onoff = {True: tr(lang, "on"), False: tr(lang, "off")}
    text = "\n".join(
        [
            tr(lang, "settings.title"),
            tr(lang, "settings.variant", variant=tr(lang, f"variant.{variant}")),
            tr(lang, "settings.confirm", value=onoff[confirm]),
            tr(lang, "settings.cube_long", value=onoff[cube_long]),
            tr(lang, "settings.tournaments", value=tr(lang, f"settings.tournaments.{creators}")),
        ]
    )
    other = next_variant(variant)
    other_creators = "admins" if creators == "anyone" else "anyone"
    rows = [
        [
            InlineKeyboardButton(
                text=tr(lang, "settings.variant", variant=tr(lang, f"variant.{other}")),
                callback_data=SettingsCb(key="variant", value=other).pack(),
            )
        ],
        [
            InlineKeyboardButton(
                text=tr(lang, "settings.confirm", value=onoff[not confirm]),
                callback_data=SettingsCb(key="confirm", value="off" if confirm else "on").pack(),
            )
        ],
        [
            InlineKeyboardButton(
                text=tr(lang, "settings.cube_long", value=onoff[not cube_long]),
                callback_data=SettingsCb(key="cube_long", value="off" if cube_long else "on").pack(),
            )
        ],
        [
            InlineKeyboardButton(
                text=tr(lang, "settings.tournaments", value=tr(lang, f"settings.tournaments.{other_creators}")),
                callback_data=SettingsCb(key="tournaments", value=other_creators).pack(),
            )
        ],
    ]
    return text, InlineKeyboardMarkup(inline_keyboard=rows)


async def on_settings(message: Message, bot: Bot, game_service: GameService, **data: Any) -> None:
    """Show the chat's settings with buttons to change them (admins only, groups only)."""
    if message.from_user is None:
        return
    lang = norm_lang(data.get("locale") or message.from_user.language_code)
    refusal = proxy_refusal(message, lang)
    if refusal:
        await game_service.reply(message, refusal)
        return
    if message.chat.type == ChatType.PRIVATE:
        await game_service.reply(message, tr(lang, "private.only_group"))
        return
    if not await is_admin(bot, message.chat.id, message.from_user.id):
        await game_service.reply(message, tr(lang, "settings.admins_only"))
        return
    text, keyboard = settings_view(lang, await game_service.store.get_chat_settings(message.chat.id))
    await game_service.reply(message, text, keyboard=keyboard, quote=False)


async def on_settings_button(
    query: CallbackQuery, callback_data: SettingsCb, bot: Bot, game_service: GameService, **data: Any
) -> None:
    """Change one setting (admins only) and refresh the settings message."""
    lang = norm_lang(data.get("locale") or query.from_user.language_code)
    message = query.message if isinstance(query.message, Message) else None
    if message is None or callback_data.value not in ALLOWED.get(callback_data.key, ()):
        await query.answer(tr(lang, "toast.bad"))
        return
    if is_proxy_user(query.from_user) or not await is_admin(bot, message.chat.id, query.from_user.id):
        await query.answer(tr(lang, "settings.admins_only"))
        return
    store = game_service.store
    current = dict(await store.get_chat_settings(message.chat.id))
    value: Any = callback_data.value if callback_data.key in ("variant", "tournaments") else callback_data.value == "on"
    current[callback_data.key] = value
    await store.set_chat_settings(message.chat.id, current)
    await query.answer(tr(lang, "settings.saved"))
    text, keyboard = settings_view(lang, current)
    await game_service.edit(
        EditMessageText(chat_id=message.chat.id, message_id=message.message_id, text=text, reply_markup=keyboard)
    )


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_settings, Command("settings"))
    router.callback_query.register(on_settings_button, SettingsCb.filter())
    return router
