"""A bound on the updates being worked on at once, which waits for a free slot instead of refusing.

Each update holds one of ``limit`` slots while its handlers run (:meth:`UpdateSlots.hold`), so a burst of updates
is queued and served in turn instead of exhausting the storage's connection pool. Waiting for Telegram is not
work: while a handler waits for the paced :class:`~bot.sender.Sender` (:func:`outside_slot`) it gives its slot
back, so a flood queued in one chat's pacer can never stall the other chats' updates. An update coming back from
such a wait gets the next free slot before any update that has not started yet, so started work finishes first.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar


class UpdateSlots:
    """At most ``limit`` updates hold a slot at once; the others wait (first come, first served, returning
    updates first)."""

    def __init__(self, limit: int) -> None:
        """Allow ``limit`` (>= 1) updates at once. Raises: ValueError for a limit below 1."""
        if limit < 1:
            raise ValueError(f"the limit of updates in flight must be at least 1, not {limit}")
        self.limit = limit
        self._free = limit
        self._new: deque[asyncio.Future[None]] = deque()
        self._returning: deque[asyncio.Future[None]] = deque()
        self.peak = 0
        """The largest number of slots ever held at once (for tests and diagnostics)."""
        self.active = 0
        """How many updates are between the start and the end of :meth:`hold` (waiting, working or outside)."""
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def busy(self) -> int:
        """Return how many slots are held now."""
        return self.limit - self._free

    def waiting(self) -> int:
        """Return how many updates wait for a slot."""
        return sum(not f.done() for f in (*self._new, *self._returning))

    def _has_waiters(self) -> bool:
        for waiters in (self._returning, self._new):
            while waiters and waiters[0].done():
                waiters.popleft()
        return bool(self._returning or self._new)

    async def _acquire(self, returning: bool) -> None:
        if self._free > 0 and not self._has_waiters():
            self._free -= 1
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            (self._returning if returning else self._new).append(future)
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._release()  # the slot was handed over just as the waiter was cancelled
                raise
        self.peak = max(self.peak, self.busy)

    def _release(self) -> None:
        for waiters in (self._returning, self._new):
            while waiters:
                future = waiters.popleft()
                if not future.done():
                    future.set_result(None)  # the slot passes straight to this waiter
                    return
        self._free += 1

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """Wait for a free slot and hold it for the block (given back by :func:`outside_slot` while waiting)."""
        holder = _Holder(self)
        self.active += 1
        self._idle.clear()
        try:
            await self._acquire(returning=False)
            holder.held = True
            token = _current.set(holder)
            try:
                yield
            finally:
                _current.reset(token)
                holder.closed = True
                holder.release()
        finally:
            self.active -= 1
            if self.active == 0:
                self._idle.set()

    async def wait_idle(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds until no update is being handled. Returns: True when none is."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout=max(0.0, timeout))
        except TimeoutError:
            return False
        return True


class _Holder:
    """The slot of one update: held, or given back while the update waits outside."""

    def __init__(self, slots: UpdateSlots) -> None:
        self.slots = slots
        self.task = asyncio.current_task()
        self.held = False
        self.closed = False
        self.waits = 0

    def release(self) -> None:
        if self.held:
            self.held = False
            self.slots._release()


_current: ContextVar[_Holder | None] = ContextVar("update_slot", default=None)


@asynccontextmanager
async def outside_slot() -> AsyncIterator[None]:
    """Give the current update's slot back for the block, and wait for one again afterwards.

    Does nothing outside an update, and in tasks an update started (they inherit its context but not its slot).
    Cancellation does not wait for a slot.
    """
    holder = _current.get()
    if holder is None or holder.closed or holder.task is not asyncio.current_task():
        yield
        return
    holder.waits += 1
    if holder.waits == 1:
        holder.release()
    cancelled = False
    try:
        yield
    except asyncio.CancelledError:
        cancelled = True
        raise
    finally:
        holder.waits -= 1
        if holder.waits == 0 and not holder.closed and not holder.held and not cancelled:
            await holder.slots._acquire(returning=True)
            holder.held = True
            if holder.closed:  # the update ended while this wait took a slot back
                holder.release()
