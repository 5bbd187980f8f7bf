"""Swiss pairing of one round by maximum-weight matching (networkx), with the priorities of §8.

Priorities, each one strictly above the next: (1) as few rematches as possible (a pair that met k times costs k);
(2) in an odd field the bye goes to the lowest-ranked player who has not had one (only if everybody has had one, the
lowest-ranked of those with the fewest byes); (3) players of equal score meet (the sum of squared score differences
is smallest); (4) inside a score group the top half meets the bottom half (1 v g/2+1, 2 v g/2+2, ...), and a
player paired out of its score group meets the nearest in rank (the sum of squared rank differences is smallest).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import networkx as nx

from tournaments.errors import InvalidPlayersError

_BYE = "\x00bye"


class _Graph(nx.Graph):  # type: ignore[misc]  # networkx has no type hints
    """A graph whose ``graph[v]`` is the plain adjacency dict instead of a read-only view.

    ``nx.max_weight_matching`` reads ``G[v][w]["weight"]`` for every slack it computes (hundreds of thousands of
    times for a 256-player round), and going through the two view layers took about half of its time. The contents
    are the same, so the matching is too; only this private graph, which nothing else sees, is affected.
    """

    def __getitem__(self, node: str) -> dict[str, dict[str, int]]:
        adjacency: dict[str, dict[str, int]] = self._adj[node]
        return adjacency


SPARSE_FROM = 48
"""From this many players, a round is first paired on the pairs at most one or two score steps apart (see
:func:`_sparse_matching`); smaller fields are always paired on every pair."""


def _matching(edges: list[tuple[str, str, int]], worst: int) -> set[tuple[str, str]]:
    """Return the max-cardinality matching of least total cost over ``edges`` (a, b, cost)."""
    graph = _Graph()
    graph.add_weighted_edges_from((a, b, worst - cost) for a, b, cost in edges)
    matching: set[tuple[str, str]] = nx.max_weight_matching(graph, maxcardinality=True)
    return matching


def _sparse_matching(
    costs: list[tuple[str, str, int, int]], bye_edges: list[tuple[str, str, int]], bye_floor: int, worst: int, n: int
) -> set[tuple[str, str]] | None:
    """Return the optimal pairing found on the pairs of small score difference, or None if that is not provably it.

    The matching takes time in proportion to the number of pairs, most of which are between distant score groups
    and never used. So the pairs at most D half points apart (D = the smallest, then the second smallest, non-zero
    difference) are matched first. That pairing M is optimal over every pair if it is perfect and every pair left
    out costs more than cost(M) − ``bye_floor``: all costs are non-negative and every pairing pays at least
    ``bye_floor`` for its bye, so a pairing using a left-out pair costs more than M. Otherwise None (pair on all).
    """
    steps = sorted({halves for *_, halves in costs} - {0})
    for limit in steps[:2]:
        kept = [(a, b, cost) for a, b, cost, halves in costs if halves <= limit]
        left_out = min((cost for *_, cost, halves in costs if halves > limit), default=None)
        if left_out is None:
            return None  # nothing left out: as well pair on every pair
        matching = _matching(kept + bye_edges, worst)
        if len(matching) != (n + 1) // 2:
            continue  # no perfect pairing among the kept pairs
        cost_of = {(a, b): cost for a, b, cost in kept + bye_edges}
        total = sum(cost_of.get((a, b), cost_of.get((b, a), 0)) for a, b in matching)
        if total - bye_floor < left_out:
            return matching
    return None


def pair_round(
    ranked: Sequence[str], scores: Mapping[str, float], met: Counter[frozenset[str]], byes: Counter[str]
) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """Return the pairs of one Swiss round (higher-ranked player first, best pair first) and the bye (None if even).

    ``ranked`` lists the players to pair, best first; ``scores`` their match points; ``met`` counts the earlier
    meetings of each pair; ``byes`` the byes each player has had. Raises :class:`InvalidPlayersError` for fewer than
    two players or a repeated id, ``KeyError`` if a player has no score.
    """
    n = len(ranked)
    if n < 2 or len(set(ranked)) != n:
        raise InvalidPlayersError(f"a Swiss round needs at least two distinct players, got {list(ranked)!r}")
    rank = {p: i for i, p in enumerate(ranked)}
    groups: dict[float, list[str]] = {}
    for p in ranked:
        groups.setdefault(scores[p], []).append(p)
    in_group = {p: (i, len(g)) for g in groups.values() for i, p in enumerate(g)}
    max_diff = 2 * max(1, int(max(scores.values(), default=0) - min(scores.values(), default=0)) + 1)
    edges = n // 2 + 1
    level4 = edges * n * n + 1  # bound on the total of priority 4
    level3 = level4 * (edges * max_diff * max_diff + 1)  # bound on the totals of priorities 3 and 4
    level2 = level3 * (n + 1)
    level1 = level2 * (n + 1)
    worst = level1 * (edges * (1 + max(met.values(), default=0)) + 1)
    costs: list[tuple[str, str, int, int]] = []  # a, b, cost, score difference in half points
    for i, a in enumerate(ranked):
        ga, size = in_group[a]
        score = scores[a]
        for j in range(i + 1, n):
            b = ranked[j]
            cost = level1 * met[frozenset((a, b))] if met else 0
            if score == scores[b]:
                costs.append((a, b, cost + (abs(ga - in_group[b][0]) - size // 2) ** 2, 0))
            else:
                halves = abs(round(2 * (score - scores[b])))
                costs.append((a, b, cost + level4 * halves**2 + (i - j) ** 2, halves))
    bye_edges: list[tuple[str, str, int]] = []
    bye_floor = 0  # the least bye cost of any pairing: the lowest-ranked eligible player's
    if n % 2:
        fewest = min(byes[p] for p in ranked)
        eligible = [p for p in ranked if byes[p] == fewest]
        bye_edges = [(p, _BYE, level2 * (n - 1 - rank[p])) for p in eligible]
        bye_floor = level2 * (n - 1 - rank[eligible[-1]])
    matching = _sparse_matching(costs, bye_edges, bye_floor, worst, n) if n >= SPARSE_FROM else None
    if matching is None:
        matching = _matching([(a, b, cost) for a, b, cost, _ in costs] + bye_edges, worst)
    bye = None
    pairs: list[tuple[str, str]] = []
    for a, b in matching:
        if _BYE in (a, b):
            bye = b if a == _BYE else a
            continue
        pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    pairs.sort(key=lambda pair: rank[pair[0]])
    return tuple(pairs), bye
