"""The chats' and users' settings, read typed and written back (:mod:`bot.model.settings`): what ``/settings``,
``/lang``, the challenges, the computer's games, ``/top`` and the tournaments read and change."""

from __future__ import annotations

from bot.model.settings import ChatSettings, UserSettings
from bot.storage import SettingsRecords


class Preferences:
    """Chat and user settings on the settings records of the store."""

    def __init__(self, store: SettingsRecords) -> None:
        """Read and write the settings in ``store``."""
        self._store = store

    async def chat(self, chat_id: int) -> ChatSettings:
        """Return the chat's settings (its defaults for new games and tournaments). Raises: StoreUnavailableError."""
        return ChatSettings.from_dict(await self._store.get_chat_settings(chat_id))

    async def save_chat(self, chat_id: int, settings: ChatSettings) -> None:
        """Store ``settings`` as the chat's settings. Returns nothing. Raises: StoreUnavailableError."""
        await self._store.set_chat_settings(chat_id, settings.to_dict())

    async def user(self, user_id: int) -> UserSettings:
        """Return the user's own settings (language, board theme, whether the bot may write to them).
        Raises: StoreUnavailableError."""
        return UserSettings.from_dict(await self._store.get_user_settings(user_id))

    async def save_user(self, user_id: int, settings: UserSettings) -> None:
        """Store ``settings`` as the user's settings. Returns nothing. Raises: StoreUnavailableError."""
        await self._store.set_user_settings(user_id, settings.to_dict())

    async def set_language(self, user_id: int, code: str) -> None:
        """Store ``code`` as the language the user chose (a value of another type kept aside when read is
        replaced). Returns nothing. Raises: StoreUnavailableError."""
        settings = await self.user(user_id)
        settings.extra.pop("lang", None)
        settings.lang = code
        await self.save_user(user_id, settings)

    async def allow_messages(self, user_id: int) -> None:
        """Record that the bot may write to the user in private (stored only when not yet recorded). Returns
        nothing. Raises: StoreUnavailableError."""
        settings = await self.user(user_id)
        if not settings.dm:
            settings.dm = True
            await self.save_user(user_id, settings)
