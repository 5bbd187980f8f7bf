"""The pairing pools role: players waiting to be paired (the lobby, an arena), and the pairings claimed from them.

A pool holds one entry per waiting member, ordered by ``score`` (a rating in the lobby, an arena score in an arena).
A worker reads the entries, chooses pairs, and claims each pair: one atomic step that takes both members out of the
pool and stores the pairing as *open*, exactly once however many workers try. The worker then makes the game (under
the pairing's id) and *closes* the pairing, or — when the game cannot be made — *releases* it, which puts both
members back. A pairing left open (its worker died) is found by :meth:`PairingPools.open_pairings` and rolled
forward or released by another worker (:mod:`bot.services.matchmaking`): nobody is lost, nobody is in two games
from one pairing.

A member claimed into an open pairing stays bound to it until it is closed or released; putting the member into
the pool again, or removing it, unbinds it, so that a release never brings back an entry that was replaced or
withdrawn meanwhile. A member that withdraws itself (a cancelled seek) uses :meth:`PairingPools.pool_withdraw`
instead, which never touches a binding: once claimed, the pair is made (or released) as it would have been, so a
player is never told the seek was cancelled while its game is being made. Closed and released pairing ids are
remembered for :data:`CLOSED_PAIRING_RETENTION`: a claim under such an id is refused too.

A pass over a big pool reads it page by page (:func:`read_pool`), claims its pairs in batches
(:meth:`PairingPools.claim_pairs`, :data:`CLAIM_BATCH` a round trip) and closes them in batches
(:meth:`PairingPools.close_pairings`). Workers take turns on a pool with a short lease
(:meth:`PairingPools.try_lead_pool`): one pass at a time, so that two workers do not choose the same pairs and lose
half their claims to each other.

Pool names: ``lobby`` and ``arena:<tournament id>`` (any non-empty string). Times are unix seconds of the caller's
clock (``now``); expiry (``PoolEntry.expires``) is judged at the ``now`` given, and ``purge_expired`` of the store
drops expired entries on the store's clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable

from .documents import JSONDict

CLOSED_PAIRING_RETENTION = 24 * 3600.0
"""Seconds for which the id of a closed or released pairing is remembered (a claim under it returns None)."""

CLAIM_BATCH = 500
"""The most claims one :meth:`PairingPools.claim_pairs` call is meant for (a Lua script of a few milliseconds)."""


@dataclass(frozen=True, slots=True)
class PoolEntry:
    """One waiting member of a pool.

    Attributes:
        member: the member's id (a user id as a string), unique in its pool.
        score: the order of the pool (rating or arena score); a finite number.
        since: when the member started waiting (unix seconds).
        data: opaque JSON of the caller (name, language, variant, clock, blocked ids, ...).
        expires: when the entry stops counting (unix seconds), None for never.
    """

    member: str
    score: float
    since: float
    data: JSONDict
    expires: float | None = None


@dataclass(frozen=True, slots=True)
class StoredPairing:
    """A pair claimed from a pool: its id (the game's id too), the pool, both entries as they were claimed (in the
    order of the claim) and when it was made (the ``now`` of the claim)."""

    pairing_id: str
    pool: str
    entries: tuple[PoolEntry, PoolEntry]
    made: float


class Withdrawal(StrEnum):
    """What :meth:`PairingPools.pool_withdraw` found."""

    REMOVED = "removed"
    """The member's entry was deleted."""
    PAIRED = "paired"
    """The member is bound to an open pairing (claimed, its game being made): nothing changed."""
    ABSENT = "absent"
    """The member neither waits nor is bound: nothing changed."""


