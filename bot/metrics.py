"""Prometheus metrics of one worker (prometheus-client), served on the webhook server's ``GET /metrics``.

Each :class:`Metrics` has its own registry, so several workers in one process (tests) never mix their figures.
What is measured, and where:

- ``nardy_updates_total{kind, outcome}`` and ``nardy_update_seconds{kind}``: every update the Dispatcher handles
  (:class:`UpdateMetricsMiddleware`, outermost), ``outcome`` ``ok`` or ``error``; the webhook handler adds
  ``duplicate`` (a redelivery already handled), ``busy`` (one being handled by another worker) and
  ``unauthorized`` (a request without the secret).
- ``nardy_api_calls_total{method, outcome}`` and ``nardy_api_429_total{method}``: every Bot API call
  (:class:`ApiMetricsMiddleware`, a session middleware); ``nardy_api_seconds{method}`` their latency.
- ``nardy_sender_queue_depth``: messages and edits waiting in the sender (read when scraped).
- ``nardy_store_seconds{operation}`` and ``nardy_store_conflicts_total{operation}``: every store call and every
  compare-and-set it refused (:class:`InstrumentedStore`).
- ``nardy_jobs_total{kind, outcome}``: background work (sweeps, computer turns) counted by :meth:`Metrics.job`.
- ``nardy_active_games``: games with a pending deadline in the store (every unfinished game has one), read by the
  sweeper after each sweep.
- ``nardy_lobby_reports_total``: reports of lobby players counted by this worker (``/reports`` lists them all).
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final

from aiogram import BaseMiddleware
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods.base import TelegramType
from aiogram.types import TelegramObject, Update
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import Response, TelegramMethod

    from bot.storage import Store

_LATENCY_BUCKETS: Final = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# store calls whose False / None answer means a compare-and-set was refused
_CAS_OPERATIONS: Final = frozenset(
    {"update_game", "finish_game", "set_deadline", "set_board", "update_tournament", "set_tournament_deadline"}
)


class Metrics:
    """The metrics of one worker (see the module docstring)."""

    content_type: Final = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        """Create the metrics in a registry of their own."""
        self.registry = CollectorRegistry()
        r = self.registry
        self.updates = Counter("nardy_updates", "Updates by kind and outcome", ("kind", "outcome"), registry=r)
        self.update_seconds = Histogram(
            "nardy_update_seconds", "Time to handle an update", ("kind",), buckets=_LATENCY_BUCKETS, registry=r
        )
        self.api_calls = Counter(
            "nardy_api_calls", "Bot API calls by method and outcome", ("method", "outcome"), registry=r
        )
        self.api_429 = Counter(
            "nardy_api_429", "Bot API calls refused with 429 (flood control)", ("method",), registry=r
        )
        self.api_seconds = Histogram(
            "nardy_api_seconds", "Bot API call latency", ("method",), buckets=_LATENCY_BUCKETS, registry=r
        )
        self.sender_queue = Gauge("nardy_sender_queue_depth", "Messages and edits waiting in the sender", registry=r)
        self.store_seconds = Histogram(
            "nardy_store_seconds", "Store call latency", ("operation",), buckets=_LATENCY_BUCKETS, registry=r
        )
        self.store_conflicts = Counter(
            "nardy_store_conflicts", "Compare-and-set writes the store refused", ("operation",), registry=r
        )
        self.jobs = Counter("nardy_jobs", "Background jobs by kind and outcome", ("kind", "outcome"), registry=r)
        self.active_games = Gauge("nardy_active_games", "Unfinished games in the store", registry=r)
        self.lobby_reports = Counter("nardy_lobby_reports", "Lobby players reported by their opponents", registry=r)

    def watch_queue(self, depth: Callable[[], int]) -> None:
        """Read the sender's queue depth from ``depth()`` whenever the metrics are scraped."""
        self.sender_queue.set_function(lambda: float(depth()))

    def job(self, kind: str, outcome: str) -> None:
        """Count one background job of ``kind`` that ended with ``outcome`` (``ok``, ``error``)."""
        self.jobs.labels(kind, outcome).inc()

    def render(self) -> bytes:
        """Return the metrics in Prometheus' text exposition format."""
        return generate_latest(self.registry)


def update_kind(update: TelegramObject) -> str:
    """Return the kind of an update (``message``, ``callback_query`` …; ``other`` for anything else)."""
    if isinstance(update, Update):
        return update.event_type
    return "other"


class UpdateMetricsMiddleware(BaseMiddleware):
    """Outer ``update`` middleware: counts and times every update (outcome ``ok`` or ``error``)."""

    def __init__(self, metrics: Metrics) -> None:
        """Count into ``metrics``."""
        self.metrics = metrics

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        """Return the handler's result; re-raise its error after counting it."""
        kind = update_kind(event)
        started = time.perf_counter()
        outcome = "error"
        try:
            result = await handler(event, data)
            outcome = "ok"
            return result
        finally:
            self.metrics.update_seconds.labels(kind).observe(time.perf_counter() - started)
            self.metrics.updates.labels(kind, outcome).inc()


class ApiMetricsMiddleware(BaseRequestMiddleware):
    """Session middleware: counts and times every Bot API call by method, and its 429 answers."""

    def __init__(self, metrics: Metrics) -> None:
        """Count into ``metrics``."""
        self.metrics = metrics

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        """Return the call's response; re-raise its error after counting it."""
        name = method.__api_method__
        started = time.perf_counter()
        outcome = "error"
        try:
            response = await make_request(bot, method)
            outcome = "ok"
            return response
        except TelegramRetryAfter:
            self.metrics.api_429.labels(name).inc()
            outcome = "429"
            raise
        finally:
            self.metrics.api_seconds.labels(name).observe(time.perf_counter() - started)
            self.metrics.api_calls.labels(name, outcome).inc()


class InstrumentedStore:
    """A :class:`~bot.storage.store.Store` that times every call of the store it wraps and counts the
    compare-and-set writes that store refused; everything else is the wrapped store's own behaviour."""

    def __init__(self, store: Store, metrics: Metrics) -> None:
        """Wrap ``store``, counting into ``metrics``."""
        self._store = store
        self._metrics = metrics

    @property
    def wrapped(self) -> Store:
        """Return the store this one wraps."""
        return self._store

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if name.startswith("_") or not inspect.iscoroutinefunction(attribute):
            return attribute
        seconds = self._metrics.store_seconds.labels(name)
        conflicts = self._metrics.store_conflicts.labels(name) if name in _CAS_OPERATIONS else None

        @functools.wraps(attribute)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                result = await attribute(*args, **kwargs)
            finally:
                seconds.observe(time.perf_counter() - started)
            if conflicts is not None and (result is None or result is False):
                conflicts.inc()
            return result

        setattr(self, name, timed)  # built once per operation
        return timed
