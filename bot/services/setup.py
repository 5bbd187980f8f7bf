"""Wiring of the game flows into a Dispatcher: the service in the handlers' data, the routers, the sweeper."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from aiogram import Dispatcher, Router

from bot.services.game_service import GameService, MessageSender
from bot.storage.base import GameStore

log = logging.getLogger(__name__)


def game_routers() -> list[Router]:
    """Return the game flow routers, to be included before the infra's ``start`` router (deep links)."""
    from bot.handlers import challenge, cube, game, moves, rules, settings, stats

    return [challenge.router, game.router, cube.router, settings.router, stats.router, rules.router, moves.router]


def install_game_service(
    dp: Dispatcher, store: GameStore, sender: MessageSender, *, sweep_interval: float | None = None, **kwargs: Any
) -> GameService:
    """Create the GameService, put it in the dispatcher's data as ``game_service`` and, when ``sweep_interval``
    is given, run the timeout sweeper while polling. Returns: the service."""
    service = GameService(store, sender, **kwargs)
    dp["game_service"] = service
    if sweep_interval:
        tasks: list[asyncio.Task[None]] = []

        async def on_startup() -> None:
            tasks.append(asyncio.create_task(sweeper(service, sweep_interval)))

        async def on_shutdown() -> None:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

        dp.startup.register(on_startup)
        dp.shutdown.register(on_shutdown)
    return service


async def sweeper(service: GameService, interval: float) -> None:
    """Forever: remind and time out overdue turns every ``interval`` seconds. Never raises (logs errors)."""
    while True:
        try:
            await service.sweep()
        except Exception:  # the sweeper must survive store outages and anything else
            log.exception("timeout sweep failed")
        await asyncio.sleep(interval)
