"""Bounds the updates handled at once (``MAX_UPDATES_IN_FLIGHT``): a burst waits its turn instead of being refused."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject

from bot.in_flight import UpdateSlots


class InFlightLimitMiddleware(BaseMiddleware):
    """Outer ``update`` middleware: each update holds one of ``limit`` slots while the inner middlewares and
    handlers run (see :mod:`bot.in_flight`); updates beyond the limit wait, first come first served."""

    def __init__(self, limit: int) -> None:
        """Allow ``limit`` updates at once. Raises: ValueError for a limit below 1."""
        self.slots = UpdateSlots(limit)

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        """Return the handler's result, once a slot was free."""
        async with self.slots.hold():
            return await handler(event, data)
