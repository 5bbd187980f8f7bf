"""Background work of one process: a keyed task runner, and the protocol of the job queue that may take its place.

:class:`KeyedTasks` runs at most one task per key (a game, a tournament); a request for a key whose task is running
makes that task run its work once more when the current run ends, so requests coalesce and nothing runs twice at
once for one key. The board converger, the computer's replies and the tournaments each own one. :class:`Alarms`
keeps one wake-up per key at a time (the game clocks' deadlines, :mod:`bot.services.clock_watch`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.outage import Outage
from bot.storage.errors import StoreUnavailableError

log = logging.getLogger(__name__)

Work = Callable[[str], Awaitable[None]]
"""What a task does for its key (called again while requests for the key keep coming)."""


class JobQueue(Protocol):
    """Where the services hand their background work when a job queue runs it (:mod:`bot.jobs`)."""

    def computer_turn(self, game_id: str, delay: float) -> None:
        """Queue the computer's reply in the game, to start after ``delay`` seconds. Returns nothing."""
        ...

    def tournament_reconcile(self, tournament_id: str, delay: float) -> None:
        """Queue bringing the tournament up to date, to start after ``delay`` seconds. Returns nothing."""
        ...

    def clock_deadline(self, game_id: str, delay: float) -> None:
        """Queue looking at the game's clock (ending the match on time if it ran out), to start after ``delay``
        seconds. Returns nothing."""
        ...


class Scheduler:
    """The one place that says where background work runs: on the job queue :attr:`queue` once one is started
    (:mod:`bot.wiring` sets it), else in this process (each service's :class:`KeyedTasks`)."""

    def __init__(self, queue: JobQueue | None = None) -> None:
        """Start with ``queue`` (None: in this process)."""
        self.queue = queue


class KeyedTasks:
    """At most one background task per key, requests for a running key coalescing into one more run."""

    def __init__(self, name: str, *, sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        """``name`` prefixes the tasks' names (``<name>-<key>``); ``sleep`` waits out a request's delay."""
        self.name = name
        self.sleep = sleep
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wanted: set[str] = set()
        self.outage = Outage(f"background work {name}", log, needs="the store", meanwhile="the sweeper retries it")
        """The store's outages as this work sees them (one WARNING, one INFO; no traceback)."""

    def request(self, key: str, work: Work, *, delay: float = 0.0) -> None:
        """Run ``work(key)`` in a background task after ``delay`` seconds, or once more after the key's running
        task ends its current run (the delay is then not waited again). Returns nothing."""
        self._wanted.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.create_task(self._run(key, work, delay), name=f"{self.name}-{key}")

    def forget(self, key: str) -> None:
        """Drop a pending repeat of the key's work (its running task ends after the current run). Returns nothing."""
        self._wanted.discard(key)

    def busy(self, key: str) -> bool:
        """Return whether the key's task is running (or waiting out its delay)."""
        task = self._tasks.get(key)
        return task is not None and not task.done()

    def busy_any(self) -> bool:
        """Return whether any task is running."""
        return any(not task.done() for task in self._tasks.values())

    def tasks(self) -> list[asyncio.Task[None]]:
        """Return the tasks now running (diagnostics and tests)."""
        return list(self._tasks.values())

    async def _run(self, key: str, work: Work, delay: float) -> None:
        try:
            if delay > 0:
                await self.sleep(delay)
            while key in self._wanted:
                self._wanted.discard(key)
                await work(key)
                self.outage.succeeded()
        except StoreUnavailableError as error:  # an outage: the sweeper does the work once the store is back
            self.outage.failed(error)
        except Exception:  # the work logs what it can handle; anything else is left to the sweeper
            log.exception("background work %s-%s failed", self.name, key)
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]

    async def settle(self) -> None:
        """Wait until no task is running. Returns nothing."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel the running tasks and drop the pending repeats. Returns nothing."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self._wanted.clear()


class Alarms:
    """One wake-up per key: :meth:`set` runs ``work(key)`` after a delay, replacing the key's wake-up that is still
    waiting (a work already under way is not interrupted). The waits are not work: :meth:`settle` waits only for
    the works under way, :meth:`stop` cancels both."""

    def __init__(self, name: str, *, sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        """``name`` prefixes the tasks' names (``<name>-<key>``); ``sleep`` waits out a delay."""
        self.name = name
        self.sleep = sleep
        self._waiting: dict[str, asyncio.Task[None]] = {}
        self._working: set[asyncio.Task[None]] = set()
        self.outage = Outage(f"background work {name}", log, needs="the store", meanwhile="the sweeper retries it")
        """The store's outages as this work sees them (one WARNING, one INFO; no traceback)."""

    def set(self, key: str, work: Work, *, delay: float) -> None:
        """Run ``work(key)`` in a background task after ``delay`` seconds, instead of the key's pending wake-up.
        Returns nothing."""
        pending = self._waiting.pop(key, None)
        if pending is not None:
            pending.cancel()
        task = asyncio.create_task(self._run(key, work, delay), name=f"{self.name}-{key}")
        if delay > 0:
            self._waiting[key] = task
        else:  # due at once: work under way from now on
            self._working.add(task)

    def cancel(self, key: str) -> None:
        """Drop the key's wake-up still waiting (a work already under way goes on). Returns nothing."""
        pending = self._waiting.pop(key, None)
        if pending is not None:
            pending.cancel()

    def pending(self, key: str) -> bool:
        """Return whether the key has a wake-up still waiting."""
        return key in self._waiting

    @property
    def working(self) -> bool:
        """Whether a woken work is under way."""
        return bool(self._working)

    async def _run(self, key: str, work: Work, delay: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        if delay > 0:
            try:
                await self.sleep(delay)
            finally:
                if self._waiting.get(key) is task:
                    del self._waiting[key]
            self._working.add(task)
        try:
            await work(key)
            self.outage.succeeded()
        except StoreUnavailableError as error:  # an outage: the sweeper does the work once the store is back
            self.outage.failed(error)
        except Exception:  # the work logs what it can handle; anything else is left to the sweeper
            log.exception("background work %s-%s failed", self.name, key)
        finally:
            self._working.discard(task)

    async def settle(self) -> None:
        """Wait until no woken work is under way (the wake-ups still waiting are not waited for). Returns nothing."""
        while self._working:
            await asyncio.gather(*list(self._working), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel the waiting wake-ups and the works under way. Returns nothing."""
        tasks = [*self._waiting.values(), *self._working]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._waiting.clear()
        self._working.clear()
