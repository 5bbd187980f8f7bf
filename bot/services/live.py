"""Live updates of games for the Mini App: every saved version of a game is announced to every open connection.

The saver (:class:`bot.services.saving.GameSaver`) calls :meth:`LiveUpdates.publish` after each successful
compare-and-set with the game id and the new version; a connection subscribes to its game
(:meth:`LiveUpdates.subscribe`) and gets the versions, then loads the game and builds its own view (so each viewer
sees only what it may see). Only ``(game id, version)`` travels: the store stays the one source of truth.

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
from collections.abc import AsyncIterator
from typing import Final, Protocol

import redis.asyncio as redis_asyncio
from redis.exceptions import RedisError

from bot.outage import NETWORK_ERRORS, Outage

log = logging.getLogger(__name__)

CHANNEL_PREFIX: Final = "nardy:live:"
QUEUE_LIMIT: Final = 64
"""Versions kept for a slow connection; beyond that the oldest are dropped (only the newest matters)."""


class LiveUpdates(Protocol):
    """Announces saved versions of games and lets connections follow them."""

    async def publish(self, game_id: str, version: int) -> None:
        """Announce that ``game_id`` was saved at ``version``. Returns nothing. Raises: nothing it cannot log."""
        ...

    def subscribe(self, game_id: str) -> contextlib.AbstractAsyncContextManager[asyncio.Queue[int]]:
        """Return a context that, while entered, receives the game's new versions in the queue it yields."""
        ...

    async def close(self) -> None:
        """Stop following (connections end). Returns nothing."""
        ...


def _offer(queue: asyncio.Queue[int], version: int) -> None:
    """Put ``version`` in ``queue``, dropping the oldest when it is full."""
    if queue.full():
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    queue.put_nowait(version)


class _Fanout:
    """The queues of this process's connections, by game."""

    def __init__(self) -> None:
        self.queues: dict[str, set[asyncio.Queue[int]]] = {}

    def add(self, game_id: str) -> tuple[asyncio.Queue[int], bool]:
        """Return a new queue for the game and whether it is the game's first in this process."""
        queue: asyncio.Queue[int] = asyncio.Queue(QUEUE_LIMIT)
        first = game_id not in self.queues
        self.queues.setdefault(game_id, set()).add(queue)
        return queue, first

    def remove(self, game_id: str, queue: asyncio.Queue[int]) -> bool:
        """Forget a queue; return whether the game has no queue left in this process."""
        queues = self.queues.get(game_id)
        if queues is None:
            return False
        queues.discard(queue)
        if queues:
            return False
        del self.queues[game_id]
        return True

    def deliver(self, game_id: str, version: int) -> None:
        """Hand ``version`` to every queue of the game."""
        for queue in list(self.queues.get(game_id, ())):
            _offer(queue, version)


class LocalLive:
    """Live updates inside one process (see the module docstring)."""

    def __init__(self) -> None:
        self.fanout = _Fanout()

    async def publish(self, game_id: str, version: int) -> None:
        """Hand the version to this process's connections of the game. Returns nothing."""
        self.fanout.deliver(game_id, version)

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[asyncio.Queue[int]]:
        """Yield a queue of the game's new versions while the context is entered."""
        queue, _ = self.fanout.add(game_id)
        try:
            yield queue
        finally:
            self.fanout.remove(game_id, queue)

    async def close(self) -> None:
        """Nothing to close. Returns nothing."""


class RedisLive:
    """Live updates over Redis pub/sub, one channel per game (see the module docstring)."""

    def __init__(self, url: str) -> None:
        """Publish and subscribe on the Redis at ``url`` (connections are made when first needed)."""
        self.redis = redis_asyncio.Redis.from_url(url)
        self.fanout = _Fanout()
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
        """Hand every message of the subscribed channels to this process's queues (until closed); a Redis outage is
        waited out with a capped backoff (see the module docstring)."""
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
    async def subscribe(self, game_id: str) -> AsyncIterator[asyncio.Queue[int]]:
        """Yield a queue of the game's new versions while the context is entered (the process subscribes to the
        game's channel with its first connection and leaves it with its last). Raises: RedisError."""
        async with self._lock:
            queue, first = self.fanout.add(game_id)
            if first:
                try:
                    pubsub = await self._pubsub_started()
                    await pubsub.subscribe(CHANNEL_PREFIX + game_id)
                except BaseException:
                    self.fanout.remove(game_id, queue)
                    raise
        try:
            yield queue
        finally:
            async with self._lock:
                if self.fanout.remove(game_id, queue) and self._pubsub is not None:
                    with contextlib.suppress(RedisError, OSError):
                        await self._pubsub.unsubscribe(CHANNEL_PREFIX + game_id)

    async def close(self) -> None:
        """Stop the reader and close the connections. Returns nothing."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, RedisError, OSError):
                await self._reader
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.aclose()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()
