"""Running the bot: settings → store → Bot (optionally on a custom Bot API server) → the Dispatcher built by the
composition root (:func:`bot.wiring.build_dispatcher`) → polling, or a webhook worker (``BOT_MODE=webhook``,
:mod:`bot.webhook`)."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import time
from typing import cast

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import PRODUCTION, TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.types import User
from aiogram.utils.token import TokenValidationError
from aiohttp import web
from pydantic import ValidationError

from bot.config import Settings
from bot.http_server import HttpLimits, start_http_server
from bot.jobs import TaskiqJobs
from bot.log_context import configure_logging
from bot.metrics import ApiMetricsMiddleware, InstrumentedStore, Metrics
from bot.middlewares.in_flight import InFlightLimitMiddleware
from bot.redaction import Redactor, install_token_redaction
from bot.sender import Sender, SenderLimits
from bot.services.render_pool import shutdown_pools
from bot.startup import (
    FatalStartupError,
    StartupStopped,
    retry_until_ready,
    startup_backoff,
    stop_on_signals,
    store_failure,
    telegram_failure,
)
from bot.storage import Store, StoreUnavailableError, check_persistence, open_store
from bot.webapp.parts import WebAppParts
from bot.webapp.server import create_webapp
from bot.webhook import create_webhook_app
from bot.wiring import build_dispatcher, webapp_parts
from nardy import compiled_engine

log = logging.getLogger(__name__)

POLLING_BACKLOG_FACTOR = 16
"""Polling stops fetching updates while this many times ``MAX_UPDATES_IN_FLIGHT`` updates are unfinished (most
of them waiting for a free slot or for the pacer): the rest of a burst then waits at Telegram, not in memory."""


def api_server(settings: Settings) -> TelegramAPIServer:
    """Return Telegram's Bot API server, or the custom one at ``TELEGRAM_API_URL``."""
    if settings.telegram_api_url:
        return TelegramAPIServer.from_base(settings.telegram_api_url, is_local=settings.telegram_api_local)
    return PRODUCTION


def create_bot(settings: Settings) -> Bot:
    """Return an aiogram ``Bot`` for the token, API server and request timeout of ``settings`` (HTML parse
    mode by default). Raises: ``TokenValidationError`` for a malformed token."""
    session = AiohttpSession(api=api_server(settings), timeout=settings.request_timeout)
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


def sender_limits(settings: Settings) -> SenderLimits:
    """Return the sender's pacing from ``settings``."""
    return SenderLimits(
        private_interval=settings.send_interval_private,
        group_interval=settings.send_interval_group,
        group_per_minute=settings.group_messages_per_minute,
        private_per_minute=settings.private_messages_per_minute,
        global_per_second=settings.bot_calls_per_second,
        chat_queue_limit=settings.chat_queue_limit,
    )


def http_limits(settings: Settings) -> HttpLimits:
    """Return the limits of the bot's own HTTP server from ``settings``."""
    return HttpLimits(
        header_timeout=settings.http_header_timeout,
        idle_timeout=settings.http_idle_timeout,
        max_connections=settings.http_max_connections,
    )


async def open_checked_store(settings: Settings, stop: asyncio.Event | None = None) -> Store:
    """Return the store of ``settings`` (Redis at ``REDIS_URL``, else the embedded SQLite file) once it answers
    (tried again with :func:`startup_backoff`, one log line per attempt: Redis may start after the bot), after
    logging whether it keeps its data on disk. A store lost after that makes the bot apologise until it comes back.

    Raises: StartupStopped when ``stop`` is set while waiting; FatalStartupError when Redis refuses the password
    or the URL names a cluster node (the store is closed in both cases).
    """
    store = open_store(
        settings.redis_url,
        settings.embedded_db_path,
        timeout=settings.store_timeout,
        max_connections=settings.redis_max_connections,
    )
    kind = "Redis" if settings.redis_url else f"embedded SQLite ({settings.embedded_db_path})"
    try:
        await retry_until_ready(
            kind, "not reachable", store.ping, store_failure, backoff=startup_backoff(settings), stop=stop
        )
    except BaseException:
        await store.close()
        raise
    log.info("storage: %s", kind)
    log.info("engine: %s", "compiled (mypyc)" if compiled_engine() else "pure Python (no compiled build here)")
    try:
        warning = await check_persistence(store)
    except StoreUnavailableError:
        log.warning("storage %s was lost at start; the bot will apologise until it comes back", kind)
    else:
        if warning:
            log.warning("%s", warning)
    return store


async def wait_for_bot_api(bot: Bot, settings: Settings, stop: asyncio.Event | None = None) -> User:
    """Return the bot's own user (getMe) once the Bot API answers, tried again with :func:`startup_backoff`, one
    log line per attempt.

    Raises: FatalStartupError when the Bot API refuses the token; StartupStopped when ``stop`` is set meanwhile.
    """
    return await retry_until_ready(
        "Bot API", "not reachable", bot.me, telegram_failure, backoff=startup_backoff(settings), stop=stop
    )


