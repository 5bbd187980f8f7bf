"""The settings role: a chat's and a user's settings, each one JSON document."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from .documents import JSONDict


@runtime_checkable
class SettingsRecords(Protocol):
    """Chat settings and user settings.

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back
    end cannot be reached.
    """

    async def get_chat_settings(self, chat_id: int) -> JSONDict:
        """Return the chat's settings (an empty dict when none were stored)."""
        ...

    async def set_chat_settings(self, chat_id: int, settings: Mapping[str, Any]) -> None:
        """Replace the chat's settings with ``settings``."""
        ...

    async def get_user_settings(self, user_id: int) -> JSONDict:
        """Return the user's settings, e.g. ``{"lang": "en"}`` (an empty dict when none were stored)."""
        ...

    async def set_user_settings(self, user_id: int, settings: Mapping[str, Any]) -> None:
        """Replace the user's settings with ``settings``."""
        ...
