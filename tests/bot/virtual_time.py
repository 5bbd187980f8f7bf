"""Virtual time for tests: a clock whose ``sleep`` advances time at once instead of waiting."""

from __future__ import annotations

import asyncio


class VirtualClock:
    """Callable clock (seconds) with an async ``sleep`` that only moves the clock forward."""

    def __init__(self, start: float = 1000.0) -> None:
        """Start at ``start`` seconds."""
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        """Return the current virtual time."""
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Record the sleep, advance the clock by it, and yield to the event loop once."""
        self.sleeps.append(seconds)
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)
