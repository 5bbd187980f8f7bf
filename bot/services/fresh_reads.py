"""Reads shared by the callers that ask at once, never older than the asking: :class:`FreshReads`.

A burst of live sockets opening on one game (a group's spectators, a reconnect after a restart, a flood) would each
read the game and build its views. :meth:`FreshReads.read` lets them share one read instead — but only a read that
*starts after* the caller asked, so that nobody is handed a version older than one it could have been told of (a
caller subscribes to a game's versions, then reads: a read already under way may predate a save it will not hear).
While a read of a key is under way, the callers that ask join the next one, which starts when it ends: at most two
reads of a key are ever in flight, however many ask.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Key(Generic[V]):
    """The reads of one key: the one under way and the one its latecomers wait for."""

    __slots__ = ("next", "running")

    def __init__(self) -> None:
        self.running: asyncio.Task[V] | None = None
        self.next: asyncio.Task[V] | None = None


class FreshReads(Generic[K, V]):
    """Shares reads of ``read(key)`` between the callers that ask at once (see the module docstring)."""

    def __init__(self, read: Callable[[K], Awaitable[V]]) -> None:
        """Read with ``read``."""
        self._read = read
        self._keys: dict[K, _Key[V]] = {}

    def under_way(self) -> int:
        """Return how many keys have a read under way or waiting (for tests)."""
        return len(self._keys)

    async def read(self, key: K) -> V:
        """Return the result of a read of ``key`` that started after this call (shared with the other callers
        waiting for the same one; a cancelled caller cancels nothing). Raises: what the read raises."""
        reads = self._keys.get(key)
        if reads is None:
            reads = self._keys[key] = _Key()
        if reads.next is None:
            reads.next = asyncio.create_task(self._after(key, reads, reads.running), name=f"nardy-read-{key}")
            reads.next.add_done_callback(_retrieve)
        return await asyncio.shield(reads.next)

    async def _after(self, key: K, reads: _Key[V], previous: asyncio.Task[V] | None) -> V:
        if previous is not None:
            await asyncio.wait([previous])
        reads.running, reads.next = reads.next, None  # from now on, a caller waits for the read after this one
        try:
            return await self._read(key)
        finally:
            reads.running = None
            if reads.next is None:
                del self._keys[key]


def _retrieve(task: asyncio.Task[object]) -> None:
    """Mark a read's failure as seen (its callers got it, or had all left)."""
    if not task.cancelled():
        task.exception()
