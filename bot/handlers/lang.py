"""``/lang``: choose the language of the bot's messages (stored in the user settings)."""

from __future__ import annotations

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import CallbackQuery, Message
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.handlers.identity import proxy_refusal
from bot.i18n import LANGUAGE_NAMES
from bot.keyboards.callbacks import LangCb
from bot.keyboards.menu import language_keyboard
from bot.sender import Sender
from bot.services.preferences import Preferences


async def lang_command(message: Message, sender: Sender, locale: str | None = None) -> None:
    """Send the language keyboard, the current language checked (not to a channel or an anonymous admin, whose
    choice would be shared by all of them). Returns nothing."""
    refusal = proxy_refusal(message, locale)
    if refusal:
        await sender.send(SendMessage(chat_id=message.chat.id, text=refusal))
        return
    await sender.send(
        SendMessage(
            chat_id=message.chat.id,
            text=_("Choose your language:"),
            reply_markup=language_keyboard(locale),
        )
    )


async def lang_chosen(
    query: CallbackQuery, callback_data: LangCb, preferences: Preferences, sender: Sender, i18n: I18n
) -> None:
    """Store the presser's language and confirm in it (a toast; in a private chat the keyboard message is
    edited too). Returns nothing. Raises: StoreUnavailableError (reported by the error middleware)."""
    await preferences.set_language(query.from_user.id, callback_data.code)
    with i18n.use_locale(callback_data.code):
        text = _("Language: {language}").format(language=LANGUAGE_NAMES[callback_data.code])
        await query.answer(text)
        message = query.message
        if isinstance(message, Message) and message.chat.type == ChatType.PRIVATE:
            await sender.edit(
                EditMessageText(
                    chat_id=message.chat.id,
                    message_id=message.message_id,
                    text=text,
                    reply_markup=language_keyboard(callback_data.code),
                )
            )


def create_router() -> Router:
    """Return a new router with this module's handlers."""
    router = Router(name=__name__)
    router.message.register(lang_command, Command("lang"))
    router.callback_query.register(lang_chosen, LangCb.filter())
    return router