async def open_store_and_bot(settings: Settings, stop: asyncio.Event | None) -> tuple[Store, Bot]:
    """Return the store and the Bot once both answer (:func:`open_checked_store`, :func:`wait_for_bot_api`).

    Raises: what those raise, after closing what was opened; FatalStartupError at once for a malformed token.
    """
    try:
        bot = create_bot(settings)
    except TokenValidationError as error:
        raise FatalStartupError(f"BOT_TOKEN is not a token from @BotFather ({error})") from None
    try:
        store = await open_checked_store(settings, stop)
    except BaseException:
        await bot.session.close()
        raise
    try:
        me = await wait_for_bot_api(bot, settings, stop)
    except BaseException:
        await store.close()
        await bot.session.close()
        raise
    log.info("Bot API answers: @%s", me.username)
    return store, bot


def create_jobs(settings: Settings, metrics: Metrics | None = None) -> TaskiqJobs | None:
    """Return the Redis job queue of ``settings`` (:mod:`bot.jobs`: ``JOBS_REDIS_URL``, else ``REDIS_URL``), or
    None when background work runs in this process (``JOB_QUEUE=in-process``, or no Redis)."""
    url = settings.jobs_redis_url or settings.redis_url
    if settings.job_queue == "in-process" or url is None:
        return None
    return TaskiqJobs(
        url,
        sweep_interval=settings.timeout_sweep_interval,
        purge_batch=settings.store_purge_batch,
        metrics=metrics,
        max_jobs=settings.max_jobs_per_worker,
        retry_after=settings.job_retry_after,
    )


async def run(settings: Settings, *, handle_signals: bool = True) -> None:
    """Run the bot in ``BOT_MODE``: long polling (:func:`run_polling`) or a webhook worker (:func:`run_webhook`).
    A stop signal while start-up still waits for the network returns at once.

    Returns: nothing. Raises: FatalStartupError when the Bot API refuses the token or Redis the password.
    """
    try:
        if settings.bot_mode == "webhook":
            await run_webhook(settings, handle_signals=handle_signals)
        else:
            await run_polling(settings, handle_signals=handle_signals)
    except StartupStopped:
        log.info("stopped while waiting at start-up")


