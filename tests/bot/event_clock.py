"""An event-driven virtual clock for timing tests: sleeps wait for the clock, and a driver moves the clock to the
next wake-up only when the event loop has nothing else to do, so concurrent sleeps overlap as in real time."""

from __future__ import annotations

import asyncio
import heapq
import itertools


class EventClock:
    """Callable clock (seconds) whose ``sleep`` resumes when the driver has moved the clock to its wake-up time."""

    def __init__(self, start: float = 1000.0, *, idle: float = 0.003) -> None:
        """Start at ``start``; the driver advances after ``idle`` real seconds without other work."""
        self.now = start
        self.idle = idle
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()
        self._driver: asyncio.Task[None] | None = None

    def __call__(self) -> float:
        """Return the current virtual time."""
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of virtual time (at least one turn of the event loop)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._seq), future))
        await future

    def start(self) -> None:
        """Start the driver task."""
        self._driver = asyncio.create_task(self._drive(), name="event-clock")

    async def stop(self) -> None:
        """Stop the driver task."""
        if self._driver is not None:
            self._driver.cancel()
            await asyncio.gather(self._driver, return_exceptions=True)

    async def _drive(self) -> None:
        while True:
            await asyncio.sleep(self.idle)  # real time: whatever can run (threads included) runs now
            while self._sleepers and self._sleepers[0][2].done():
                heapq.heappop(self._sleepers)
            if not self._sleepers:
                continue
            when, _, future = heapq.heappop(self._sleepers)
            self.now = max(self.now, when)
            future.set_result(None)
