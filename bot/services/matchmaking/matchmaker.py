"""The matchmaker: one pairing pass over a pool, and the recovery of pairings whose worker died.

A pass reads the pool's entries, asks the chooser for pairs, and for each pair: claims it under a new id
(:meth:`~bot.storage.pools.PairingPools.claim_pair`, exactly once across workers), awaits ``start(pairing)`` — which
makes the game under ``id == pairing.pairing_id`` and must be idempotent — then closes the pairing (the game exists)
or, when ``start`` says the game cannot be made, releases it (both members go back into the pool). When ``start``
raises, or the worker dies before closing, the pairing stays open with its members out of the pool; after ``lease``
seconds any worker's :meth:`Matchmaker.recover` calls ``start`` again and closes or releases it. So nobody is lost,
and nobody is in two games from one pairing: the pair is made (once, by its id) or both are back in the pool.

``start`` contract: return True when the game with the pairing's id exists — made by this call or by an earlier one
(a retry, a recovery racing the original worker) — and False only when no such game exists and it cannot be made
(a player left, is busy, is blocked ...).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.storage.ids import new_id
from bot.storage.pools import PairingPools, PoolEntry, StoredPairing

log = logging.getLogger(__name__)

Chooser = Callable[[list[PoolEntry], float], list[tuple[str, str]]]
"""Picks pairs of member ids from a pool's entries at a time (``now``); a member at most once."""

Starter = Callable[[StoredPairing], Awaitable[bool]]
"""Makes the game of a pairing (idempotent, under the pairing's id); False when it cannot be made."""


class Matchmaker:
    """Pairs members of the store's pools (see the module docstring). Stateless between calls: any number of
    matchmakers (workers) may work on one pool at once."""

    def __init__(
        self,
        pools: PairingPools,
        clock: Callable[[], float],
        *,
        lease: float = 30.0,
        batch: int = 1000,
        concurrency: int = 16,
    ) -> None:
        """Work on ``pools`` at the times of ``clock`` (unix seconds).

        ``lease``: seconds after which a pairing still open is another worker's to recover. ``batch``: the most
        entries one pass reads (the lowest scores first, as the store lists them). ``concurrency``: the most pairs
        claimed and started at once in a pass.
        """
        self._pools = pools
        self._clock = clock
        self._lease = lease
        self._batch = batch
        self._gate = asyncio.Semaphore(max(1, concurrency))

    async def pair(self, pool: str, choose: Chooser, start: Starter) -> list[StoredPairing]:
        """Run one pairing pass over ``pool``: read its entries, ``choose`` pairs, claim each under a new id
        (:func:`bot.storage.ids.new_id`), await ``start`` on it, then close it (True) or release it (False).
        A pair the chooser names that cannot be claimed (a member taken by another worker, gone, expired) is
        skipped; a pair of one member with itself is skipped and logged. An exception of ``start`` is logged and
        leaves that pairing open for :meth:`recover`; the other pairs go on.

        Returns: the pairings whose game was made and that were closed, in the chooser's order.
        Raises: StoreUnavailableError when the store fails (after the pass's other pairs were settled; a pairing
            whose claim or close failed is left to :meth:`recover` or was never made).
        """
        now = self._clock()
        entries = await self._pools.pool_entries(pool, now, self._batch)
        if len(entries) < 2:
            return []
        pairs = choose(entries, now)
        outcomes = await asyncio.gather(*(self._make(pool, pair, start) for pair in pairs), return_exceptions=True)
        made: list[StoredPairing] = []
        failure: BaseException | None = None
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                failure = failure or outcome
            elif outcome is not None:
                made.append(outcome)
        if failure is not None:
            raise failure
        return made

    async def recover(self, pool: str, start: Starter) -> int:
        """Settle the pairings of ``pool`` open for longer than ``lease`` (their worker died, or ``start`` raised):
        await ``start`` again (idempotent: the game is made once, by the pairing's id), then close the pairing
        (True) or release it (False). At most 100, oldest first, per call; an exception of ``start`` is logged and
        leaves the pairing open for a later call.

        Returns: how many pairings were closed or released.
        Raises: StoreUnavailableError when the store fails.
        """
        stale = await self._pools.open_pairings(pool, self._clock() - self._lease)
        settled = 0
        for pairing in stale:
            log.warning("pairing %s of pool %s is recovered after its lease", pairing.pairing_id, pool)
            if await self._settle(pairing, start) is not None:
                settled += 1
        return settled

    async def _make(self, pool: str, pair: tuple[str, str], start: Starter) -> StoredPairing | None:
        """Claim ``pair`` and settle it; return the pairing when its game was made and it was closed."""
        first, second = pair
        if first == second:
            log.error("the chooser paired %s with itself in pool %s: skipped", first, pool)
            return None
        async with self._gate:
            pairing = await self._pools.claim_pair(pool, new_id(), (first, second), self._clock())
            if pairing is None:
                return None
            return pairing if await self._settle(pairing, start) else None

    async def _settle(self, pairing: StoredPairing, start: Starter) -> bool | None:
        """Await ``start`` on the pairing, then close it (True) or release it (False).

        Returns: True when closed, False when released, None when ``start`` raised (the pairing stays open).
        Raises: StoreUnavailableError when closing or releasing fails.
        """
        try:
            made = await start(pairing)
        except Exception:
            log.exception(
                "starting pairing %s of pool %s failed: left open for recovery", pairing.pairing_id, pairing.pool
            )
            return None
        if made:
            await self._pools.close_pairing(pairing.pool, pairing.pairing_id)
            return True
        await self._pools.release_pairing(pairing.pool, pairing.pairing_id)
        return False