def freeze_startup_objects() -> None:
    """Move everything built at start-up (aiogram's and pydantic's models, the engine's tables, the fonts) out of
    the garbage collector's view, so that its full collections, which otherwise walk all of it and pause the event
    loop for tens of milliseconds, only look at what the updates create. Returns nothing."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


async def start_webapp_server(settings: Settings, parts: WebAppParts | None) -> web.AppRunner | None:
    """In polling mode: serve the Mini App (:mod:`bot.webapp.server`) under ``/webapp/`` on
    ``WEBAPP_HOST:WEBAPP_PORT``, when ``parts`` is given (``WEBAPP_URL`` set), within the ``HTTP_*`` limits
    (:mod:`bot.http_server`). Returns: the running server (call its ``cleanup()`` to stop it), or None. Raises:
    OSError when the port is taken."""
    if parts is None:
        return None
    app = web.Application()
    app.add_subapp("/webapp/", create_webapp(parts))
    runner = await start_http_server(
        app, settings.webapp_host, settings.webapp_port, http_limits(settings), name="Mini App", shutdown_timeout=2.0
    )
    log.info("Mini App served on %s:%s/webapp/", settings.webapp_host, settings.webapp_port)
    return runner


async def run_polling(settings: Settings, *, handle_signals: bool = True) -> None:
    """Run the bot with long polling until interrupted (SIGINT/SIGTERM when ``handle_signals``, or cancelled);
    then lets the sender send what is queued for up to ``SHUTDOWN_DRAIN_TIMEOUT`` seconds, and closes the store
    and the session. At most ``POLLING_BACKLOG_FACTOR`` × ``MAX_UPDATES_IN_FLIGHT`` updates are unfinished at once.

    Start-up waits for the store and the Bot API (:func:`open_store_and_bot`); SIGINT/SIGTERM meanwhile stop it.

    Returns: nothing. Raises: FatalStartupError when the Bot API refuses the token or Redis the password;
    StartupStopped on a stop signal while waiting.
    """
    async with stop_on_signals(handle_signals) as stop:
        store, bot = await open_store_and_bot(settings, stop)
    sender = Sender(bot, sender_limits(settings), budgets=store)
    dp, services = build_dispatcher(settings, store, sender, jobs=create_jobs(settings))
    webapp = await start_webapp_server(settings, webapp_parts(settings, services, bot))
    freeze_startup_objects()
    try:
        await dp.start_polling(
            bot,
            polling_timeout=settings.polling_timeout,
            allowed_updates=dp.resolve_used_update_types(),
            handle_signals=handle_signals,
            tasks_concurrency_limit=POLLING_BACKLOG_FACTOR * settings.max_updates_in_flight,
        )
    finally:
        if webapp is not None:
            await webapp.cleanup()
        await close_all(dp, sender, store, bot, settings.shutdown_drain_timeout)


async def run_webhook(settings: Settings, *, handle_signals: bool = True, stop: asyncio.Event | None = None) -> None:
    """Run one webhook worker (:mod:`bot.webhook`) on ``WEBHOOK_HOST:WEBHOOK_PORT``, within the ``HTTP_*`` limits
    (:mod:`bot.http_server`), until SIGINT/SIGTERM (when ``handle_signals``), ``stop`` is set, or the task is
    cancelled; then stops taking requests, lets the updates under way finish and the sender send what is queued for
    up to ``SHUTDOWN_DRAIN_TIMEOUT`` seconds, and closes the store and the session. Its store calls, Bot API calls
    and updates are measured (:mod:`bot.metrics`).

    Start-up waits for the store and the Bot API (:func:`open_store_and_bot`), then registers the webhook (retried
    the same way) before it listens; a stop meanwhile ends it at once.

    Returns: nothing. Raises: FatalStartupError when the Bot API refuses the token or Redis the password;
    StartupStopped on a stop while waiting; OSError when the port is taken.
    """
    metrics = Metrics()
    stop = stop or asyncio.Event()
    if handle_signals:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
    raw_store, bot = await open_store_and_bot(settings, stop)
    store = cast(Store, InstrumentedStore(raw_store, metrics))
    bot.session.middleware(ApiMetricsMiddleware(metrics))
    sender = Sender(bot, sender_limits(settings), budgets=store)
    metrics.watch_queue(sender.pending)
    dp, services = build_dispatcher(settings, store, sender, metrics=metrics, jobs=create_jobs(settings, metrics))
    parts = webapp_parts(settings, services, bot)
    webapp = create_webapp(parts) if parts is not None else None
    app = create_webhook_app(dp, bot, store, settings, metrics, stop=stop, webapp=webapp)
    runner: web.AppRunner | None = None
    try:
        runner = await start_http_server(
            app, settings.webhook_host, settings.webhook_port, http_limits(settings), name="webhook"
        )
        freeze_startup_objects()
        log.info(
            "webhook worker listening on %s:%s%s", settings.webhook_host, settings.webhook_port, settings.webhook_path
        )
        await stop.wait()
    finally:
        if runner is not None:  # else start_http_server has cleaned up after itself
            await runner.cleanup()  # stops taking requests, waits for the ones under way, runs the shutdown hooks
        await close_all(dp, sender, raw_store, bot, settings.shutdown_drain_timeout)


async def close_all(dp: Dispatcher, sender: Sender, store: Store, bot: Bot, timeout: float) -> None:
    """Finish a stop: :func:`drain` within ``timeout`` seconds (logging what was dropped), then close the store,
    the Bot API session and the render processes. Returns nothing."""
    dropped = await drain(dp, sender, timeout)
    if dropped:
        log.warning("shutdown: %d queued messages or edits were not sent", dropped)
    await store.close()
    await bot.session.close()
    shutdown_pools()


async def drain(dp: Dispatcher, sender: Sender, timeout: float) -> int:
    """Finish a stop within ``timeout`` seconds: let the updates still being handled finish (their messages and
    edits are sent meanwhile), then let the sender send what is queued, and drop the rest.

    Returns: how many queued messages or edits were dropped (see :meth:`Sender.shutdown`).
    """
    deadline = time.monotonic() + timeout
    for middleware in dp.update.outer_middleware:
        if isinstance(middleware, InFlightLimitMiddleware) and not await middleware.slots.wait_idle(timeout):
            log.warning("shutdown: %d updates were still being handled", middleware.slots.active)
    return await sender.shutdown(max(0.0, deadline - time.monotonic()))


def main() -> None:
    """Entry point of ``python -m bot``: read the settings, configure logging and run. Returns nothing.

    Every log record redacts the bot token (:mod:`bot.redaction`), and so does the message of a fatal error.
    Raises: SystemExit with a short message when the settings are missing or invalid (e.g. no BOT_TOKEN);
    SystemExit(1) after one CRITICAL line when start-up cannot succeed (a token the Bot API refuses); SystemExit
    with a short message when the bot stops on any other error (logged with its traceback first).
    """
    try:
        settings = Settings()  # type: ignore[call-arg]  # BOT_TOKEN comes from the environment
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in error.errors())
        raise SystemExit(f"Invalid settings ({problems}). See .env.example.") from None
    token = settings.bot_token.get_secret_value()
    uninstall = install_token_redaction(token)
    configure_logging(settings.log_level, settings.log_format)
    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        pass
    except FatalStartupError as error:
        log.critical("%s", error)
        raise SystemExit(1) from None
    except Exception as error:
        log.critical("the bot stopped on an error", exc_info=True)
        raise SystemExit(Redactor([token])(f"The bot stopped: {type(error).__name__}: {error}")) from None
    finally:
        uninstall()
