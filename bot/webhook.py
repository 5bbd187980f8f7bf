"""Webhook mode (``BOT_MODE=webhook``): one worker of any number behind a load balancer, all state in the store.

A worker is aiogram's aiohttp webhook server with three routes on one port:

- ``POST WEBHOOK_PATH``: Telegram's updates. A request without the right ``X-Telegram-Bot-Api-Secret-Token``
  is refused with 401 and changes nothing. Each update is claimed in the store by its ``update_id``
  (:meth:`~bot.storage.updates.UpdateClaims.claim_update`) before it is handled, so Telegram's redelivery of an update
  (after a timeout, an error or a crash, to this worker or another) is never applied twice: one already handled is
  answered 200 and dropped, one another worker is handling right now is answered 503 (Telegram tries again later);
  a worker that dies mid-update leaves a claim that lapses after ``WEBHOOK_UPDATE_LEASE`` seconds, and the next
  redelivery is handled. The answer is sent once the update is handled (its saves done, its messages queued), so
  a crash before that makes Telegram redeliver. The game's compare-and-set stays the last guard.
- ``GET /healthz``: 200 ``ok`` while the store answers, 503 otherwise (for the load balancer).
- ``GET /metrics``: the worker's Prometheus metrics (:mod:`bot.metrics`).
- ``/webapp/…``: the Mini App's API, live socket and files (:mod:`bot.webapp.server`), when ``WEBAPP_URL`` is set.

The port is served within the ``HTTP_*`` limits of :mod:`bot.http_server` (a header timeout, an idle timeout, a cap
on connections, a summary line a minute instead of an access log line per request), started by :mod:`bot.app`.

At start each worker calls setWebhook (``WEBHOOK_URL`` + ``WEBHOOK_PATH``, the secret, the update types the
handlers use, ``WEBHOOK_DROP_PENDING_UPDATES``) unless ``WEBHOOK_REGISTER=false``; while the Bot API does not
answer it is tried again (:mod:`bot.startup`, one log line per attempt) and the worker listens only once it is done.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.methods import TelegramMethod
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from bot.config import Settings
from bot.metrics import Metrics
from bot.outage import Outage
from bot.startup import retry_until_ready, startup_backoff, telegram_failure
from bot.storage import Store, StoreUnavailableError

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class DedupingRequestHandler(SimpleRequestHandler):
    """aiogram's webhook handler with the secret checked first and every update claimed once in the store (see
    the module docstring)."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        bot: Bot,
        *,
        store: Store,
        secret_token: str,
        lease: float,
        ttl: float,
        metrics: Metrics | None = None,
        **data: Any,
    ) -> None:
        """Handle updates for ``bot`` with ``dispatcher``, claiming them in ``store`` for ``lease`` seconds and
        remembering handled ones for ``ttl`` seconds."""
        super().__init__(dispatcher, bot, handle_in_background=False, secret_token=secret_token, **data)
        self.store = store
        self.lease = lease
        self.ttl = ttl
        self.metrics = metrics
        self.outage = Outage(
            "webhook", log, needs="the store", meanwhile="updates are answered 503 and Telegram delivers them again"
        )
        """The store's outages as the updates meet them: one WARNING, one INFO when an update is claimed again."""

    async def close(self) -> None:
        """Leave the bot's session open: the worker closes it after the sender has drained (bot.app)."""

    def _count(self, kind: str, outcome: str) -> None:
        if self.metrics is not None:
            self.metrics.updates.labels(kind, outcome).inc()

    async def handle(self, request: web.Request) -> web.Response:
        """Return the answer to one POST of Telegram (see the module docstring)."""
        bot = await self.resolve_bot(request)
        if not self.verify_secret(request.headers.get(SECRET_HEADER, ""), bot):
            self._count("webhook", "unauthorized")
            return web.Response(status=401, text="Unauthorized")
        try:
            update = await request.json(loads=bot.session.json_loads)
            update_id = int(update["update_id"])
        except (ValueError, KeyError, TypeError):
            self._count("webhook", "malformed")
            return web.Response(status=400, text="not a Telegram update")
        try:
            claim = await self.store.claim_update(update_id, lease=self.lease)
        except StoreUnavailableError as error:
            self.outage.failed(error)
            log.debug("update %s: the store is unreachable; Telegram will redeliver it", update_id)
            return web.Response(status=503, text="store unavailable")
        self.outage.succeeded()
        if claim == "done":
            self._count("webhook", "duplicate")
            log.info("update %s was handled already: dropped", update_id)
            return web.json_response({})
        if claim == "running":
            self._count("webhook", "busy")
            return web.Response(status=503, text="this update is being handled")
        try:
            result: TelegramMethod[Any] | None = await self.dispatcher.feed_webhook_update(bot, update, **self.data)
        except BaseException:
            # the error middleware answers the user for ordinary errors; anything reaching here (a cancellation
            # at shutdown) leaves the update to Telegram's redelivery
            await _quietly_release(self.store, update_id)
            raise
        try:
            await self.store.finish_update(update_id, ttl=self.ttl)
        except StoreUnavailableError:
            log.warning("update %s was handled but could not be marked so (its claim lapses)", update_id)
        return web.Response(body=self._build_response_writer(bot=bot, result=result))


