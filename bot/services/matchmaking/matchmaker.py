"""The matchmaker: one pairing pass over a pool, and the recovery of pairings whose worker died.

A pass takes the pool's short pass lease (:meth:`~bot.storage.pools.PairingPools.try_lead_pool`: one pass at a time
per pool across workers; a worker that finds it held skips the pass), reads the whole pool page by page
(:func:`~bot.storage.pools.read_pool`), asks the chooser for pairs and claims them in batches under new ids
(:meth:`~bot.storage.pools.PairingPools.claim_pairs`, each pair exactly once across workers; one round trip for up
to ``claim_batch`` pairs), renewing the lease before each batch and giving it up after the last one. As soon as a
batch is claimed its pairs are started — ``start(pairing)``, concurrently up to ``concurrency`` at once, which makes
the game under ``id == pairing.pairing_id`` and must be idempotent — while the next batch is claimed; the batch's
pairings whose game was made are then closed together (:meth:`~bot.storage.pools.PairingPools.close_pairings`), and
each one whose game cannot be made (``start`` said False) is released: both members go back into the pool. When
``start`` raises, or the worker dies before closing, the pairing stays open with its members out of the pool; after
``lease`` seconds any worker's :meth:`Matchmaker.recover` calls ``start`` again and closes or releases it. So nobody
is lost, and nobody is in two games from one pairing: the pair is made (once, by its id) or both are back in the pool.

``start`` contract: return True when the game with the pairing's id exists — made by this call or by an earlier one
(a retry, a recovery racing the original worker) — and False only when no such game exists and it cannot be made
(a player left, is busy, is blocked ...).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.storage.errors import StoreUnavailableError
from bot.storage.ids import new_id
from bot.storage.pools import CLAIM_BATCH, PairingPools, PoolEntry, StoredPairing, read_pool

log = logging.getLogger(__name__)

Chooser = Callable[[list[PoolEntry], float], list[tuple[str, str]]]
"""Picks pairs of member ids from a pool's entries at a time (``now``); a member at most once."""

Starter = Callable[[StoredPairing], Awaitable[bool]]
"""Makes the game of a pairing (idempotent, under the pairing's id); False when it cannot be made."""

PASS_LEASE = 10.0
"""Default seconds of a pass's lease on its pool: renewed before each claim batch, so only a pass whose reading and
choosing take longer loses it (then it claims nothing more); a worker that dies mid-pass holds the pool that long."""


