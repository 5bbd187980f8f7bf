"""The composition root: everything the bot runs on, built once at start-up from the Settings and injected.

:func:`build_dispatcher` is the one place that builds the game services (:func:`build_game_service`: store, sender,
renderer and computer pools, timings, each part with its collaborators) and the Dispatcher that serves them: the
infra (:func:`create_dispatcher`: middlewares, language, the built-in routers) and the game flow routers. What the
handlers use is injected the aiogram way, as Dispatcher data (``dp["name"] = value``), which aiogram hands to every
handler as a keyword argument: ``store``, ``settings``, ``sender``, ``i18n``, ``game_service`` (the handlers'
façade), ``inline_games`` (inline mode), ``tournaments`` (the tournament service), ``metrics`` (when measured), and
per update ``locale`` (the user's language, set by the language middleware).

Background work runs on one scheduler: the job queue (:mod:`bot.jobs`) when ``jobs`` is given, else in this process
(the sweeper task and the services' keyed tasks, :class:`bot.services.tasks.KeyedTasks`). The Dispatcher's startup
hook starts it and its shutdown hook stops it (see :func:`attach_background`).

Nothing else builds a service: no cache of services, no lookup through the middlewares.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from aiogram import Bot, Dispatcher, Router
from aiogram.utils.i18n import I18n

from bot.commands import set_bot_commands
from bot.config import Settings
from bot.handlers import game_routers, routers
from bot.i18n import create_i18n
from bot.jobs import TaskiqJobs
from bot.log_context import UpdateContextMiddleware
from bot.metrics import Metrics, UpdateMetricsMiddleware
from bot.middlewares import ErrorReportingMiddleware, UserLanguageMiddleware
from bot.middlewares.in_flight import InFlightLimitMiddleware
from bot.middlewares.throttle import ThrottleMiddleware
from bot.sender import Sender
from bot.services.background import recover_once, sweeper
from bot.services.computer import default_computer
from bot.services.game_config import GameConfig
from bot.services.game_service import GameService
from bot.services.messaging import MessageSender
from bot.storage import Store

log = logging.getLogger(__name__)

SHUTDOWN_BOARD_GRACE = 2.0
"""Seconds a shutdown lets running board syncs hand their edits to the sender (which drains afterwards)."""


def game_service_options(settings: Settings) -> dict[str, Any]:
    """Return the :class:`GameService` keyword arguments that ``settings`` decide (timings, caps, pools, inline
    secret and storage chat)."""
    token = settings.bot_token.get_secret_value()
    options: dict[str, Any] = {
        "turn_reminder_after": float(settings.turn_reminder_after),
        "turn_timeout": float(settings.turn_timeout),
        "finished_game_ttl": float(settings.finished_game_ttl),
        "board_retry_after": float(settings.board_retry_after),
        "max_games_per_user": settings.max_games_per_user,
        "max_games_per_chat": settings.max_games_per_chat,
        "computer_processes": settings.computer_processes,
        "render_processes": settings.render_processes,
        "computer_delay": float(settings.bot_move_delay),
        "computer_retry_after": max(float(settings.timeout_sweep_interval), 30.0),
        "inline_secret": hashlib.sha256(b"nardy-inline:" + token.encode()).digest(),
        "invite_ttl": max(float(settings.challenge_ttl), 86400.0),
    }
    if settings.inline_storage_chat_id is not None:
        options["inline_storage_chat"] = settings.inline_storage_chat_id
    return options


def build_game_service(settings: Settings, store: Store, sender: MessageSender, **overrides: Any) -> GameService:
    """Return the game service on ``store`` and ``sender`` with the options of ``settings``; ``overrides`` (dice,
    clock, sleep, computer factory, renderer, any timing — the fields of :class:`GameConfig` — and the service's own
    ``computer_processes``, ``inline_secret``, …) win over them; tests use them for seeded dice and virtual time.

    Raises: TypeError for an override that is neither."""
    options: dict[str, Any] = {"computer": default_computer, **game_service_options(settings), **overrides}
    fields = {field.name for field in dataclasses.fields(GameConfig)}
    config = GameConfig(**{name: value for name, value in options.items() if name in fields})
    return GameService(store, sender, config, **{name: value for name, value in options.items() if name not in fields})


def create_dispatcher(
    store: Store,
    settings: Settings,
    *,
    sender: Sender,
    i18n: I18n | None = None,
    extra_routers: Sequence[Router] = (),
    throttle_clock: Callable[[], float] | None = None,
    metrics: Metrics | None = None,
) -> Dispatcher:
    """Return a Dispatcher with the infra of the bot: its data, middlewares and built-in routers (no game flows:
    :func:`build_dispatcher` adds them).

    Handlers receive in their data: ``store`` (Store), ``settings`` (Settings), ``sender`` (Sender),
    ``i18n`` (I18n), ``locale`` (the user's language code), plus aiogram's usual ``bot``, ``event_from_user``,
    ``event_chat``. ``extra_routers`` are included before the built-in ones (game flows, tests). Startup
    registers the command menu (``setMyCommands``) for every language.

    Update middlewares, outermost first: the log context (the update id on every record); the update metrics
    (when ``metrics`` is given; the handlers then also get ``metrics`` in their data); error reporting; per-user
    throttling (``THROTTLE_RATE`` / ``THROTTLE_BURST``, on ``throttle_clock``, by default the sender's clock);
    the bound on updates handled at once (``MAX_UPDATES_IN_FLIGHT``: further updates wait, they are never
    refused).
    """
    i18n = i18n or create_i18n(settings.default_language)
    dp = Dispatcher(store=store, settings=settings, sender=sender, i18n=i18n)
    dp.update.outer_middleware(UpdateContextMiddleware())
    if metrics is not None:
        dp["metrics"] = metrics
        dp.update.outer_middleware(UpdateMetricsMiddleware(metrics))
    dp.update.outer_middleware(ErrorReportingMiddleware(i18n))
    if settings.throttle_rate > 0:
        dp.update.outer_middleware(
            ThrottleMiddleware(
                settings.throttle_rate,
                settings.throttle_burst,
                clock=throttle_clock or sender.clock,
                default_language=settings.default_language,
            )
        )
    dp.update.outer_middleware(InFlightLimitMiddleware(settings.max_updates_in_flight))
    UserLanguageMiddleware(i18n, store).setup(dp)
    dp.include_routers(*extra_routers, *routers())

    async def on_startup(bot: Bot) -> None:
        try:
            await set_bot_commands(bot, i18n)
        except Exception as error:  # the menu is a nicety: never refuse to start because of it
            log.warning("setMyCommands failed: %s", error)

    dp.startup.register(on_startup)
    return dp


def build_dispatcher(
    settings: Settings,
    store: Store,
    sender: Sender,
    *,
    metrics: Metrics | None = None,
    jobs: TaskiqJobs | None = None,
    i18n: I18n | None = None,
    throttle_clock: Callable[[], float] | None = None,
    **service_overrides: Any,
) -> tuple[Dispatcher, GameService]:
    """Build the whole bot once: the game service (:func:`build_game_service`, with ``service_overrides``), the
    Dispatcher with the game flow routers before the built-in ones and ``game_service`` in its data, and the
    background work on ``jobs`` (or in this process) started and stopped with the Dispatcher.

    Returns: the Dispatcher and the game service."""
    games = build_game_service(settings, store, sender, **service_overrides)
    dp = create_dispatcher(
        store,
        settings,
        sender=sender,
        i18n=i18n,
        extra_routers=game_routers(),
        throttle_clock=throttle_clock,
        metrics=metrics,
    )
    dp["game_service"] = games
    dp["replies"] = games.replies
    dp["actions"] = games.actions
    dp["boards"] = games.boards
    dp["game_config"] = games.config
    dp["inline_games"] = games.inline
    dp["tournaments"] = games.tournaments
    if jobs is not None:
        dp["jobs"] = jobs
    attach_background(dp, games, settings, jobs=jobs, metrics=metrics)
    return dp, games


def attach_background(
    dp: Dispatcher,
    games: GameService,
    settings: Settings,
    *,
    jobs: TaskiqJobs | None = None,
    metrics: Metrics | None = None,
) -> None:
    """Start the background work with the Dispatcher and stop it with it. On startup: the job queue ``jobs`` runs
    the computer's replies, the tournaments' work and the sweep (queued by one worker per tick), after a recovery
    pass of this process; without a queue (or when it cannot start) the in-process sweeper runs every
    ``TIMEOUT_SWEEP_INTERVAL`` seconds. On shutdown: the queue closes (a job under way goes back to it), running
    board syncs get :data:`SHUTDOWN_BOARD_GRACE` seconds, then the computer's replies and the keyed tasks are
    cancelled (the sweep finishes them after a restart). Returns nothing."""
    running: list[asyncio.Task[None]] = []
    started: list[TaskiqJobs] = []

    async def start(**_data: Any) -> None:
        if jobs is not None:
            try:
                await jobs.start(games)
            except Exception:
                log.exception("the job queue cannot start: background work runs in this process")
            else:
                games.jobs = jobs
                started.append(jobs)
                running.append(asyncio.create_task(recover_once(games), name="nardy-recovery"))
                return
        interval = float(settings.timeout_sweep_interval)
        running.append(
            asyncio.create_task(
                sweeper(games, interval, settings.store_purge_batch, metrics), name="nardy-timeout-sweeper"
            )
        )

    async def stop(**_data: Any) -> None:
        while started:
            await started.pop().close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(games.boards.settle(), timeout=SHUTDOWN_BOARD_GRACE)
        await games.stop_computer()
        while running:
            task = running.pop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    dp.startup.register(start)
    dp.shutdown.register(stop)
