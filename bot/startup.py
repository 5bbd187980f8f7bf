"""Start-up that waits for the network: the Bot API, the webhook registration and the store are tried again with a
capped exponential backoff until they answer, one log line per failed attempt and no traceback.

What counts as "not yet" (retried): connection refused, DNS failures, timeouts, Telegram's 5xx and 429 answers,
answers that are not the Bot API's (a proxy's HTML error page), and a store that cannot be reached. What is fatal
(raised at once as :class:`FatalStartupError`, one clear line): a token the Bot API refuses (401, or 404 for a
malformed one), a Redis that refuses the password, a plain ``redis://`` URL naming a cluster node. Anything else
propagates unchanged (a malformed TELEGRAM_API_URL, a bug: logged with its traceback). A stop (SIGINT/SIGTERM)
while waiting ends the wait at once with :class:`StartupStopped`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import TypeVar

from aiogram.exceptions import (
    ClientDecodeError,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiohttp import InvalidURL
from redis.exceptions import AskError, AuthenticationError, AuthenticationWrongNumberOfArgsError

from bot.config import Settings
from bot.storage import StoreUnavailableError

log = logging.getLogger(__name__)

T = TypeVar("T")


class FatalStartupError(Exception):
    """Start-up cannot succeed by waiting (a refused token or password): its message is the one line to show."""


class StartupStopped(Exception):  # noqa: N818  # a stop is not an error: the name says what happened
    """A stop signal (or the stop event) arrived while start-up was waiting."""


@dataclass(frozen=True)
class Backoff:
    """Delays between attempts: ``first`` seconds, doubled each time up to ``cap``, each drawn within ±``jitter``
    (a fraction) of that, so that many workers restarted together do not knock in step."""

    first: float = 1.0
    cap: float = 30.0
    jitter: float = 0.2

    def delay(self, attempt: int, draw: Callable[[], float] = random.random) -> float:
        """Return the seconds to wait after failed attempt number ``attempt`` (1, 2, ...); ``draw`` returns a
        number in [0, 1). Never more than ``cap``."""
        base = min(self.cap, self.first * 2.0 ** min(attempt - 1, 64))
        return min(self.cap, base * (1.0 - self.jitter + 2.0 * self.jitter * draw()))


def startup_backoff(settings: Settings) -> Backoff:
    """Return the backoff of the start-up retries: ``STARTUP_RETRY_FIRST`` seconds, doubling up to
    ``STARTUP_RETRY_CAP``."""
    return Backoff(
        first=settings.startup_retry_first, cap=max(settings.startup_retry_cap, settings.startup_retry_first)
    )


@dataclass(frozen=True)
class Transient:
    """A failure worth waiting out: what to log, and the least seconds to wait (Telegram's ``retry_after``)."""

    reason: str
    at_least: float = 0.0


Classifier = Callable[[Exception], Transient | None]
"""Return what to log for a failure worth retrying; None for an error to raise (after mapping it to a
:class:`FatalStartupError` itself when it is a known fatal one)."""


def telegram_failure(error: Exception) -> Transient | None:
    """Return the reason of a Bot API failure worth retrying, None for any other error.

    Raises: FatalStartupError for a token the Bot API refuses (401 Unauthorized, 404 Not Found).
    """
    if isinstance(error, TelegramUnauthorizedError | TelegramNotFound):
        raise FatalStartupError(
            f"the Bot API refused BOT_TOKEN ({type(error).__name__}: {error.message}); check the token from @BotFather"
        ) from error
    if isinstance(error, TelegramRetryAfter):
        return Transient(f"TelegramRetryAfter: {error.message}", at_least=float(error.retry_after))
    if isinstance(error, TelegramNetworkError) and isinstance(error.__cause__, InvalidURL):
        return None  # a malformed TELEGRAM_API_URL: waiting cannot mend it
    if isinstance(error, TelegramNetworkError | TelegramServerError):
        return Transient(_named(error))
    if isinstance(error, ClientDecodeError):
        return Transient(f"not a Bot API answer: {str(error.data)[:80]!r}")
    return None


def store_failure(error: Exception) -> Transient | None:
    """Return the reason of a store failure worth retrying (the server is not up yet), None for any other error.

    Raises: FatalStartupError when Redis refuses the credentials, or REDIS_URL names a cluster node.
    """
    if not isinstance(error, StoreUnavailableError):
        return None
    cause = error.__cause__
    if isinstance(cause, AuthenticationError | AuthenticationWrongNumberOfArgsError | AskError):
        raise FatalStartupError(f"the store refused the connection: {error}") from error
    return Transient(f"{type(cause).__name__}: {cause}" if cause is not None else str(error))


def _named(error: TelegramNetworkError | TelegramServerError) -> str:
    """Return aiogram's message, prefixed with the error's class unless it names one already (aiogram's network
    errors read ``"ClientConnectorError: Cannot connect ..."``)."""
    head, sep, _ = error.message.partition(": ")
    return error.message if sep and head.isidentifier() else f"{type(error).__name__}: {error.message}"


async def retry_until_ready(
    subject: str,
    failing: str,
    attempt: Callable[[], Awaitable[T]],
    classify: Classifier,
    *,
    backoff: Backoff,
    stop: asyncio.Event | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    draw: Callable[[], float] = random.random,
) -> T:
    """Return the result of ``attempt()`` once it succeeds, calling it again after each failure that ``classify``
    calls transient, after :meth:`Backoff.delay` seconds (at least the failure's ``at_least``). Each failure is one
    WARNING line without a traceback, e.g. ``"Bot API not reachable (ClientConnectorError: ...); retrying in 4 s
    (attempt 3)"`` for ``subject`` "Bot API" and ``failing`` "not reachable"; success after failures one INFO line.

    ``sleep`` and ``draw`` can be replaced (tests). Raises: StartupStopped as soon as ``stop`` is set (an attempt
    under way is cancelled); FatalStartupError from ``classify``; any error ``classify`` does not call transient.
    """
    number = 0
    while True:
        number += 1
        try:
            result = await _unless_stopped(attempt(), stop)
        except (StartupStopped, asyncio.CancelledError):
            raise
        except Exception as error:
            failure = classify(error)
            if failure is None:
                raise
            delay = max(failure.at_least, backoff.delay(number, draw))
            log.warning(
                "%s %s (%s); retrying in %s s (attempt %d)", subject, failing, failure.reason, _seconds(delay), number
            )
            await _unless_stopped(sleep(delay), stop)
            continue
        if number > 1:
            log.info("%s answered after %d attempts", subject, number)
        return result


def _seconds(delay: float) -> str:
    return f"{delay:.0f}" if delay >= 10 else f"{delay:.2g}"


async def _unless_stopped(awaitable: Awaitable[T], stop: asyncio.Event | None) -> T:
    """Return what ``awaitable`` returns; raise StartupStopped (cancelling it) when ``stop`` is set first."""
    if stop is None:
        return await awaitable
    if stop.is_set():
        if asyncio.iscoroutine(awaitable):
            awaitable.close()
        raise StartupStopped
    work = asyncio.ensure_future(awaitable)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({work, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (work, stopped):
            if not task.done():
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
    if work.cancelled() or not work.done():
        raise StartupStopped
    return work.result()


@asynccontextmanager
async def stop_on_signals(enabled: bool = True) -> AsyncIterator[asyncio.Event]:
    """Yield an event that SIGINT and SIGTERM set (when ``enabled`` and the platform allows it), restoring the
    default handling on exit. Returns: the event."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    if enabled:
        for signum in (signal.SIGINT, signal.SIGTERM):
            with suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, stop.set)
                installed.append(signum)
    try:
        yield stop
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
