"""Who plays whom now: the arena's pairing of free players and the lobby's pairing of seekers (issue 47).

Both are pure functions of the seekers and the time ``now``; neither keeps state between calls. The result is a list
of pairs of ids, each pair written (chooser, partner) in the order the pairs were made; the input order never matters
(everything is sorted by explicit keys ending with the id), so the same set of seekers always gives the same pairs.
Nobody appears twice, nobody is paired with themselves, only seekers with equal ``key`` meet, and never two of whom
one has blocked the other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tournaments.errors import InvalidOptionError, InvalidPlayersError


def _finite(value: float) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True, slots=True)
class Seeker:
    """A player waiting for a game: id, rating, when it started waiting (``since``, seconds of any epoch), its arena
    score (0 in the lobby), its last opponent (arena), the ids it never plays (``blocked``) and its ``key`` (only
    equal keys meet; in the lobby the variant and the clock).
    Raises :class:`InvalidPlayersError` for an empty id or a rating, time or score that is not a finite number.
    """

    id: str
    rating: float
    since: float
    score: float = 0.0
    last_opponent: str | None = None
    blocked: frozenset[str] = frozenset()
    key: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise InvalidPlayersError(f"a seeker's id must be a non-empty string, not {self.id!r}")
        for name in ("rating", "since", "score"):
            value = getattr(self, name)
            if not _finite(value):
                raise InvalidPlayersError(f"seeker {self.id!r}: {name} must be a finite number, not {value!r}")

    def waited(self, now: float) -> float:
        """Return how long this seeker has waited at ``now`` (0.0 when ``since`` is in the future)."""
        return max(0.0, now - self.since)

    def compatible(self, other: Seeker) -> bool:
        """Return True when this seeker and ``other`` may meet: different ids, equal keys, neither blocks the other."""
        return (
            self.id != other.id
            and self.key == other.key
            and other.id not in self.blocked
            and self.id not in other.blocked
        )


@dataclass(frozen=True, slots=True)
class RatingWindow:
    """The lobby's rating window: ``base`` rating points at once, ``per_second`` more for each second waited, and no
    limit from ``unlimited_after`` seconds on. Raises :class:`InvalidOptionError` for a negative or NaN field."""

    base: float = 100.0
    per_second: float = 10.0
    unlimited_after: float = 60.0

    def __post_init__(self) -> None:
        for name in ("base", "per_second", "unlimited_after"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value) or value < 0:
                raise InvalidOptionError(f"rating window: {name} must be a non-negative number, not {value!r}")

    def at(self, waited: float) -> float:
        """Return the widest rating difference accepted after ``waited`` seconds: ``base + per_second * waited``
        (a negative wait counts as 0), or ``math.inf`` from ``unlimited_after`` on."""
        if waited >= self.unlimited_after:
            return math.inf
        return self.base + self.per_second * max(0.0, waited)


def _check(seekers: Sequence[Seeker], now: float) -> None:
    if not _finite(now):
        raise InvalidOptionError(f"now must be a finite number, not {now!r}")
    seen: set[str] = set()
    for seeker in seekers:
        if not isinstance(seeker, Seeker):
            raise InvalidPlayersError(f"expected a Seeker, not {seeker!r}")
        if seeker.id in seen:
            raise InvalidPlayersError(f"seeker {seeker.id!r} is listed twice")
        seen.add(seeker.id)


class _Line:
    """Seekers sorted by a key, doubly linked so that one who leaves (paired, or found nobody) is unlinked in O(1)."""

    __slots__ = ("index", "items", "next", "prev")

    def __init__(self, items: list[Seeker]) -> None:
        self.items = items
        self.index = {seeker.id: i for i, seeker in enumerate(items)}
        self.prev = list(range(-1, len(items) - 1))
        self.next = [*range(1, len(items)), -1]

    def remove(self, seeker_id: str) -> None:
        """Unlink ``seeker_id`` (which must be linked)."""
        i = self.index.pop(seeker_id)
        before, after = self.prev[i], self.next[i]
        if before >= 0:
            self.next[before] = after
        if after >= 0:
            self.prev[after] = before

    def walk(self, seeker_id: str, step: list[int]) -> Iterable[Seeker]:
        """Yield the linked seekers after ``seeker_id`` in one direction (``self.next`` or ``self.prev``)."""
        i = step[self.index[seeker_id]]
        while i >= 0:
            yield self.items[i]
            i = step[i]


def _by_key(seekers: Iterable[Seeker], order: Callable[[Seeker], tuple[float | str, ...]]) -> dict[str, _Line]:
    groups: dict[str, list[Seeker]] = {}
    for seeker in seekers:
        groups.setdefault(seeker.key, []).append(seeker)
    return {key: _Line(sorted(group, key=order)) for key, group in groups.items()}


def lobby_pairs(
    seekers: Sequence[Seeker],
    now: float,
    window: RatingWindow = RatingWindow(),
) -> list[tuple[str, str]]:
    """Return the lobby's pairs at ``now``: (longer waiter, partner) in the order they were made.

    Greedy, longest waiter first (``since``, then id): each seeker not yet paired takes, among the unpaired seekers
    compatible with it (same key, not itself, neither blocks the other) whose rating differs by at most
    ``max(window.at(its wait), window.at(their wait))``, the one closest in rating (then the longer waiter, then the
    smaller id); a seeker that finds nobody is left out, and nobody later could take it either (the condition is
    symmetric). The partner is found by walking outward in rating from the seeker in its key's sorted, linked list of
    unpaired seekers, up to the widest window still possible, so a pass costs O(n log n) plus the seekers walked past
    (blocked or out of window) — a few per seeker in a crowded lobby, O(n²) only when nearly nobody fits.
    Raises :class:`InvalidPlayersError` for a repeated id and :class:`InvalidOptionError` for a non-finite ``now``.
    """
    _check(seekers, now)
    reach = {seeker.id: window.at(seeker.waited(now)) for seeker in seekers}
    lines = _by_key(seekers, lambda s: (s.rating, s.since, s.id))
    widest_finite: dict[str, float] = {}
    unlimited: dict[str, int] = {}
    for seeker in seekers:
        if math.isinf(reach[seeker.id]):
            unlimited[seeker.key] = unlimited.get(seeker.key, 0) + 1
        else:
            widest_finite[seeker.key] = max(widest_finite.get(seeker.key, 0.0), reach[seeker.id])

    def leave(line: _Line, seeker: Seeker) -> None:
        line.remove(seeker.id)
        if math.isinf(reach[seeker.id]):
            unlimited[seeker.key] -= 1

    pairs: list[tuple[str, str]] = []
    for seeker in sorted(seekers, key=lambda s: (s.since, s.id)):
        line = lines[seeker.key]
        if seeker.id not in line.index:
            continue
        bound = max(reach[seeker.id], math.inf if unlimited.get(seeker.key) else widest_finite.get(seeker.key, 0.0))
        best: tuple[float, float, str] | None = None
        partner: Seeker | None = None
        lower = iter(line.walk(seeker.id, line.prev))
        higher = iter(line.walk(seeker.id, line.next))
        below, above = next(lower, None), next(higher, None)
        while below is not None or above is not None:
            if above is None or (below is not None and seeker.rating - below.rating <= above.rating - seeker.rating):
                assert below is not None
                candidate, below = below, next(lower, None)
            else:
                candidate, above = above, next(higher, None)
            distance = abs(candidate.rating - seeker.rating)
            if distance > bound or (best is not None and distance > best[0]):
                break
            if seeker.compatible(candidate) and distance <= max(reach[seeker.id], reach[candidate.id]):
                rank = (distance, candidate.since, candidate.id)
                if best is None or rank < best:
                    best, partner = rank, candidate
        leave(line, seeker)
        if partner is not None:
            leave(line, partner)
            pairs.append((seeker.id, partner.id))
    return pairs


def _rematch(a: Seeker, b: Seeker) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def _arena_distance(a: Seeker, b: Seeker) -> tuple[float, float, float, str]:
    return (abs(a.score - b.score), abs(a.rating - b.rating), b.since, b.id)


def _nearest_fresh(line: _Line, seeker: Seeker) -> Seeker | None:
    """Return the linked seeker nearest to ``seeker`` in (score, rating) that it may meet and did not just play.

    ``line`` is sorted by (score, rating, since, id), so walking away from the seeker the score difference never
    shrinks, and inside one score the rating difference never shrinks once past the seeker's rating: each direction
    stops at the first candidate that can no longer beat the best found. (Called in ranked order, the players ranked
    above the seeker have all left the list by then, so in fact only the downward walk finds anyone.)
    """
    best: tuple[float, float, float, str] | None = None
    partner: Seeker | None = None
    for step, sign in ((line.next, 1.0), (line.prev, -1.0)):
        for candidate in line.walk(seeker.id, step):
            rank = _arena_distance(seeker, candidate)
            moving_away = sign * (candidate.rating - seeker.rating) >= 0
            if best is not None and (rank[0] > best[0] or (rank[0] == best[0] and moving_away and rank[1] > best[1])):
                break
            if seeker.compatible(candidate) and not _rematch(seeker, candidate) and (best is None or rank < best):
                best, partner = rank, candidate
    return partner


def arena_pairs(seekers: Sequence[Seeker], now: float, *, alone_after: float = 20.0) -> list[tuple[str, str]]:
    """Return the arena's pairs of free players at ``now``: (chooser, partner) in the order they were made.

    Two greedy passes over the players ranked by score, rating (both highest first), ``since`` and id:

    1. each player not yet paired takes the unpaired player it may meet (same key, neither blocks the other) and did
       not just play — neither is the other's ``last_opponent`` — that is closest in arena score, then in rating
       (then the longer waiter, then the smaller id);
    2. among those still free, a player takes its last opponent (or one whose last opponent it was), again the
       closest, but only when one of the two has waited at least ``alone_after`` seconds.

    So, as the arena wants, everyone is paired at once when a partner is allowed (no two players left over could
    meet), nobody meets their last opponent while another partner is free for either of them, and a player who has
    waited ``alone_after`` takes anyone — its last opponent included. Pass 1 walks a (score, rating)-sorted linked list
    outward from each player (O(n log n) plus the players walked past); pass 2 looks only at last opponents.
    Raises :class:`InvalidPlayersError` for a repeated id and :class:`InvalidOptionError` for a non-finite ``now`` or
    a negative ``alone_after``.
    """
    _check(seekers, now)
    if isinstance(alone_after, bool) or not isinstance(alone_after, int | float) or not alone_after >= 0:
        raise InvalidOptionError(f"alone_after must be a non-negative number, not {alone_after!r}")
    ranked = sorted(seekers, key=lambda s: (-s.score, -s.rating, s.since, s.id))
    pairs: list[tuple[str, str]] = []
    paired: set[str] = set()

    lines = _by_key(seekers, lambda s: (s.score, s.rating, s.since, s.id))
    for seeker in ranked:
        line = lines[seeker.key]
        if seeker.id not in line.index:
            continue
        partner = _nearest_fresh(line, seeker)
        line.remove(seeker.id)
        if partner is not None:
            line.remove(partner.id)
            paired.update((seeker.id, partner.id))
            pairs.append((seeker.id, partner.id))

    by_id = {seeker.id: seeker for seeker in seekers}
    played_last: dict[str, list[Seeker]] = {}
    for seeker in seekers:
        if seeker.last_opponent is not None:
            played_last.setdefault(seeker.last_opponent, []).append(seeker)
    for seeker in ranked:
        if seeker.id in paired:
            continue
        last = by_id.get(seeker.last_opponent) if seeker.last_opponent is not None else None
        candidates = [*played_last.get(seeker.id, ()), *([last] if last is not None else [])]
        allowed = [
            c
            for c in candidates
            if c.id not in paired and seeker.compatible(c) and max(seeker.waited(now), c.waited(now)) >= alone_after
        ]
        if allowed:
            partner = min(allowed, key=lambda c: _arena_distance(seeker, c))
            paired.update((seeker.id, partner.id))
            pairs.append((seeker.id, partner.id))
    return pairs