async def _quietly_release(store: Store, update_id: int) -> None:
    try:
        await store.release_update(update_id)
    except StoreUnavailableError:
        log.warning("update %s: its claim could not be released (it lapses)", update_id)


def webhook_url(settings: Settings) -> str:
    """Return the URL given to setWebhook: ``WEBHOOK_URL`` with ``WEBHOOK_PATH``.

    Raises: ValueError when WEBHOOK_URL is unset.
    """
    if not settings.webhook_url:
        raise ValueError("WEBHOOK_URL is not set")
    return settings.webhook_url.rstrip("/") + settings.webhook_path


def create_webhook_app(
    dispatcher: Dispatcher,
    bot: Bot,
    store: Store,
    settings: Settings,
    metrics: Metrics,
    *,
    stop: asyncio.Event | None = None,
    webapp: web.Application | None = None,
) -> web.Application:
    """Return the aiohttp application of one worker: the webhook, ``/healthz`` and ``/metrics``, with the
    Dispatcher's startup (setWebhook unless ``WEBHOOK_REGISTER=false``, retried while the Bot API does not answer
    until ``stop`` is set; the command menu; the sweeper) and shutdown hooked to the application's. ``webapp``
    (the Mini App's sub-application, :func:`bot.webapp.server.create_webapp`) is mounted under ``/webapp/`` on the
    same port when given.

    Raises: ValueError when WEBHOOK_SECRET is unset.
    """
    if settings.webhook_secret is None:
        raise ValueError("WEBHOOK_SECRET is not set")
    secret = settings.webhook_secret.get_secret_value()
    app = web.Application()
    DedupingRequestHandler(
        dispatcher,
        bot,
        store=store,
        secret_token=secret,
        lease=settings.webhook_update_lease,
        ttl=settings.webhook_update_ttl,
        metrics=metrics,
    ).register(app, path=settings.webhook_path)

    async def healthz(_request: web.Request) -> web.Response:
        try:
            await store.ping()
        except StoreUnavailableError:
            return web.Response(status=503, text="store unavailable")
        return web.Response(text="ok")

    async def metrics_view(_request: web.Request) -> web.Response:
        return web.Response(body=metrics.render(), headers={"Content-Type": metrics.content_type})

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_view)
    if webapp is not None:
        app.add_subapp("/webapp/", webapp)

    if settings.webhook_register:

        async def register_webhook(bot: Bot) -> None:
            async def set_webhook() -> bool:
                return await bot.set_webhook(
                    url=webhook_url(settings),
                    secret_token=secret,
                    allowed_updates=dispatcher.resolve_used_update_types(),
                    drop_pending_updates=settings.webhook_drop_pending_updates,
                )

            await retry_until_ready(
                "setWebhook", "failed", set_webhook, telegram_failure, backoff=startup_backoff(settings), stop=stop
            )
            log.info("webhook registered at %s", webhook_url(settings))

        dispatcher.startup.register(register_webhook)
    setup_application(app, dispatcher, bot=bot)
    return app
