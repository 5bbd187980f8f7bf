"""The bot's own HTTP server (the webhook worker's port, polling mode's Mini App port) with limits that a client
without any credentials cannot get round: :func:`start_http_server` serves an aiohttp application like
``web.AppRunner`` + ``web.TCPSite``, with

- a **header timeout**: a connection whose request headers are not complete ``header_timeout`` seconds after it was
  opened — or, on a kept-alive connection, after the first byte of its next request arrived — is closed. aiohttp has
  no such timeout: a client that sends nothing, or one header line every few seconds, would hold its connection (and
  a file descriptor) for as long as it likes;
- an **idle timeout** (aiohttp's ``keepalive_timeout``): a connection with no complete request for ``idle_timeout``
  seconds after it was opened or after its last response is closed. A WebSocket is a request being handled, so
  neither timeout touches it once upgraded (its own heartbeat looks after it);
- a **connection cap**: beyond ``max_connections`` open connections a new one is answered 503 and closed at once,
  before aiohttp builds anything for it;
- **quiet logs**: no access log line per request; responses by status, malformed requests, timed-out and refused
  connections are counted (:class:`bot.http_traffic.HttpTraffic`) and summed up in one line a minute. A request the
  server cannot read (a bad request line, a 64 KB header, a broken chunked body, a body its client cut short) is
  answered 400 and counted, without aiohttp's ERROR traceback; a real error of a handler keeps its traceback.

The limits are installed through aiohttp's own seams, and nothing of aiohttp is patched: a ``web.AppRunner`` subclass
whose ``_make_server`` step (the one each runner defines) returns a :class:`web.Server` subclass — the listening
socket's protocol factory — which builds a :class:`web.RequestHandler` subclass per connection and wraps the
application's request factory to learn when a request's headers are complete. These lean on aiohttp 3.x's
``web_protocol`` / ``web_runner`` (read from 3.14); ``tests/bot/test_http_server.py`` would notice a change. The
server speaks plain HTTP (TLS ends at the proxy in front). This module imports nothing from the bot but
:mod:`bot.http_traffic`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from aiohttp import StreamReader, web
from aiohttp.abc import AbstractStreamWriter
from aiohttp.http import HttpProcessingError, RawRequestMessage

from bot.http_traffic import HttpTraffic

log = logging.getLogger(__name__)

SUMMARY_INTERVAL: Final = 60.0
"""Seconds between two summary lines of a server's traffic."""
RESERVED_DESCRIPTORS: Final = 256
"""File descriptors kept free of the cap for the rest of the process (Redis and Bot API connections, the render and
computer processes' pipes, the SQLite file, the event loop's own)."""
REFUSAL: Final = b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
"""The whole answer to a connection beyond the cap (written before closing it; the request is not read)."""
CLIENT_FAULTS: Final = (HttpProcessingError, web.RequestPayloadError)
"""What a request the server cannot read raises (a bad request line or header, a broken body): answered 400,
counted and logged at DEBUG, never with a traceback."""

AppRequestFactory = Callable[
    [RawRequestMessage, StreamReader, web.RequestHandler, AbstractStreamWriter, "asyncio.Task[None]"],
    web.BaseRequest,
]


@dataclass(frozen=True)
class HttpLimits:
    """The limits of one server (see the module docstring); seconds, and a count of connections."""

    header_timeout: float
    idle_timeout: float
    max_connections: int


def descriptor_cap(requested: int, soft_limit: int) -> int:
    """Return the connection cap to use for ``requested`` in a process that may open ``soft_limit`` files (the soft
    ``RLIMIT_NOFILE``): no more than that less :data:`RESERVED_DESCRIPTORS`, and at least 1, so that connections at
    the cap never take the descriptors the rest of the process needs."""
    if soft_limit == resource.RLIM_INFINITY:
        return requested
    return max(1, min(requested, soft_limit - RESERVED_DESCRIPTORS))


class _Refusal(asyncio.Protocol):
    """A connection beyond the cap: answered 503 and closed as soon as it is made, nothing of it read."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Answer 503 and close the connection. Returns nothing."""
        assert isinstance(transport, asyncio.Transport)
        transport.write(REFUSAL)
        transport.close()


LINGERING_TIME = 2.0
"""Seconds a connection is kept reading (and discarding) a body the handler refused unread (aiohttp's default: 10 s),
so that an oversized body a client trickles does not hold a connection of the cap for long."""


