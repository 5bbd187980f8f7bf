"""Wiring of the game flows: the routers, the ``game_service`` handler argument, and the timeout sweeper.

The only thing the application has to do is pass ``extra_routers=game_routers()`` to ``create_dispatcher`` (they come
before the infra's ``start`` router, so deep links ``/start c_<id>`` reach the challenge flow). Everything else is
attached to the routers themselves:

- a router middleware puts ``game_service`` into the handlers' data, built once per (store, sender) from the
  ``store`` (StoreMiddleware), ``sender`` and ``settings`` that the dispatcher provides; a ``game_service`` already
  in the data (e.g. ``dispatcher["game_service"]`` set by :func:`install_game_service` in tests) wins;
- a startup hook of the game router starts the sweeper (reminders and timeouts every ``TIMEOUT_SWEEP_INTERVAL``
  seconds, and computer replies that were lost) and its shutdown hook stops it and the running computer replies;
  when the dispatcher holds a job queue (``jobs``, :mod:`bot.jobs`) the hook starts it instead, the sweep then
  being one of its jobs and the computer's replies and tournament work its jobs.

``BOT_MOVE_DELAY`` is the service's ``computer_delay`` (the pause before the computer's reply is shown).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Dispatcher, Router
from aiogram.types import TelegramObject

from bot.jobs import TaskiqJobs
from bot.metrics import Metrics
from bot.services.game_service import GameService, MessageSender
from bot.storage.base import GameStore

log = logging.getLogger(__name__)

_services: dict[tuple[int, int], GameService] = {}


def service_for(store: GameStore, sender: MessageSender, settings: Any = None) -> GameService:
    """Return the GameService of this store and sender (created on first use with the timeouts of ``settings``)."""
    key = (id(store), id(sender))
    service = _services.get(key)
    if service is None or service.store is not store or service.sender is not sender:
        kwargs: dict[str, Any] = {}
        for name in ("turn_reminder_after", "turn_timeout", "finished_game_ttl", "board_retry_after"):
            value = getattr(settings, name, None)
            if isinstance(value, int | float):
                kwargs[name] = float(value)
        for name in ("max_games_per_user", "max_games_per_chat", "computer_processes", "render_processes"):
            value = getattr(settings, name, None)
            if isinstance(value, int):
                kwargs[name] = value
        delay = getattr(settings, "bot_move_delay", None)
        if isinstance(delay, int | float):
            kwargs["computer_delay"] = float(delay)
        interval = getattr(settings, "timeout_sweep_interval", None)
        if isinstance(interval, int | float):
            kwargs["computer_retry_after"] = max(float(interval), 30.0)
        token = getattr(settings, "bot_token", None)
        if token is not None:
            kwargs["inline_secret"] = hashlib.sha256(b"nardy-inline:" + token.get_secret_value().encode()).digest()
        storage = getattr(settings, "inline_storage_chat_id", None)
        if isinstance(storage, int):
            kwargs["inline_storage_chat"] = storage
        ttl = getattr(settings, "challenge_ttl", None)
        if isinstance(ttl, int | float):
            kwargs["invite_ttl"] = max(float(ttl), 86400.0)
        service = GameService(store, sender, **kwargs)
        _services[key] = service
    return service


class GameServiceMiddleware(BaseMiddleware):
    """Router middleware: ``data["game_service"]`` for the game handlers (see the module docstring)."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        """Return the handler's result after adding the service to ``data``."""
        if "game_service" not in data:
            store, sender = data.get("store"), data.get("sender")
            if store is not None and sender is not None:
                data["game_service"] = service_for(store, sender, data.get("settings"))
        return await handler(event, data)


