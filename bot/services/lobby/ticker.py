"""The lobby's wake-up: a pairing pass every ``interval`` seconds while anyone waits, in this process.

Every worker that takes a seek starts its ticker (:meth:`LobbyTicker.ensure`), and so does every worker whose sweep
(or start-up recovery) finds seekers waiting (:meth:`bot.services.lobby.service.LobbyParts.sweep`): after a restart,
or when the worker that took a seek stops, the next sweep of any worker takes the passes over. Of the workers whose
ticker runs, one leads the passes at a time (the pool's lead in the store,
:meth:`bot.services.lobby.seeking.Lobby.tick`); the others only watch whether anyone waits, and take the lead when
the leader stops passing. Passing at once would be safe anyway — a pair is claimed once across all workers
(:mod:`bot.storage.pools`) — the lead only saves the work. The ticker stops by itself once the pool is empty.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.outage import Outage
from bot.storage.errors import StoreUnavailableError

log = logging.getLogger(__name__)


class LobbyTicker:
    """Runs ``work`` (a pass; returns whether anyone still waits) every ``interval`` seconds while it says so."""

    def __init__(
        self,
        work: Callable[[], Awaitable[bool]],
        *,
        interval: float = 2.0,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        """Pass with ``work`` every ``interval`` seconds (0: never: only seeks and sweeps pass), waiting with
        ``sleep``."""
        self.work = work
        self.interval = interval
        self.sleep = sleep
        self._task: asyncio.Task[None] | None = None
        self.outage = Outage("lobby passes", log, needs="the store", meanwhile="the seeks wait for the next sweep")

    @property
    def running(self) -> bool:
        """Whether the ticker's loop runs."""
        return self._task is not None and not self._task.done()

    def ensure(self) -> None:
        """Start the loop unless it runs (or the interval is 0). Returns nothing."""
        if self.interval <= 0 or self.running:
            return
        self._task = asyncio.create_task(self._loop(), name="lobby-ticker")

    async def _loop(self) -> None:
        while True:
            await self.sleep(self.interval)
            try:
                waiting = await self.work()
            except StoreUnavailableError as error:  # the sweep starts the ticker again once the store is back
                self.outage.failed(error)
                return
            except Exception:
                log.exception("a lobby pass failed (the next sweep starts the passes again)")
                return
            self.outage.succeeded()
            if not waiting:
                return

    async def stop(self) -> None:
        """Stop the loop (a pass under way is cancelled: a pairing it left open is recovered). Returns nothing."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
