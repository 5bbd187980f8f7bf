"""Settings on SQLite (:class:`~bot.storage.settings.SettingsRecords`): ``chat_settings`` and ``user_settings``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..documents import JSONDict
from .connection import SqliteConnection
from .versioned import dumps


class SqliteSettings(SqliteConnection):
    """The chat and user settings of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def _get_json(self, table: str, column: str, key: int) -> JSONDict:
        row = await self._run(
            lambda conn: conn.execute(f"SELECT data FROM {table} WHERE {column} = ?", (key,)).fetchone()
        )
        return dict(json.loads(row[0])) if row else {}

    async def _set_json(self, table: str, column: str, key: int, value: Mapping[str, Any]) -> None:
        record = dumps(dict(value))
        await self._run(
            lambda conn: conn.execute(f"INSERT OR REPLACE INTO {table} ({column}, data) VALUES (?, ?)", (key, record))
        )

    async def get_chat_settings(self, chat_id: int) -> JSONDict:
        """See :meth:`bot.storage.settings.SettingsRecords.get_chat_settings`."""
        return await self._get_json("chat_settings", "chat_id", chat_id)

    async def set_chat_settings(self, chat_id: int, settings: Mapping[str, Any]) -> None:
        """See :meth:`bot.storage.settings.SettingsRecords.set_chat_settings`."""
        await self._set_json("chat_settings", "chat_id", chat_id, settings)

    async def get_user_settings(self, user_id: int) -> JSONDict:
        """See :meth:`bot.storage.settings.SettingsRecords.get_user_settings`."""
        return await self._get_json("user_settings", "user_id", user_id)

    async def set_user_settings(self, user_id: int, settings: Mapping[str, Any]) -> None:
        """See :meth:`bot.storage.settings.SettingsRecords.set_user_settings`."""
        await self._set_json("user_settings", "user_id", user_id, settings)