@runtime_checkable
class PairingPools(Protocol):
    """Pools of waiting members and the pairings claimed from them (see the module docstring).

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back end
    cannot be reached, and ValueError for an empty pool name.
    """

    async def pool_put(self, pool: str, entry: PoolEntry) -> None:
        """Add ``entry`` to ``pool``, replacing the member's entry when there is one; a member bound to an open
        pairing is unbound (releasing that pairing will not bring the old entry back). Returns nothing.

        Raises: ValueError when the score (or ``since``, ``expires``) is not a finite number.
        """
        ...

    async def pool_remove(self, pool: str, member: str) -> bool:
        """Take ``member`` out of ``pool`` (a cancelled seek, a player who left): its entry (expired or not) is
        deleted, and a binding to an open pairing dropped (releasing that pairing will not put it back).

        Returns: True when there was an entry or a binding, else False.
        """
        ...

    async def pool_withdraw(self, pool: str, member: str) -> Withdrawal:
        """Atomically: when ``member`` is bound to an open pairing of ``pool``, change nothing (the pairing goes on:
        its game is made, or a release puts the member back); else delete its entry (expired or not).

        Returns: :attr:`Withdrawal.PAIRED` when bound, :attr:`Withdrawal.REMOVED` when an entry was deleted, else
            :attr:`Withdrawal.ABSENT`.
        """
        ...

    async def pool_binding(self, pool: str, member: str) -> str | None:
        """Return the id of the open pairing of ``pool`` the member is bound to (claimed, not yet closed or
        released), or None."""
        ...

    async def pool_entry(self, pool: str, member: str, now: float) -> PoolEntry | None:
        """Return the member's entry, or None when it is not waiting in the pool or its entry expired at ``now``."""
        ...

    async def pool_entries(
        self, pool: str, now: float, limit: int = 1000, *, after: tuple[float, str] | None = None
    ) -> list[PoolEntry]:
        """Return at most ``limit`` unexpired entries of ``pool`` at ``now``, by ascending score (equal scores by
        member id, in code-point order). ``after``: a ``(score, member)`` cursor — only entries that come after
        it in that order (the last entry of the previous page; that entry need not be in the pool any more). A
        whole pool is read page by page with :func:`read_pool`; fewer than ``limit`` entries means the last page.
        """
        ...

    async def claim_pair(
        self, pool: str, pairing_id: str, members: tuple[str, str], now: float
    ) -> StoredPairing | None:
        """Atomically, when both members wait in ``pool`` unexpired at ``now``: take both out of the pool, bind them
        to the pairing and store it as open, made at ``now``. Of any number of concurrent claims (any workers)
        naming a member, at most one gets it.

        Returns: the pairing; None when a member is missing or expired, or ``pairing_id`` is open or was closed or
            released before (then nothing changed).
        Raises: ValueError when both members are the same.
        """
        ...

    async def claim_pairs(
        self, pool: str, claims: Sequence[tuple[str, tuple[str, str]]], now: float
    ) -> list[StoredPairing]:
        """Claim a batch of pairs in one atomic step (one Lua script, one transaction): each ``(pairing_id,
        members)`` of ``claims``, in order, exactly as :meth:`claim_pair` would one after the other — so a member
        named by two claims of the batch goes to the first that can have it, and a refused claim changes nothing.
        Meant for batches of up to a few hundred pairs (:data:`CLAIM_BATCH`).

        Returns: the pairings claimed, in the order of ``claims`` (the refused ones left out).
        Raises: ValueError when a claim pairs a member with itself (then nothing is claimed).
        """
        ...

    async def open_pairings(self, pool: str, made_before: float, limit: int = 100) -> list[StoredPairing]:
        """Return at most ``limit`` open pairings of ``pool`` made before ``made_before`` (strictly), oldest first."""
        ...

    async def close_pairing(self, pool: str, pairing_id: str) -> bool:
        """Forget the open pairing: its game exists. Its members are unbound; its id is remembered
        (:data:`CLOSED_PAIRING_RETENTION`).

        Returns: True when it was open, False when it was not (unknown, closed or released already).
        """
        ...

    async def close_pairings(self, pool: str, pairing_ids: Sequence[str]) -> int:
        """Close each of the pairings, as :meth:`close_pairing` does, in one atomic step.

        Returns: how many of them were open (and are closed now).
        """
        ...

    async def release_pairing(self, pool: str, pairing_id: str) -> bool:
        """Put each member of the open pairing back into the pool with the entry it was claimed with — unless the
        member was put into the pool again, removed, or claimed into another pairing meanwhile — and forget the
        pairing (its id is remembered as for :meth:`close_pairing`).

        Returns: True when it was open, False when it was not (then nothing changed).
        """
        ...

    async def try_lead_pool(self, pool: str, owner: str, ttl: float, now: float) -> bool:
        """Take or renew the short lease on the pairing passes of ``pool`` (one pass at a time across workers):
        granted when nobody holds it, when ``owner`` holds it already, or when its holder's lease ran out
        (``now`` at or past the holder's ``now + ttl``); then held by ``owner`` until ``now + ttl``. A holder that
        dies loses it after ``ttl``. The lease only saves work: claims are exactly once without it.

        Returns: True when ``owner`` holds the lease now, False when another owner does.
        Raises: ValueError when ``ttl`` is not a positive finite number.
        """
        ...

    async def release_pool_lead(self, pool: str, owner: str) -> bool:
        """Give up the lease of :meth:`try_lead_pool` when ``owner`` holds it (another worker may pass at once).

        Returns: True when ``owner`` held it, else False (nothing changed).
        """
        ...


async def read_pool(
    pools: PairingPools, pool: str, now: float, *, page: int = 1000, limit: int | None = None
) -> list[PoolEntry]:
    """Return the unexpired entries of ``pool`` at ``now`` by ascending score, read page by page (``page``
    entries a round trip, each page after the last entry of the one before): the whole pool, or its first
    ``limit`` entries. An entry put or removed while the pages are read may be missed or seen; a member whose
    entry was replaced by one with a higher score meanwhile is listed once, with the entry seen first.

    Raises: StoreUnavailableError (see :class:`PairingPools`); ValueError when ``page`` is not positive.
    """
    if page <= 0:
        raise ValueError(f"a page holds at least one entry, not {page}")
    entries: dict[str, PoolEntry] = {}
    after: tuple[float, str] | None = None
    while limit is None or len(entries) < limit:
        size = page if limit is None else min(page, limit - len(entries))
        chunk = await pools.pool_entries(pool, now, size, after=after)
        for entry in chunk:
            entries.setdefault(entry.member, entry)
        if len(chunk) < size:
            break
        after = (chunk[-1].score, chunk[-1].member)
    return list(entries.values())[:limit]
