"""Chooses each update's language: the user's /lang choice, else their Telegram language, else the default."""

from __future__ import annotations

import logging
from typing import Any

from aiogram.types import TelegramObject, User
from aiogram.utils.i18n import I18n, I18nMiddleware

from bot.i18n import choose_language
from bot.middlewares.errors import REPORT_CONTEXT_KEY
from bot.storage import GameStore, StoreUnavailableError

log = logging.getLogger(__name__)

LANGUAGE_KEY = "lang"
"""Key of the language in the user settings (``GameStore.get_user_settings``)."""


class UserLanguageMiddleware(I18nMiddleware):
    """aiogram i18n middleware reading the stored language from the ``GameStore`` user settings.

    Handlers also receive ``locale`` (the chosen language code) in their data. If the store is unreachable the
    Telegram language is used (the handler will then report the outage itself).
    """

    def __init__(self, i18n: I18n, store: GameStore) -> None:
        """Use ``i18n`` for the catalogues and ``store`` for the users' choices."""
        super().__init__(i18n=i18n)
        self.store = store

    async def get_locale(self, event: TelegramObject, data: dict[str, Any]) -> str:
        """Return the language code for this event (one of the loaded catalogues)."""
        user: User | None = data.get("event_from_user")
        if user is None:
            return self.i18n.default_locale
        stored: object = None
        try:
            stored = (await self.store.get_user_settings(user.id)).get(LANGUAGE_KEY)
        except StoreUnavailableError:
            log.warning("store unavailable while reading the language of user %s", user.id)
        locale = choose_language(stored, user.language_code, self.i18n.default_locale)
        data["locale"] = locale
        report = data.get(REPORT_CONTEXT_KEY)
        if isinstance(report, dict):
            report["locale"] = locale
        return locale