def game_routers() -> list[Router]:
    """Return new game flow routers, in order, for ``create_dispatcher(..., extra_routers=game_routers())``
    (they must come before the infra's ``start`` router). Each call builds fresh routers, with the service
    middleware attached and the timeout sweeper hooked to the first router's startup and shutdown."""
    from bot.handlers import (
        analysis,
        challenge,
        computer,
        cube,
        export,
        fairness,
        game,
        history,
        inline,
        moves,
        ratings,
        rules,
        settings,
        stats,
        tournament,
    )

    modules = (
        tournament,
        computer,
        challenge,
        game,
        cube,
        settings,
        stats,
        ratings,
        rules,
        fairness,
        export,
        history,
        analysis,
        inline,
        moves,
    )
    routers = [m.create_router() for m in modules]
    middleware = GameServiceMiddleware()
    for router in routers:
        router.message.middleware(middleware)
        router.callback_query.middleware(middleware)
        router.inline_query.middleware(middleware)
    sweepers: list[asyncio.Task[None]] = []
    services: list[GameService] = []
    queues: list[TaskiqJobs] = []

    async def start_sweeper(dispatcher: Dispatcher, **data: Any) -> None:
        service = dispatcher.workflow_data.get("game_service")
        if service is None:
            store, sender = _store_of(dispatcher), data.get("sender")
            if store is None or sender is None:
                log.warning("no store or sender: the turn timeout sweeper is not running")
                return
            service = service_for(store, sender, data.get("settings"))
        interval = float(getattr(data.get("settings"), "timeout_sweep_interval", 60.0))
        services.append(service)
        batch = int(getattr(data.get("settings"), "store_purge_batch", 500))
        metrics = data.get("metrics")
        jobs = data.get("jobs")
        if isinstance(jobs, TaskiqJobs):  # the sweep is a job of the queue, queued by one worker per tick
            try:
                await jobs.start(service)
            except Exception:
                log.exception("the job queue cannot start: background work runs in this process")
            else:
                service.jobs = jobs
                queues.append(jobs)
                sweepers.append(asyncio.create_task(recover_once(service), name="nardy-recovery"))
                return
        sweepers.append(asyncio.create_task(sweeper(service, interval, batch, metrics), name="nardy-timeout-sweeper"))

    async def stop_sweeper(**_data: Any) -> None:
        while queues:
            await queues.pop().close()  # a job under way goes back to the queue for another worker
        while services:
            # give running board syncs a moment to hand their edits to the sender (which drains on shutdown);
            # whatever is cancelled is finished by the sweeper after the restart
            service = services.pop()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(service.boards.settle(), timeout=2.0)
            await service.stop_computer()
        while sweepers:
            task = sweepers.pop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    routers[0].startup.register(start_sweeper)
    routers[0].shutdown.register(stop_sweeper)
    return routers


def _store_of(dispatcher: Dispatcher) -> GameStore | None:
    store = dispatcher.workflow_data.get("store")
    if store is not None:
        return store  # type: ignore[no-any-return]
    for middleware in dispatcher.update.outer_middleware:
        candidate = getattr(middleware, "store", None)
        if candidate is not None:
            return candidate  # type: ignore[no-any-return]
    return None


def install_game_service(dp: Dispatcher, store: GameStore, sender: MessageSender, **kwargs: Any) -> GameService:
    """Create a GameService with ``kwargs`` (dice, clock, timeouts …) and make it the dispatcher's
    ``game_service`` (it then wins over the one the middleware would build). Returns: the service."""
    service = GameService(store, sender, **kwargs)
    dp["game_service"] = service
    return service


async def recover_once(service: GameService) -> None:
    """Bring up to date whatever a previous process left behind (boards, stats, computer replies, tournaments).
    Never raises (logs errors; the sweep retries)."""
    try:
        await service.recover()
        await service.tournaments.sweep(service.clock() + service.board_retry_after, limit=1000)
    except Exception:
        log.exception("start-up recovery failed (the sweeper retries)")


async def sweep_once(service: GameService, purge_batch: int = 500, metrics: Metrics | None = None) -> None:
    """Handle due games (boards behind, reminders, timeouts, lost computer replies) and tournaments, and purge
    expired records in batches of ``purge_batch``; count it in ``metrics`` (job ``sweep``, and the unfinished
    games as ``nardy_active_games``). Never raises (logs errors)."""
    outcome = "error"
    try:
        await service.sweep()
        await service.tournaments.sweep()
        await service.store.purge_expired(purge_batch)
        outcome = "ok"
        if metrics is not None:
            metrics.active_games.set(await service.store.active_game_count())
    except Exception:  # the sweeper must survive store outages and anything else
        log.exception("timeout sweep failed")
    if metrics is not None:
        metrics.job("sweep", outcome)


async def sweeper(
    service: GameService, interval: float, purge_batch: int = 500, metrics: Metrics | None = None
) -> None:
    """The in-process sweeper: :func:`recover_once`, then :func:`sweep_once` every ``interval`` seconds, forever.
    Never raises."""
    await recover_once(service)
    while True:
        await sweep_once(service, purge_batch, metrics)
        await asyncio.sleep(interval)
