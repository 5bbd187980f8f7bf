"""A live socket of the Mini App watched by a benchmark: the latest state it was sent and when each version arrived
(``benchmarks/webapp.py``, ``benchmarks/webapp_abuse.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import aiohttp
from aiohttp import WSMsgType

MOVE_TIMEOUT = 60.0
"""Seconds a version may take to reach a socket before it counts as lost."""


PING_EVERY = 25.0
"""Seconds between two pings, as the page sends them (the server cuts a socket silent for 70 s)."""


class Watcher:
    """A live socket watched as the page watches it (a ping every 25 s): the latest state it was sent and when each
    version arrived."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.arrived: dict[int, float] = {}
        self.state: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._read())
        self.pinger = asyncio.create_task(self._ping())

    @property
    def latest(self) -> int:
        return int(self.state.get("version", 0))

    async def _ping(self) -> None:
        while not self.ws.closed:
            await asyncio.sleep(PING_EVERY)
            with contextlib.suppress(aiohttp.ClientError, ConnectionError, RuntimeError):
                await self.ws.send_str('{"type": "ping"}')

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type is not WSMsgType.TEXT:
                break
            body = json.loads(message.data)
            if body.get("type") == "state":
                version = body["state"]["version"]
                self.arrived.setdefault(version, time.perf_counter())
                if version > self.latest:
                    self.state = body["state"]
                self.changed.set()
        self.changed.set()

    async def until(self, version: int, timeout: float = MOVE_TIMEOUT) -> float:
        """Return when a version ≥ ``version`` arrived. Raises: TimeoutError (also when the socket closed)."""
        deadline = time.monotonic() + timeout
        while self.latest < version:
            if self.task.done() or time.monotonic() > deadline:
                raise TimeoutError(f"version {version} never arrived")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=1.0)
        return min(t for v, t in self.arrived.items() if v >= version)

    async def close(self) -> None:
        self.pinger.cancel()
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.ws.close()
