"""Puts the game store into every handler's data as ``store``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject

from bot.storage import GameStore


class StoreMiddleware(BaseMiddleware):
    """Outer update middleware: ``data["store"] = store`` for every handler and inner middleware."""

    def __init__(self, store: GameStore) -> None:
        """Remember the store to inject."""
        self.store = store

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        """Return the handler's result after adding the store to ``data``."""
        data["store"] = self.store
        return await handler(event, data)
