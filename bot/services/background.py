"""The periodic work of a bot process: the recovery pass at start-up and the sweep (boards left behind, reminders,
timeouts, lost computer replies, tournaments, expired records). :meth:`PeriodicWork.run` runs it in this process
when no job queue does (:mod:`bot.jobs` runs :meth:`PeriodicWork.sweep_once` as its ``sweep`` job); :mod:`bot.wiring`
builds it and starts either.

An outage of the store is waited out quietly (:mod:`bot.outage`): one WARNING when the recovery pass or a sweep finds
the store unavailable, one INFO when a sweep gets through again, no traceback; the in-process loop then tries again
with a capped backoff instead of waiting a whole interval."""

from __future__ import annotations

import asyncio
import logging
from typing import Final, Protocol

from bot.metrics import Metrics
from bot.outage import NETWORK_ERRORS, Outage
from bot.services.game_config import GameConfig
from bot.services.timers import Sweeper
from bot.storage import Store
from bot.storage.errors import StoreUnavailableError

log = logging.getLogger(__name__)


class LobbySweep(Protocol):
    """The lobby's part of the sweep (:class:`bot.services.lobby.service.LobbyParts`)."""

    async def sweep(self) -> None:
        """A pairing pass, the seeks' expiry, the recovery of open pairings, and the passes restarted while anyone
        waits. Returns nothing. Raises: StoreUnavailableError."""
        ...


STORE_OUTAGE: Final[tuple[type[BaseException], ...]] = (StoreUnavailableError, *NETWORK_ERRORS)
"""What an unavailable store raises (the store wraps network failures; a raw one is counted too)."""


class DueRecords(Protocol):
    """What sweeps the due tournaments and arenas (:class:`bot.services.arena.router.CompetitionRouter`, or the
    tournaments' reconciler alone)."""

    async def sweep(self, now: float | None = None, *, limit: int = 100) -> int:
        """Bring every record due by ``now`` up to date. Returns: how many were handled. Raises:
        StoreUnavailableError."""
        ...


class PeriodicWork:
    """The recovery pass and the sweep, on the parts they drive: the games' sweeper, the tournaments and the
    store's purge."""

    def __init__(self, store: Store, config: GameConfig, sweeper: Sweeper, tournaments: DueRecords) -> None:
        """Sweep the games with ``sweeper`` and the tournaments and arenas with ``tournaments``, purge ``store``;
        ``config`` gives the clock and ``board_retry_after`` (how far ahead a crashed process left its boards'
        deadlines)."""
        self.store = store
        self.config = config
        self.sweeper = sweeper
        self.tournaments = tournaments
        self.lobby: LobbySweep | None = None
        """The lobby's sweep (set by the composition root; None: no lobby)."""
        self.outage = Outage("periodic work", log, needs="the store", meanwhile="due games wait for the next sweep")

    async def recover(self) -> int:
        """Bring up to date every board a previous process left behind (its games' wake-up deadlines are at most
        ``board_retry_after`` ahead) and do whatever else is due in the games. Returns: games handled. Raises:
        StoreUnavailableError."""
        return await self.sweeper.sweep(self.config.clock() + self.config.board_retry_after, limit=1000)

    async def recover_once(self) -> None:
        """At start-up: :meth:`recover` the games, then the tournaments (their deadlines as far ahead). Never raises
        (logs errors, an unavailable store as the start of an outage; the sweep retries)."""
        try:
            await self.recover()
            await self.tournaments.sweep(self.config.clock() + self.config.board_retry_after, limit=1000)
            if self.lobby is not None:
                await self.lobby.sweep()
        except STORE_OUTAGE as error:
            self.outage.failed(error)
        except Exception:
            log.exception("start-up recovery failed (the sweeper retries)")

    async def sweep_once(self, purge_batch: int = 500, metrics: Metrics | None = None) -> None:
        """Handle due games (boards behind, reminders, timeouts, lost computer replies), tournaments and the lobby's
        seeks, and purge expired records in batches of ``purge_batch``; count it in ``metrics`` (job ``sweep``, and
        the unfinished games as ``nardy_active_games``). Never raises (logs errors; an unavailable store once per
        outage, see the module docstring)."""
        outcome = "error"
        try:
            await self.sweeper.sweep()
            await self.tournaments.sweep()
            if self.lobby is not None:
                await self.lobby.sweep()
            await self.store.purge_expired(purge_batch)
            outcome = "ok"
            if metrics is not None:
                metrics.active_games.set(await self.store.active_game_count())
        except STORE_OUTAGE as error:
            self.outage.failed(error)
        except Exception:  # the sweeper must survive anything else too
            log.exception("timeout sweep failed")
        else:
            self.outage.succeeded()
        if metrics is not None:
            metrics.job("sweep", outcome)

    async def run(self, interval: float, purge_batch: int = 500, metrics: Metrics | None = None) -> None:
        """The in-process sweeper: :meth:`recover_once`, then :meth:`sweep_once` every ``interval`` seconds (sooner,
        after the backoff, while the store is unavailable), forever. Never raises."""
        await self.recover_once()
        while True:
            await self.sweep_once(purge_batch, metrics)
            await asyncio.sleep(min(interval, self.outage.backoff) if self.outage.down else interval)
