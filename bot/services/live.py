"""Live updates of games for the Mini App: every saved version of a game is announced to every open connection.

The saver (:class:`bot.services.saving.GameSaver`) calls :meth:`LiveUpdates.publish` after each successful
compare-and-set with the game id and the new version. A connection follows its game (:meth:`LiveUpdates.follow`) and
gets, for every newer version, an :class:`Edition` that every follower of the game in this process shares: what the
followers derive from the version (the game read once, each distinct view built and serialized once) is made by the
first that needs it and kept on the edition for the others, so a save costs a read and one view per distinct viewer
(the spectators of a language, a player in a language), however many sockets follow the game. Only
``(game id, version)`` travels: the store stays the one source of truth. A follower keeps only the newest edition it
has not taken yet (a slow one skips versions: each view is whole).

**Caps.** :meth:`LiveUpdates.follow` refuses a connection with :class:`TooManyFollowersError` before it is subscribed to
anything when it would exceed :class:`FollowLimits` (``WEBAPP_LIVE_PER_USER``, ``WEBAPP_LIVE_PER_GAME``,
``WEBAPP_LIVE_PER_PROCESS``): the connections of one user, of one game, and of this process. The counts are this
process's (each webhook worker counts its own: with N workers a user may hold up to N times the cap, each worker
still bounded); the first refusal of each kind is logged, then one line a minute with the count.

**Memory.** When followers leave en masse (:data:`GIVE_BACK_AFTER` fewer than the peak since the last time), the
process gives its memory back (:func:`bot.memory.give_back`: a full collection, then glibc's ``malloc_trim`` in a
thread) once the departures have been quiet for :data:`GIVE_BACK_QUIET` seconds, and logs one line with the resident
memory before and after.

- :class:`LocalLive`: in this process (the embedded SQLite store: one process).
- :class:`RedisLive`: Redis pub/sub, one channel per game (``nardy:live:<game id>``), so a socket open on one
  webhook worker hears a save made by another. Each process keeps one pub/sub connection, subscribed to the
  channels of the games it has sockets for.

A version missed (a dropped connection, a Redis blip) is never lost for good: a client that reconnects sends the
last version it has and gets the current state when it is behind. A Redis outage is waited out (:mod:`bot.outage`):
the subscription is tried again with a capped backoff (pub/sub subscribes to its channels again when it
reconnects), and the subscription and the publishing each log one WARNING when Redis stops answering and one INFO
when it answers again, without a traceback. A version published while this process was not subscribed (during the
outage and until its next attempt, at most 2 s after Redis is back) is not announced to its sockets: they show it
with the game's next save, or when they reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Hashable
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol, TypeVar, cast

import redis.asyncio as redis_asyncio
from redis.exceptions import RedisError

from bot.config import Settings
from bot.memory import GivenBack, give_back
from bot.outage import NETWORK_ERRORS, Outage

log = logging.getLogger(__name__)

T = TypeVar("T")
K = TypeVar("K", int, str)

CHANNEL_PREFIX: Final = "nardy:live:"
QUEUE_LIMIT: Final = 64
"""Versions kept for a slow :meth:`LiveUpdates.subscribe` queue; beyond that the oldest are dropped."""
GIVE_BACK_AFTER: Final = 500
"""Followers that must have left since the peak before the process gives its memory back."""
GIVE_BACK_QUIET: Final = 5.0
"""Seconds without a departure before it does: a mass close is given back once, when it is over and few sockets are
left (a full collection walks every live object: 20–160 ms after 750 sockets closed, more while they are open)."""
REFUSAL_LOG_EVERY: Final = 60.0
"""Seconds between two log lines about refused connections of one kind (the ones between are counted)."""

Scope = Literal["user", "game", "process"]


@dataclass(frozen=True, slots=True)
class FollowLimits:
    """The most connections that may follow games at once in this process: ``per_user`` of one user (all games:
    a phone and a desktop on a game or two, and a reload whose new socket opens before the old one is closed),
    ``per_game`` of one game (its players and its spectators), ``per_process`` in all."""

    per_user: int = 8
    per_game: int = 500
    per_process: int = 750
    """Below the HTTP server's cap on connections (``HTTP_MAX_CONNECTIONS``, 1000): sockets never take the
    connections Telegram's deliveries and the Mini App's requests need."""

    @classmethod
    def of(cls, settings: Settings) -> FollowLimits:
        """Return the caps ``settings`` set (``WEBAPP_LIVE_PER_USER``, ``_PER_GAME``, ``_PER_PROCESS``)."""
        return cls(settings.webapp_live_per_user, settings.webapp_live_per_game, settings.webapp_live_per_process)

    def limit(self, scope: Scope) -> int:
        """Return the cap of ``scope``."""
        return {"user": self.per_user, "game": self.per_game, "process": self.per_process}[scope]


class TooManyFollowersError(Exception):
    """A connection refused because it would exceed a cap: ``scope`` says which, ``limit`` its value."""

    def __init__(self, scope: Scope, limit: int) -> None:
        super().__init__(f"more than {limit} live connections per {scope}")
        self.scope: Scope = scope
        self.limit = limit


class LiveUnavailableError(Exception):
    """The game's versions cannot be followed now (Redis cannot be reached): try again later."""


