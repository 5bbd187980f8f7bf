"""The chats' and users' settings, read typed and written back (:mod:`bot.model.settings`): what ``/settings``,
``/lang``, the challenges, the computer's games, ``/top`` and the tournaments read and change, and whether a chat
refuses the bot's pictures (:mod:`bot.services.media`)."""

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

    async def note_media_refused(self, chat_id: int, when: int) -> bool:
        """Record that the chat refused a picture of the bot at ``when`` (Unix time, :attr:`ChatSettings.media_refused`)
        because it forbids media. Returns: whether no refusal was recorded before (the chat has just been found to
        forbid media). Raises: StoreUnavailableError."""
        settings = await self.chat(chat_id)
        first = settings.media_refused is None
        if settings.media_refused != when:
            settings.extra.pop("media_refused", None)
            settings.media_refused = when
            await self.save_chat(chat_id, settings)
        return first

    async def forget_media_refused(self, chat_id: int) -> bool:
        """Forget that the chat refused the bot's pictures (a picture got through, or an admin asked for them again);
        written only when something was recorded. Returns: whether a refusal was. Raises: StoreUnavailableError."""
        settings = await self.chat(chat_id)
        recorded = settings.media_refused is not None
        stray = "media_refused" in settings.extra  # a value of another type, kept aside when read
        if not recorded and not stray:
            return False
        settings.extra.pop("media_refused", None)
        settings.media_refused = None
        await self.save_chat(chat_id, settings)
        return recorded