class Matchmaker:
    """Pairs members of the store's pools (see the module docstring). Any number of matchmakers (workers) may work
    on one pool at once: their passes take turns on the pool's lease, and within one matchmaker the passes over a
    pool run one after the other."""

    def __init__(
        self,
        pools: PairingPools,
        clock: Callable[[], float],
        *,
        lease: float = 30.0,
        concurrency: int = 16,
        page: int = 1000,
        limit: int | None = None,
        claim_batch: int = CLAIM_BATCH,
        pass_lease: float | None = PASS_LEASE,
        owner: str | None = None,
    ) -> None:
        """Work on ``pools`` at the times of ``clock`` (unix seconds).

        ``lease``: seconds after which a pairing still open is another worker's to recover. ``concurrency``: the
        most ``start`` calls awaited at once. ``page``: the entries read a round trip; ``limit``: the most entries
        one pass reads (the lowest scores first), None for the whole pool. ``claim_batch``: the most pairs claimed
        (and closed) a round trip. ``pass_lease``: seconds of the pass lease on the pool (:data:`PASS_LEASE`), None
        for no lease (every worker passes whenever it likes, losing claims to the others). ``owner``: this
        worker's name on the lease (a new id by default).
        """
        self._pools = pools
        self._clock = clock
        self._lease = lease
        self._gate = asyncio.Semaphore(max(1, concurrency))
        self._page = max(1, page)
        self._limit = limit
        self._claim_batch = max(1, claim_batch)
        self._pass_lease = pass_lease
        self._owner = owner or f"matchmaker-{new_id()}"
        self._passes: dict[str, asyncio.Lock] = {}

    async def pair(self, pool: str, choose: Chooser, start: Starter) -> list[StoredPairing]:
        """Run one pairing pass over ``pool`` (see the module docstring): take the pool's pass lease — or, when
        another worker holds it, return [] at once —, read the whole pool, ``choose`` pairs, claim them in batches
        under new ids (:func:`bot.storage.ids.new_id`), await ``start`` on each claimed one, then close it (True,
        in batches) or release it (False). A pair the chooser names that cannot be claimed (a member taken by
        another worker, gone, expired) is skipped; a pair of one member with itself is skipped and logged. An
        exception of ``start`` is logged and leaves that pairing open for :meth:`recover`; the other pairs go on.
        A call made while this matchmaker's previous pass over ``pool`` still claims waits for it.

        Returns: the pairings whose game was made and that were closed, in the chooser's order.
        Raises: StoreUnavailableError when the store fails (after the pass's claimed pairs were settled; a
            pairing whose claim or close failed is left to :meth:`recover` or was never made).
        """
        settling: list[asyncio.Task[list[StoredPairing]]] = []
        failure: BaseException | None = None
        try:
            async with self._passes.setdefault(pool, asyncio.Lock()):
                await self._claim_pass(pool, choose, start, settling)
        except Exception as exc:  # the store (or the chooser) failed: the batches claimed before are settled first
            failure = exc
        made: list[StoredPairing] = []
        for outcome in await asyncio.gather(*settling, return_exceptions=True):
            if isinstance(outcome, BaseException):
                failure = failure or outcome
            else:
                made.extend(outcome)
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
        for pairing in stale:
            log.warning("pairing %s of pool %s is recovered after its lease", pairing.pairing_id, pool)
        closed, released = await self._settle(pool, stale, start)
        return len(closed) + released

    async def _claim_pass(
        self, pool: str, choose: Chooser, start: Starter, settling: list[asyncio.Task[list[StoredPairing]]]
    ) -> None:
        """Lead ``pool``, read it, choose and claim the pairs batch by batch, adding a task settling each batch to
        ``settling``; give the lead up after. Raises: StoreUnavailableError."""
        if not await self._lead(pool):
            return
        try:
            now = self._clock()
            entries = await read_pool(self._pools, pool, now, page=self._page, limit=self._limit)
            if len(entries) < 2:
                return
            pairs = [pair for pair in choose(entries, now) if self._sound(pool, pair)]
            for first in range(0, len(pairs), self._claim_batch):
                if not await self._lead(pool):
                    log.warning("pass over pool %s lost its lease: %d pairs left to the next", pool, len(pairs) - first)
                    return
                claims = [(new_id(), pair) for pair in pairs[first : first + self._claim_batch]]
                claimed = await self._pools.claim_pairs(pool, claims, self._clock())
                if claimed:
                    settling.append(asyncio.create_task(self._settle_made(pool, claimed, start)))
        finally:
            await self._unlead(pool)

    async def _lead(self, pool: str) -> bool:
        """Take or renew the pass lease on ``pool``; True when held (always, without a lease)."""
        if self._pass_lease is None:
            return True
        return await self._pools.try_lead_pool(pool, self._owner, self._pass_lease, self._clock())

    async def _unlead(self, pool: str) -> None:
        """Give the pass lease on ``pool`` up; a failure is logged (the lease then runs out by itself)."""
        if self._pass_lease is None:
            return
        try:
            await self._pools.release_pool_lead(pool, self._owner)
        except StoreUnavailableError:
            log.warning("could not give up the pass lease on pool %s: it runs out after %s s", pool, self._pass_lease)

    @staticmethod
    def _sound(pool: str, pair: tuple[str, str]) -> bool:
        """Return False (and log) for a pair of one member with itself."""
        if pair[0] == pair[1]:
            log.error("the chooser paired %s with itself in pool %s: skipped", pair[0], pool)
            return False
        return True

    async def _settle_made(self, pool: str, pairings: Sequence[StoredPairing], start: Starter) -> list[StoredPairing]:
        """Settle a claimed batch; return the pairings whose game was made and that were closed."""
        closed, _ = await self._settle(pool, pairings, start)
        return closed

    async def _settle(
        self, pool: str, pairings: Sequence[StoredPairing], start: Starter
    ) -> tuple[list[StoredPairing], int]:
        """Await ``start`` on each pairing (at most ``concurrency`` at once), release those it says no to, then
        close those made, together.

        Returns: (the pairings closed, in order; how many were released).
        Raises: StoreUnavailableError when a release or the close fails (after the others were settled).
        """
        outcomes = await asyncio.gather(*(self._start(pairing, start) for pairing in pairings), return_exceptions=True)
        made = [pairing for pairing, outcome in zip(pairings, outcomes, strict=True) if outcome is True]
        released = sum(1 for outcome in outcomes if outcome is False)
        for begun in range(0, len(made), self._claim_batch):
            await self._pools.close_pairings(pool, [p.pairing_id for p in made[begun : begun + self._claim_batch]])
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        return made, released

    async def _start(self, pairing: StoredPairing, start: Starter) -> bool | None:
        """Await ``start`` on the pairing; release it when the game cannot be made.

        Returns: True when the game exists (to close), False when released, None when ``start`` raised (the
            pairing stays open for :meth:`recover`).
        Raises: StoreUnavailableError when releasing fails.
        """
        async with self._gate:
            try:
                made = await start(pairing)
            except Exception:
                log.exception(
                    "starting pairing %s of pool %s failed: left open for recovery", pairing.pairing_id, pairing.pool
                )
                return None
        if made:
            return True
        await self._pools.release_pairing(pairing.pool, pairing.pairing_id)
        return False
