"""``/settings``: in groups, for admins: default variant, confirm-turn on/off, cube in long nardy on/off, who may
create tournaments (admins or anyone) and the theme of the group's boards; in a private chat, the user's own
settings: the theme of the boards in the user's private chats.

Whose theme a board uses: a board in a private chat (a player's or a spectator's) is drawn in that user's theme; a
group's one board, seen by everyone there, in the group's theme chosen by its admins. Both default to classic
(:func:`bot.services.boards.board_theme`)."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command
from aiogram.methods import EditMessageText
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.handlers.identity import is_proxy_user, proxy_refusal
from bot.keyboards.callbacks import SettingsCb
from bot.model.game import topic_of
from bot.model.settings import ChatSettings, UserSettings
from bot.services.boards import THEME_KEY, THEMES, known_theme
from bot.services.messaging import Replies
from bot.services.preferences import Preferences
from bot.texts import norm_lang, tr
from bot.variants import DEFAULT, OFFERED, is_offered, next_variant

ALLOWED: dict[str, tuple[str, ...]] = {
    "variant": OFFERED,
    "confirm": ("on", "off"),
    "cube_long": ("on", "off"),
    "tournaments": ("admins", "anyone"),
    "tour_topic": ("here", "off"),
    THEME_KEY: THEMES,
}


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Return whether the user administers the chat (False when Telegram cannot tell)."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramAPIError:
        return False
    return member.status in (ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR)


def settings_view(lang: str, chat: ChatSettings, topic: int | None = None) -> tuple[str, InlineKeyboardMarkup]:
    """Return the settings text and keyboard for the chat's settings ``chat``; ``topic``: the forum topic the
    settings are shown in (it may become the tournaments' topic)."""
    theme = theme_of(chat.theme)
    variant = chat.variant if chat.variant is not None and is_offered(chat.variant) else DEFAULT
    confirm = bool(chat.confirm)
    cube_long = bool(chat.cube_long)
    creators = "anyone" if chat.anyone_creates_tournaments else "admins"
    onoff = {True: tr(lang, "on"), False: tr(lang, "off")}
    text = "\n".join(
        [
            tr(lang, "settings.title"),
            tr(lang, "settings.variant", variant=tr(lang, f"variant.{variant}")),
            tr(lang, "settings.confirm", value=onoff[confirm]),
            tr(lang, "settings.cube_long", value=onoff[cube_long]),
            tr(lang, "settings.tournaments", value=tr(lang, f"settings.tournaments.{creators}")),
            tr(lang, "settings.theme", value=tr(lang, f"settings.theme.{theme}")),
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
        [theme_button(lang, theme)],
    ]
    tour_topic = chat.tour_topic
    if tour_topic is not None or topic is not None:  # only groups with topics see this line
        here = tour_topic is not None and tour_topic == topic
        where = tr(lang, "settings.tour_topic.here" if here else "settings.tour_topic.own")
        if tour_topic is None:
            where = tr(lang, "settings.tour_topic.where_created")
        text += "\n" + tr(lang, "settings.tour_topic", value=where)
        if topic is not None and not here:
            choice, label = "here", "settings.tour_topic.set_here"
        else:
            choice, label = "off", "settings.tour_topic.set_off"
        rows.append(
            [
                InlineKeyboardButton(
                    text=tr(lang, label), callback_data=SettingsCb(key="tour_topic", value=choice).pack()
                )
            ]
        )
    return text, InlineKeyboardMarkup(inline_keyboard=rows)


def theme_of(stored: str | None) -> str:
    """Return the board theme a stored ``theme`` setting names (the default, classic, when unset or unknown)."""
    return known_theme(stored)


def theme_button(lang: str, theme: str) -> InlineKeyboardButton:
    """Return the button that switches the board theme ``theme`` to the other theme."""
    other = next((name for name in THEMES if name != theme), THEMES[0])
    return InlineKeyboardButton(
        text=tr(lang, "settings.theme", value=tr(lang, f"settings.theme.{other}")),
        callback_data=SettingsCb(key=THEME_KEY, value=other).pack(),
    )


def user_settings_view(lang: str, mine: UserSettings) -> tuple[str, InlineKeyboardMarkup]:
    """Return the text and keyboard of a user's own settings ``mine`` (a private chat's ``/settings``)."""
    theme = theme_of(mine.theme)
    text = "\n".join(
        [
            tr(lang, "settings.user_title"),
            tr(lang, "settings.theme", value=tr(lang, f"settings.theme.{theme}")),
            tr(lang, "settings.theme.whose"),
        ]
    )
    return text, InlineKeyboardMarkup(inline_keyboard=[[theme_button(lang, theme)]])


async def on_settings(message: Message, bot: Bot, preferences: Preferences, replies: Replies, locale: str) -> None:
    """Show the chat's settings with buttons to change them (admins only); in a private chat, the user's own."""
    if message.from_user is None:
        return
    lang = norm_lang(locale)
    refusal = proxy_refusal(message, lang)
    if refusal:
        await replies.reply(message, refusal)
        return
    if message.chat.type == ChatType.PRIVATE:
        mine = await preferences.user(message.from_user.id)
        text, keyboard = user_settings_view(lang, mine)
        await replies.reply(message, text, keyboard=keyboard, quote=False)
        return
    if not await is_admin(bot, message.chat.id, message.from_user.id):
        await replies.reply(message, tr(lang, "settings.admins_only"))
        return
    current = await preferences.chat(message.chat.id)
    text, keyboard = settings_view(lang, current, topic_of(message))
    await replies.reply(message, text, keyboard=keyboard, quote=False)


async def on_settings_button(
    query: CallbackQuery,
    callback_data: SettingsCb,
    bot: Bot,
    preferences: Preferences,
    replies: Replies,
    locale: str,
) -> None:
    """Change one setting (admins only; in a private chat the presser's own theme) and refresh the message."""
    lang = norm_lang(locale)
    message = query.message if isinstance(query.message, Message) else None
    if message is None or callback_data.value not in ALLOWED.get(callback_data.key, ()):
        await query.answer(tr(lang, "toast.bad"))
        return
    if message.chat.type == ChatType.PRIVATE:
        await on_user_setting(query, callback_data, message, lang, preferences, replies)
        return
    if is_proxy_user(query.from_user) or not await is_admin(bot, message.chat.id, query.from_user.id):
        await query.answer(tr(lang, "settings.admins_only"))
        return
    current = await preferences.chat(message.chat.id)
    topic = topic_of(message)
    key, value = callback_data.key, callback_data.value
    if key == "tour_topic" and value == "here" and topic is None:
        await query.answer(tr(lang, "toast.bad"))
        return
    current.extra.pop(key, None)  # a value of another type, kept aside when read, is replaced
    if key == "tour_topic":
        current.tour_topic = topic if value == "here" else None
    elif key == "variant":
        current.variant = value
    elif key == "tournaments":
        current.tournaments = value
    elif key == THEME_KEY:
        current.theme = value
    elif key == "confirm":
        current.confirm = value == "on"
    else:
        current.cube_long = value == "on"
    await preferences.save_chat(message.chat.id, current)
    await query.answer(tr(lang, "settings.saved"))
    text, keyboard = settings_view(lang, current, topic)
    await replies.edit(
        EditMessageText(chat_id=message.chat.id, message_id=message.message_id, text=text, reply_markup=keyboard)
    )


async def on_user_setting(
    query: CallbackQuery,
    callback_data: SettingsCb,
    message: Message,
    lang: str,
    preferences: Preferences,
    replies: Replies,
) -> None:
    """Store the presser's own board theme (the only setting of a private chat) and refresh the message."""
    if callback_data.key != THEME_KEY or is_proxy_user(query.from_user):
        await query.answer(tr(lang, "toast.bad"))
        return
    mine = await preferences.user(query.from_user.id)
    mine.extra.pop(THEME_KEY, None)
    mine.theme = callback_data.value
    await preferences.save_user(query.from_user.id, mine)
    await query.answer(tr(lang, "settings.saved"))
    text, keyboard = user_settings_view(lang, mine)
    await replies.edit(
        EditMessageText(chat_id=message.chat.id, message_id=message.message_id, text=text, reply_markup=keyboard)
    )


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_settings, Command("settings"))
    router.callback_query.register(on_settings_button, SettingsCb.filter())
    return router