class GuardedRequestHandler(web.RequestHandler):
    """aiohttp's handler of one connection, with the header timeout and the counts of the module docstring."""

    __slots__ = ("_between_requests", "_header_timeout", "_header_timer", "_traffic")

    def __init__(self, manager: web.Server, *, header_timeout: float, traffic: HttpTraffic, **kwargs: Any) -> None:
        """Handle one connection of ``manager`` (``kwargs`` go to aiohttp's handler), closing it when a request's
        headers take longer than ``header_timeout`` seconds, counting into ``traffic``."""
        super().__init__(manager, **kwargs)
        self._header_timeout = header_timeout
        self._traffic = traffic
        self._header_timer: asyncio.TimerHandle | None = None
        self._between_requests = False
        """True from a response until the next request's headers are complete; its first byte starts the clock."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Start serving the connection, and the clock of its first request's headers. Returns nothing."""
        super().connection_made(transport)
        self._start_header_clock()

    def data_received(self, data: bytes) -> None:
        """Feed ``data`` to aiohttp; the first bytes after a response start the clock of the next request's headers
        (bytes of an unread body that aiohttp discards after the response count too: a client trickling one is cut
        the same way). Returns nothing."""
        if self._between_requests and self._header_timer is None and data:
            self._start_header_clock()
        super().data_received(data)

    def connection_lost(self, exc: BaseException | None) -> None:
        """Stop the header clock, and let aiohttp finish the connection. Returns nothing."""
        self._stop_header_clock()
        super().connection_lost(exc)

    def headers_complete(self) -> None:
        """Stop the header clock: a request's headers are read (the server's request factory calls this). Returns
        nothing."""
        self._between_requests = False
        self._stop_header_clock()

    def log_access(self, request: web.BaseRequest, response: web.StreamResponse, time: float | None) -> None:
        """Count a sent response by its status, in place of an access log line. Returns nothing."""
        self._traffic.count_response(response.status)
        self._between_requests = True

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """Return aiohttp's error response; for the client's fault (see :meth:`client_fault`) count a malformed
        request and answer 400, not 500 (a body cut short or broken by the client is no error of the server's)."""
        if self.client_fault(exc):
            self._traffic.malformed += 1
            if status == 500:
                status, message = 400, "Bad Request"
        return super().handle_error(request, status, exc, message)

    def log_exception(self, *args: Any, **kw: Any) -> None:
        """Log an error of the connection with its traceback, unless it is the client's fault (see
        :meth:`client_fault`): that is one DEBUG line. Returns nothing."""
        error = kw.get("exc_info")
        if self.client_fault(error):
            self.logger.debug("unreadable request from %s: %r", self.peername, error)
            return
        super().log_exception(*args, **kw)

    def client_fault(self, error: object) -> bool:
        """Return whether ``error`` is the client's doing: a request the server cannot read (:data:`CLIENT_FAULTS`),
        or a connection error after the client has gone (a body cut short)."""
        return isinstance(error, CLIENT_FAULTS) or (isinstance(error, ConnectionError) and self.transport is None)

    def _start_header_clock(self) -> None:
        self._stop_header_clock()
        self._header_timer = asyncio.get_running_loop().call_later(self._header_timeout, self._headers_too_slow)

    def _stop_header_clock(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        self._traffic.header_timeouts += 1
        self.force_close()


class GuardedServer(web.Server):
    """aiohttp's low-level server (the protocol factory of the listening socket) with the connection cap, building a
    :class:`GuardedRequestHandler` for every connection below it."""

    def __init__(
        self,
        handler: Callable[[web.BaseRequest], Awaitable[web.StreamResponse]],
        *,
        request_factory: AppRequestFactory,
        limits: HttpLimits,
        traffic: HttpTraffic,
        **kwargs: Any,
    ) -> None:
        """Serve requests with ``handler`` (an application's), building them with ``request_factory``, within
        ``limits``, counting into ``traffic``; ``kwargs`` go to every connection's aiohttp handler."""
        super().__init__(handler, request_factory=self._request_of, **kwargs)
        self._app_request_factory = request_factory
        self._handler_kwargs = kwargs
        self._event_loop = asyncio.get_running_loop()
        self.limits = limits
        self.traffic = traffic
        self.open_connections = 0
        """Connections accepted and not yet lost (refused ones are never counted)."""

    def __call__(self) -> asyncio.Protocol:  # type: ignore[override]  # asyncio takes any protocol
        """Return the protocol of a new connection: a handler, or a refusal when the cap is reached."""
        if self.open_connections >= self.limits.max_connections:
            self.traffic.refused += 1
            return _Refusal()
        self.open_connections += 1
        return GuardedRequestHandler(
            self,
            loop=self._event_loop,
            header_timeout=self.limits.header_timeout,
            traffic=self.traffic,
            keepalive_timeout=self.limits.idle_timeout,
            lingering_time=LINGERING_TIME,
            **self._handler_kwargs,
        )

    def connection_lost(self, handler: web.RequestHandler, exc: BaseException | None = None) -> None:
        """Forget a closed connection (it no longer counts towards the cap). Returns nothing."""
        self.open_connections -= 1
        super().connection_lost(handler, exc)

    def _request_of(
        self,
        message: RawRequestMessage,
        payload: StreamReader,
        protocol: web.RequestHandler,
        writer: AbstractStreamWriter,
        task: asyncio.Task[None],
    ) -> web.BaseRequest:
        if isinstance(protocol, GuardedRequestHandler):
            protocol.headers_complete()
        return self._app_request_factory(message, payload, protocol, writer, task)


class GuardedAppRunner(web.AppRunner):
    """``web.AppRunner`` serving its application through a :class:`GuardedServer`, and logging the traffic's
    summary every ``summary_interval`` seconds while it runs (and once more when it stops)."""

    __slots__ = ("_limits", "_summaries", "_summary_interval", "guarded", "traffic")

    def __init__(
        self,
        app: web.Application,
        limits: HttpLimits,
        *,
        name: str,
        shutdown_timeout: float = 60.0,
        summary_interval: float = SUMMARY_INTERVAL,
    ) -> None:
        """Run ``app`` within ``limits``; ``name`` heads its summary lines; a stop waits ``shutdown_timeout``
        seconds for the requests under way."""
        super().__init__(app, handle_signals=False, shutdown_timeout=shutdown_timeout)
        self._limits = limits
        self._summary_interval = summary_interval
        self._summaries: asyncio.Task[None] | None = None
        self.traffic = HttpTraffic(name)
        self.guarded: GuardedServer | None = None
        """The server, once :meth:`setup` has built it."""

    async def _make_server(self) -> web.Server:
        # runs the application's startup, as AppRunner does; only its handler and request factory are kept (the
        # bot's applications set neither debug nor handler_args, which AppRunner would pass on)
        plain = await super()._make_server()
        self.guarded = GuardedServer(
            plain.request_handler,
            request_factory=plain.request_factory,
            limits=self._limits,
            traffic=self.traffic,
            access_log=None,  # counted by GuardedRequestHandler.log_access instead
        )
        return self.guarded

    async def setup(self) -> None:
        """Start the application (its startup hooks) and the summaries. Returns nothing."""
        await super().setup()
        self.traffic.since = time.monotonic()  # the first interval begins now, not before the application's startup
        self._summaries = asyncio.create_task(self._summarise(), name=f"nardy-http-summary-{self.traffic.name}")

    async def cleanup(self) -> None:
        """Stop serving (as ``web.AppRunner.cleanup``), then log the last summary. Returns nothing."""
        if self._summaries is not None:
            self._summaries.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._summaries
            self._summaries = None
        guarded = self.guarded
        await super().cleanup()
        if guarded is not None:
            self.traffic.log_summary(guarded.open_connections, self._limits.max_connections)

    async def _summarise(self) -> None:
        while True:
            await asyncio.sleep(self._summary_interval)
            if self.guarded is not None:
                self.traffic.log_summary(self.guarded.open_connections, self._limits.max_connections)


async def start_http_server(
    app: web.Application,
    host: str,
    port: int,
    limits: HttpLimits,
    *,
    name: str,
    shutdown_timeout: float = 60.0,
    summary_interval: float = SUMMARY_INTERVAL,
) -> GuardedAppRunner:
    """Serve ``app`` on ``host:port`` within ``limits`` (the cap lowered by :func:`descriptor_cap` when the process
    may not open that many files, with a WARNING); ``name`` heads the log lines. Returns: the running server (its
    ``cleanup()`` stops it and runs the application's shutdown).

    Raises: what the application's startup raises, and OSError when the port is taken (the server cleaned up).
    """
    open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    cap = descriptor_cap(limits.max_connections, open_files)
    if cap < limits.max_connections:
        log.warning(
            "%s server: at most %d connections, not %d: the process may open only %d files (ulimit -n)",
            name,
            cap,
            limits.max_connections,
            open_files,
        )
        limits = HttpLimits(limits.header_timeout, limits.idle_timeout, cap)
    runner = GuardedAppRunner(
        app, limits, name=name, shutdown_timeout=shutdown_timeout, summary_interval=summary_interval
    )
    try:
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    log.info(
        "%s server on %s:%s: request headers within %g s, idle connections closed after %g s, at most %d connections",
        name,
        host,
        site.port,
        limits.header_timeout,
        limits.idle_timeout,
        limits.max_connections,
    )
    return runner
