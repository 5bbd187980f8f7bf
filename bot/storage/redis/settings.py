"""Settings on Redis (:class:`~bot.storage.settings.SettingsRecords`): one JSON string per chat and per user."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..documents import JSONDict
from .client import RedisClient, dumps
from .keys import CHAT_SETTINGS_KEY, USER_SETTINGS_KEY


class RedisSettings(RedisClient):
    """The chat and user settings of a :class:`~bot.storage.redis.store.RedisGameStore`."""

    async def _get_json(self, key: str) -> JSONDict:
        async with self._op():
            raw = await self._redis.get(key)
        return dict(json.loads(raw)) if raw else {}

    async def _set_json(self, key: str, value: Mapping[str, Any]) -> None:
        async with self._op():
            await self._redis.set(key, dumps(dict(value)))

    async def get_chat_settings(self, chat_id: int) -> JSONDict:
        """See :meth:`bot.storage.settings.SettingsRecords.get_chat_settings`."""
        return await self._get_json(CHAT_SETTINGS_KEY.format(chat_id=chat_id))

    async def set_chat_settings(self, chat_id: int, settings: Mapping[str, Any]) -> None:
        """See :meth:`bot.storage.settings.SettingsRecords.set_chat_settings`."""
        await self._set_json(CHAT_SETTINGS_KEY.format(chat_id=chat_id), settings)

    async def get_user_settings(self, user_id: int) -> JSONDict:
        """See :meth:`bot.storage.settings.SettingsRecords.get_user_settings`."""
        return await self._get_json(USER_SETTINGS_KEY.format(user_id=user_id))

    async def set_user_settings(self, user_id: int, settings: Mapping[str, Any]) -> None:
        """See :meth:`bot.storage.settings.SettingsRecords.set_user_settings`."""
        await self._set_json(USER_SETTINGS_KEY.format(user_id=user_id), settings)
