"""The periodic work of a bot process: the recovery pass at start-up and the sweep (boards left behind, reminders,
timeouts, lost computer replies, tournaments, expired records). The in-process :func:`sweeper` runs it when no job
queue does (:mod:`bot.jobs` queues :func:`sweep_once` as its ``sweep`` job); :mod:`bot.wiring` starts either."""

from __future__ import annotations

import asyncio
import logging

from bot.metrics import Metrics
from bot.services.game_service import GameService

log = logging.getLogger(__name__)


async def recover_once(service: GameService) -> None:
    """Bring up to date whatever a previous process left behind (boards, stats, computer replies, tournaments).
    Never raises (logs errors; the sweep retries)."""
    try:
        await service.recover()
        await service.tournaments.sweep(service.clock() + service.board_retry_after, limit=1000)
    except Exception:
        log.exception("start-up recovery failed (the sweeper retries)")


async def sweep_once(service: GameService, purge_batch: int = 500, metrics: Metrics | None = None) -> None:
    """Handle due games (boards behind, reminders, timeouts, lost computer replies) and tournaments, and purge
    expired records in batches of ``purge_batch``; count it in ``metrics`` (job ``sweep``, and the unfinished
    games as ``nardy_active_games``). Never raises (logs errors)."""
    outcome = "error"
    try:
        await service.sweep()
        await service.tournaments.sweep()
        await service.store.purge_expired(purge_batch)
        outcome = "ok"
        if metrics is not None:
            metrics.active_games.set(await service.store.active_game_count())
    except Exception:  # the sweeper must survive store outages and anything else
        log.exception("timeout sweep failed")
    if metrics is not None:
        metrics.job("sweep", outcome)


async def sweeper(
    service: GameService, interval: float, purge_batch: int = 500, metrics: Metrics | None = None
) -> None:
    """The in-process sweeper: :func:`recover_once`, then :func:`sweep_once` every ``interval`` seconds, forever.
    Never raises."""
    await recover_once(service)
    while True:
        await sweep_once(service, purge_batch, metrics)
        await asyncio.sleep(interval)
