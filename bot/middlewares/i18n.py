"""Chooses each update's language: the user's /lang choice, else their Telegram language, else the default."""

from __future__ import annotations

import logging
from typing import Any

from aiogram.enums import ChatType
from aiogram.types import Chat, Message, TelegramObject, User
from aiogram.utils.i18n import I18n, I18nMiddleware

from bot.i18n import choose_language
from bot.middlewares.errors import REPORT_CONTEXT_KEY
from bot.storage import SettingsRecords, StoreUnavailableError

log = logging.getLogger(__name__)

LANGUAGE_KEY = "lang"
"""Key of the language in the user settings (``SettingsRecords.get_user_settings``)."""
PRIVATE_KEY = "dm"
"""Key of the user settings set once the user has written to the bot in private (so the bot may write to them:
tournament games are played in private chats)."""


class UserLanguageMiddleware(I18nMiddleware):
    """aiogram i18n middleware reading the stored language from the stored user settings.

    Handlers also receive ``locale`` (the chosen language code) in their data, for every event. The first message
    from a user in a private chat records that the bot may write to them (:data:`PRIVATE_KEY`). If the store is
    unreachable the Telegram language is used (the handler will then report the outage itself).
    """

    def __init__(self, i18n: I18n, store: SettingsRecords) -> None:
        """Use ``i18n`` for the catalogues and ``store`` for the users' choices."""
        super().__init__(i18n=i18n)
        self.store = store

    async def get_locale(self, event: TelegramObject, data: dict[str, Any]) -> str:
        """Return the language code for this event (one of the loaded catalogues)."""
        user: User | None = data.get("event_from_user")
        if user is None:
            data["locale"] = self.i18n.default_locale
            return self.i18n.default_locale
        stored: object = None
        try:
            settings = await self.store.get_user_settings(user.id)
            stored = settings.get(LANGUAGE_KEY)
            chat: Chat | None = data.get("event_chat")
            private = isinstance(event, Message) and chat is not None and chat.type == ChatType.PRIVATE
            if private and not settings.get(PRIVATE_KEY):
                await self.store.set_user_settings(user.id, {**settings, PRIVATE_KEY: True})
        except StoreUnavailableError:
            log.warning("store unavailable while reading the language of user %s", user.id)
        locale = choose_language(stored, user.language_code, self.i18n.default_locale)
        data["locale"] = locale
        report = data.get(REPORT_CONTEXT_KEY)
        if isinstance(report, dict):
            report["locale"] = locale
        return locale