class Edition:
    """One announced version of one game, shared by every follower of the game in this process: what they make of
    it is made once (:meth:`shared`, :meth:`remember`) and kept here for the others while any holds the edition."""

    __slots__ = ("_tasks", "_values", "game_id", "version")

    def __init__(self, game_id: str, version: int) -> None:
        self.game_id = game_id
        self.version = version
        self._tasks: dict[Hashable, asyncio.Task[Any]] = {}
        self._values: dict[Hashable, Any] = {}

    async def shared(self, key: Hashable, make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Return the result of ``make()``, run once per ``key`` (by the first caller; the others await the same
        run, which a cancelled caller does not cancel). Raises: what ``make()`` raises, to every caller."""
        task = self._tasks.get(key)
        if task is None:
            task = asyncio.create_task(make(), name=f"nardy-live-edition-{self.game_id}")
            task.add_done_callback(_retrieve)
            self._tasks[key] = task
        return cast(T, await asyncio.shield(task))

    def remember(self, key: Hashable, make: Callable[[], T]) -> T:
        """Return ``make()``, called once per ``key`` (later callers get the same value). Raises: what ``make()``
        raises (nothing is kept then)."""
        if key in self._values:
            return cast(T, self._values[key])
        value = make()
        self._values[key] = value
        return value


def _retrieve(task: asyncio.Task[Any]) -> None:
    """Mark a shared run's failure as seen (its callers got it, or had all left)."""
    if not task.cancelled():
        task.exception()


class Follower:
    """One connection following one game (:meth:`LiveUpdates.follow`): holds the newest edition not taken yet."""

    __slots__ = ("_edition", "_ready", "game_id", "user_id")

    def __init__(self, game_id: str, user_id: int) -> None:
        self.game_id = game_id
        self.user_id = user_id
        self._edition: Edition | None = None
        self._ready = asyncio.Event()

    def hear(self, edition: Edition) -> None:
        """Keep ``edition`` when it is newer than the one waiting (an older one is dropped: each view is whole)."""
        if self._edition is None or edition.version > self._edition.version:
            self._edition = edition
        self._ready.set()

    async def next(self) -> Edition:
        """Return the newest edition not taken yet, waiting for one."""
        while self._edition is None:
            self._ready.clear()
            await self._ready.wait()
        edition, self._edition = self._edition, None
        return edition


class _Versions:
    """A :meth:`LiveUpdates.subscribe` queue: the versions alone."""

    __slots__ = ("queue",)

    def __init__(self) -> None:
        self.queue: asyncio.Queue[int] = asyncio.Queue(QUEUE_LIMIT)

    def hear(self, edition: Edition) -> None:
        """Put the edition's version in the queue, dropping the oldest when it is full."""
        if self.queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
        self.queue.put_nowait(edition.version)


_Listener = Follower | _Versions


class _Refusals:
    """Logs refused connections: the first of a kind, then at most one line every :data:`REFUSAL_LOG_EVERY`
    seconds with how many were refused meanwhile."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.logged: dict[Scope, float] = {}
        self.unlogged: Counter[Scope] = Counter()

    def refused(self, refusal: TooManyFollowersError, follower: Follower) -> None:
        scope = refusal.scope
        now = self.clock()
        last = self.logged.get(scope)
        if last is not None and now - last < REFUSAL_LOG_EVERY:
            self.unlogged[scope] += 1
            return
        more = self.unlogged.pop(scope, 0)
        self.logged[scope] = now
        log.warning(
            "live socket of user %s on game %s refused: over the cap of %d per %s%s",
            follower.user_id,
            follower.game_id,
            refusal.limit,
            scope,
            f" ({more} more refused since the last line)" if more else "",
        )


class Fanout:
    """This process's followers and queues, by game, with their counts (the caps) and the memory given back."""

    def __init__(
        self,
        limits: FollowLimits,
        *,
        give_back_after: int = GIVE_BACK_AFTER,
        give_back_quiet: float = GIVE_BACK_QUIET,
        memory: Callable[[], Awaitable[GivenBack]] = give_back,
    ) -> None:
        """Count followers within ``limits``; when ``give_back_after`` have left since the peak, await ``memory()``
        once departures have been quiet for ``give_back_quiet`` seconds."""
        self.limits = limits
        self.listeners: dict[str, set[_Listener]] = {}
        self.users: Counter[int] = Counter()
        self.games: Counter[str] = Counter()
        self.followers = 0
        self.refusals = _Refusals(time.monotonic)
        self.give_back_after = give_back_after
        self.give_back_quiet = give_back_quiet
        self.memory = memory
        self.peak = 0
        self.given_back: list[GivenBack] = []
        self._last_departure = 0.0
        self._giving_back: asyncio.TimerHandle | asyncio.Task[None] | None = None

    def admit(self, follower: Follower) -> None:
        """Count ``follower`` in. Raises: TooManyFollowersError (nothing is counted then)."""
        scope: Scope | None = None
        if self.followers >= self.limits.per_process:
            scope = "process"
        elif self.games[follower.game_id] >= self.limits.per_game:
            scope = "game"
        elif self.users[follower.user_id] >= self.limits.per_user:
            scope = "user"
        if scope is not None:
            refusal = TooManyFollowersError(scope, self.limits.limit(scope))
            self.refusals.refused(refusal, follower)
            raise refusal
        self.users[follower.user_id] += 1
        self.games[follower.game_id] += 1
        self.followers += 1
        self.peak = max(self.peak, self.followers)

    def release(self, follower: Follower) -> None:
        """Count ``follower`` out (see :meth:`admit`); after a mass departure, give memory back when it is over."""
        _count_out(self.users, follower.user_id)
        _count_out(self.games, follower.game_id)
        self.followers -= 1
        self._last_departure = time.monotonic()
        if self._giving_back is None and self.peak - self.followers >= self.give_back_after:
            self._giving_back = asyncio.get_running_loop().call_later(self.give_back_quiet, self._give_back_when_quiet)

    def _give_back_when_quiet(self) -> None:
        wait = self._last_departure + self.give_back_quiet - time.monotonic()
        if wait > 0:
            self._giving_back = asyncio.get_running_loop().call_later(wait, self._give_back_when_quiet)
            return
        left = self.peak - self.followers
        self.peak = self.followers
        self._giving_back = asyncio.create_task(self._give_back(left), name="nardy-live-give-back")

    async def _give_back(self, left: int) -> None:
        try:
            done = await self.memory()
        finally:
            self._giving_back = None
        self.given_back.append(done)
        log.info(
            "%d live sockets closed since the peak: memory given back, RSS %.0f → %.0f MB (%d objects collected in "
            "%.0f ms, trimmed in %.0f ms)",
            left,
            done.rss_before,
            done.rss_after,
            done.collected,
            done.collect_seconds * 1000,
            done.trim_seconds * 1000,
        )

    def add(self, game_id: str, listener: _Listener) -> bool:
        """Add a listener of the game; return whether it is the game's first in this process."""
        first = game_id not in self.listeners
        self.listeners.setdefault(game_id, set()).add(listener)
        return first

    def remove(self, game_id: str, listener: _Listener) -> bool:
        """Forget a listener; return whether the game has no listener left in this process."""
        listeners = self.listeners.get(game_id)
        if listeners is None:
            return False
        listeners.discard(listener)
        if listeners:
            return False
        del self.listeners[game_id]
        return True

    def deliver(self, game_id: str, version: int) -> None:
        """Hand one edition of ``version`` to every listener of the game."""
        listeners = self.listeners.get(game_id)
        if not listeners:
            return
        edition = Edition(game_id, version)
        for listener in list(listeners):
            listener.hear(edition)

    def close(self) -> None:
        """Cancel a pending give-back."""
        if self._giving_back is not None:
            self._giving_back.cancel()
            self._giving_back = None


def _count_out(counter: Counter[K], key: K) -> None:
    """Take one off ``counter[key]``, forgetting the key at zero (so that the counters hold only who is there)."""
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


class LiveUpdates(Protocol):
    """Announces saved versions of games and lets connections follow them."""

    async def publish(self, game_id: str, version: int) -> None:
        """Announce that ``game_id`` was saved at ``version``. Returns nothing. Raises: nothing it cannot log."""
        ...

    def follow(self, game_id: str, user_id: int) -> contextlib.AbstractAsyncContextManager[Follower]:
        """Return a context that, while entered, hands the game's newer editions to the :class:`Follower` it
        yields. Raises (on entering): TooManyFollowersError when a cap would be exceeded (nothing is subscribed);
        LiveUnavailableError when the game's versions cannot be followed now."""
        ...

    def subscribe(self, game_id: str) -> contextlib.AbstractAsyncContextManager[asyncio.Queue[int]]:
        """Return a context that, while entered, receives the game's new versions in the queue it yields (no cap:
        for the bot's own use)."""
        ...

    async def close(self) -> None:
        """Stop following (connections end). Returns nothing."""
        ...


class _Live:
    """What both kinds share: the fan-out, following with caps, subscribing."""

    def __init__(self, limits: FollowLimits | None, fanout: Fanout | None) -> None:
        self.fanout = fanout if fanout is not None else Fanout(limits or FollowLimits())

    @property
    def limits(self) -> FollowLimits:
        """The caps (see :class:`FollowLimits`)."""
        return self.fanout.limits

    def _listening(self, game_id: str, listener: _Listener) -> contextlib.AbstractAsyncContextManager[None]:
        raise NotImplementedError

    @contextlib.asynccontextmanager
    async def follow(self, game_id: str, user_id: int) -> AsyncIterator[Follower]:
        """Yield a follower of the game's editions while the context is entered. Raises (on entering):
        TooManyFollowersError (see :class:`FollowLimits`), before anything is subscribed; LiveUnavailableError when the
        game's versions cannot be followed now."""
        follower = Follower(game_id, user_id)
        self.fanout.admit(follower)
        try:
            async with self._listening(game_id, follower):
                yield follower
        finally:
            self.fanout.release(follower)

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[asyncio.Queue[int]]:
        """Yield a queue of the game's new versions while the context is entered. Raises: LiveUnavailableError."""
        versions = _Versions()
        async with self._listening(game_id, versions):
            yield versions.queue


class LocalLive(_Live):
    """Live updates inside one process (see the module docstring)."""

    def __init__(self, limits: FollowLimits | None = None, *, fanout: Fanout | None = None) -> None:
        """Follow within ``limits`` (default :class:`FollowLimits`); ``fanout`` replaces the fan-out (tests)."""
        super().__init__(limits, fanout)

    async def publish(self, game_id: str, version: int) -> None:
        """Hand the version to this process's connections of the game. Returns nothing."""
        self.fanout.deliver(game_id, version)

    @contextlib.asynccontextmanager
    async def _listening(self, game_id: str, listener: _Listener) -> AsyncIterator[None]:
        self.fanout.add(game_id, listener)
        try:
            yield
        finally:
            self.fanout.remove(game_id, listener)

    async def close(self) -> None:
        """Cancel a pending give-back of memory. Returns nothing."""
        self.fanout.close()


class RedisLive(_Live):
    """Live updates over Redis pub/sub, one channel per game (see the module docstring)."""

    def __init__(self, url: str, limits: FollowLimits | None = None, *, fanout: Fanout | None = None) -> None:
        """Publish and subscribe on the Redis at ``url`` (connections are made when first needed); follow within
        ``limits`` (default :class:`FollowLimits`); ``fanout`` replaces the fan-out (tests)."""
        super().__init__(limits, fanout)
        self.redis = redis_asyncio.Redis.from_url(url)
        self.subscription = Outage("live updates (subscription)", log)
        self.publishing = Outage("live updates (publishing)", log, meanwhile="saved versions are not announced")
        self._pubsub: redis_asyncio.client.PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def publish(self, game_id: str, version: int) -> None:
        """Publish the version on the game's channel (every process following it gets it, this one too); while
        Redis cannot be reached the version is not announced (logged once per outage). Returns nothing. Raises:
        RedisError other than a network failure."""
        try:
            await self.redis.publish(CHANNEL_PREFIX + game_id, str(version))
        except NETWORK_ERRORS as error:
            self.publishing.failed(error)
        else:
            self.publishing.succeeded()

    async def _pubsub_started(self) -> redis_asyncio.client.PubSub:
        if self._pubsub is None:
            self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read(self._pubsub), name="nardy-live-reader")
        return self._pubsub

    async def _read(self, pubsub: redis_asyncio.client.PubSub) -> None:
        """Hand every message of the subscribed channels to this process's listeners (until closed); a Redis
        outage is waited out with a capped backoff (see the module docstring)."""
        while True:
            if not pubsub.subscribed:
                await asyncio.sleep(0.05)
                continue
            try:
                message = await pubsub.get_message(timeout=1.0)
            except NETWORK_ERRORS as error:
                await asyncio.sleep(self.subscription.failed(error))
                continue
            except RedisError as error:  # not a network failure: waited out the same way, with its traceback
                await asyncio.sleep(self.subscription.failed(error, expected=False))
                continue
            self.subscription.succeeded()
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            try:
                version = int(message["data"])
            except (TypeError, ValueError):
                continue
            self.fanout.deliver(channel.removeprefix(CHANNEL_PREFIX), version)

    @contextlib.asynccontextmanager
    async def _listening(self, game_id: str, listener: _Listener) -> AsyncIterator[None]:
        """Listen to the game while the context is entered (the process subscribes to the game's channel with its
        first listener and leaves it with its last). Raises: LiveUnavailableError when Redis cannot be reached (logged
        once per outage); RedisError."""
        async with self._lock:
            if self.fanout.add(game_id, listener):
                try:
                    pubsub = await self._pubsub_started()
                    await pubsub.subscribe(CHANNEL_PREFIX + game_id)
                except NETWORK_ERRORS as error:
                    self.fanout.remove(game_id, listener)
                    self.subscription.failed(error)
                    raise LiveUnavailableError(str(error)) from None
                except BaseException:
                    self.fanout.remove(game_id, listener)
                    raise
        try:
            yield
        finally:
            async with self._lock:
                if self.fanout.remove(game_id, listener) and self._pubsub is not None:
                    with contextlib.suppress(RedisError, OSError):
                        await self._pubsub.unsubscribe(CHANNEL_PREFIX + game_id)

    async def close(self) -> None:
        """Stop the reader and close the connections. Returns nothing."""
        self.fanout.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, RedisError, OSError):
                await self._reader
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.aclose()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()
