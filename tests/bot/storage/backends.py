"""The store back ends of the contract suites: a store of one kind on one location, with a clock moved by hand."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from bot.storage import RedisGameStore, SqliteGameStore, Store

KINDS = ("redis", "cluster", "sqlite")
"""The back ends every contract test runs on: a Redis server, a 3-node Redis Cluster and the SQLite file."""


@dataclass
class Backend:
    """Opens stores of one kind on one location, and moves time forward for them."""

    kind: str
    location: str
    now: float = field(default_factory=time.time)
    opened: list[Store] = field(default_factory=list)

    def clock(self) -> float:
        return self.now

    @property
    def is_redis(self) -> bool:
        return self.kind in ("redis", "cluster")

    def open(self) -> Store:
        store: Store
        if self.is_redis:
            store = RedisGameStore.from_url(self.location, clock=self.clock)
        else:
            store = SqliteGameStore(self.location, clock=self.clock)
        self.opened.append(store)
        return store

    async def advance(self, seconds: float) -> None:
        self.now += seconds
        if self.is_redis:
            await asyncio.sleep(seconds)
