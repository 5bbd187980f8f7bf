"""Swiss pairing of one round by maximum-weight matching (networkx), with the priorities of §8.

Priorities, each one strictly above the next: (1) as few rematches as possible (a pair that met k times costs k);
(2) in an odd field the bye goes to the lowest-ranked player who has not had one (only if everybody has had one, the
lowest-ranked of those with the fewest byes); (3) players of equal score meet (the sum of squared score differences
is smallest); (4) inside a score group the top half meets the bottom half (1 v g/2+1, 2 v g/2+2, ...), and a
player paired out of its score group meets the nearest in rank (the sum of squared rank differences is smallest).

Each pair gets one integer cost in which every priority outweighs the totals of all those below it, and the pairing
is a perfect matching of least total cost. From :data:`SPARSE_FROM` players it is first sought by score blocks
(:func:`_pair_by_blocks`), which returns it only with a proof that no pairing over every pair costs less; otherwise
(or for smaller fields) it is the matching over every pair.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from math import isqrt

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
"""From this many players a round is first paired by score blocks (see :func:`_pair_by_blocks`); smaller fields are
always paired on every pair (a few milliseconds)."""

_FIRST_RADIUS = 8
"""The first window of :func:`_pair_by_blocks`: the pairs whose priority-4 cost is at most its square."""


def _matching(edges: list[tuple[str, str, int]], worst: int, nodes: Sequence[str] = ()) -> set[tuple[str, str]]:
    """Return the max-cardinality matching of least total cost over ``edges`` (a, b, cost), ``nodes`` added first."""
    graph = _Graph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from((a, b, worst - cost) for a, b, cost in edges)
    matching: set[tuple[str, str]] = nx.max_weight_matching(graph, maxcardinality=True)
    return matching


def _pair_by_blocks(
    ranked: Sequence[str],
    scores: Mapping[str, float],
    met: Counter[frozenset[str]],
    bye: tuple[str, str, int] | None,
    level4: int,
    worst: int,
) -> set[tuple[str, str]] | None:
    """Return a least-cost pairing of ``ranked`` with the ``bye`` edge (player, bye, cost), or None if it cannot
    prove one.

    Let P be the players without ``bye``, at the score levels l1 > l2 > ... (in half points), and call the cut
    below a level odd if an odd number of P stands above it. Every pairing of P crosses each odd cut at least once,
    and a pair spanning the gaps g1, g2, ... costs (g1 + g2 + ...)² ≥ g1² + g2² + ... at priority 3, so the least
    possible priority-3 total is LB = Σ g² over the odd cuts, reached only if every pair is inside a level or
    between neighbouring levels across an odd cut, and each odd cut is crossed once. So if a pairing M without a
    rematch, with the bye to ``bye`` (the lowest-ranked eligible player: the cheapest bye) reaches LB, every
    optimal pairing does the same (its priorities 1 to 3 can be no worse than M's), so it falls apart into the
    blocks of levels between even cuts, which none of its pairs crosses: M is optimal if each block's part is
    optimal among that block's pairs without a rematch inside a level or across neighbouring levels.

    Each block b is offered its pairs without a rematch whose priority-4 cost is at most r_b² (r_b =
    :data:`_FIRST_RADIUS` first; pairs across further levels of the block may be offered too, they never reach LB).
    The blocks are disjoint, so one matching over all of them is the union of their optimal matchings. A block's
    part M_b that reaches the block's share of LB with a priority-4 total T ≤ r_b² is optimal in its block: a
    cheaper pairing of the block has T' < T ≤ r_b², so each of its pairs costs at most r_b² and was offered. If only
    T was too large, r_b becomes ⌈√T⌉ (M_b is offered again, so the next part is no dearer and is proven); if M_b
    is not perfect or misses LB, every pair of the block is offered; if it still misses, None (the caller pairs on
    every pair). The pairs are offered in the order of the full graph (by rank), which keeps the matching's choice
    among equally good pairings close to the full graph's (equal in all but about one round in a hundred).
    """
    players = [p for p in ranked if bye is None or p != bye[0]]
    rank = {p: i for i, p in enumerate(ranked)}
    halves: dict[str, int] = {}
    for p in players:
        doubled = 2 * scores[p]
        if doubled != int(doubled):
            return None  # not whole or half points: the score gaps need not add up as assumed
        halves[p] = int(doubled)
    groups: dict[float, list[str]] = {}  # the full score groups (the bye included), as the costs see them
    for p in ranked:
        groups.setdefault(scores[p], []).append(p)
    levels = sorted(set(halves.values()), reverse=True)
    counts = Counter(halves.values())
    block_at: dict[int, int] = {}  # level -> its block
    floors = [0]  # each block's share of LB
    above = 0
    for k, level in enumerate(levels):
        block_at[level] = len(floors) - 1
        above += counts[level]
        if k + 1 < len(levels):
            if above % 2:
                floors[-1] += (level - levels[k + 1]) ** 2
            else:
                floors.append(0)
    block_of = {p: block_at[halves[p]] for p in players}
    size = Counter(block_of.values())
    radii = [_FIRST_RADIUS] * len(floors)
    while True:
        edges = _offered(players, groups, scores, rank, halves, block_of, met, level4, radii)
        matching = _matching(edges + ([] if bye is None else [bye]), worst, players)
        parts: list[list[tuple[str, str]]] = [[] for _ in floors]
        for a, b in matching:
            if _BYE not in (a, b):
                parts[block_of[a]].append((a, b))
        proven = True
        for block, part in enumerate(parts):
            if 2 * len(part) == size[block] and sum((halves[a] - halves[b]) ** 2 for a, b in part) == floors[block]:
                total = sum(_tie_cost(a, b, groups, scores, rank) for a, b in part)
                if total > radii[block] ** 2:
                    radii[block] = isqrt(total - 1) + 1  # ⌈√total⌉
                    proven = False
            elif radii[block] >= len(ranked):
                return None  # every pair of the block was offered
            else:
                radii[block] = len(ranked)  # offer every pair of the block
                proven = False
        if proven:
            return matching


def _offered(
    players: Sequence[str],
    groups: Mapping[float, list[str]],
    scores: Mapping[str, float],
    rank: Mapping[str, int],
    halves: Mapping[str, int],
    block_of: Mapping[str, int],
    met: Counter[frozenset[str]],
    level4: int,
    radii: Sequence[int],
) -> list[tuple[str, str, int]]:
    """Return the pairs :func:`_pair_by_blocks` offers (a, b, cost; a ranked above b), in rank order."""
    position = {p: i for g in groups.values() for i, p in enumerate(g)}
    edges: list[tuple[int, int, str, str, int]] = []
    for i, a in enumerate(players):
        block = block_of[a]
        radius = radii[block]
        group = groups[scores[a]]
        h = len(group) // 2
        ga = position[a]
        for gb in range(ga + max(1, h - radius), min(len(group), ga + h + radius + 1)):  # inside the level
            b = group[gb]
            if b in block_of and not met[frozenset((a, b))]:
                edges.append((rank[a], rank[b], a, b, (gb - ga - h) ** 2))
        for b in players[i + 1 :]:  # across levels of the block, at most r ranks apart
            apart = rank[b] - rank[a]
            if apart > radius:
                break
            if block_of[b] == block and halves[a] != halves[b] and not met[frozenset((a, b))]:
                edges.append((rank[a], rank[b], a, b, level4 * (halves[a] - halves[b]) ** 2 + apart * apart))
    edges.sort()
    return [(a, b, cost) for _, _, a, b, cost in edges]


def _tie_cost(
    a: str, b: str, groups: Mapping[float, list[str]], scores: Mapping[str, float], rank: Mapping[str, int]
) -> int:
    """The priority-4 cost of the pair a, b (as in :func:`pair_round`)."""
    if scores[a] == scores[b]:
        group = groups[scores[a]]
        return (abs(group.index(a) - group.index(b)) - len(group) // 2) ** 2
    return (rank[a] - rank[b]) ** 2


def _all_pairs(
    ranked: Sequence[str], scores: Mapping[str, float], met: Counter[frozenset[str]], level1: int, level4: int
) -> list[tuple[str, str, int]]:
    """Return every pair of ``ranked`` with its cost (a, b, cost), as :func:`pair_round` weighs them."""
    groups: dict[float, list[str]] = {}
    for p in ranked:
        groups.setdefault(scores[p], []).append(p)
    in_group = {p: (i, len(g)) for g in groups.values() for i, p in enumerate(g)}
    n = len(ranked)
    costs: list[tuple[str, str, int]] = []
    for i, a in enumerate(ranked):
        ga, size = in_group[a]
        score = scores[a]
        for j in range(i + 1, n):
            b = ranked[j]
            cost = level1 * met[frozenset((a, b))] if met else 0
            if score == scores[b]:
                costs.append((a, b, cost + (abs(ga - in_group[b][0]) - size // 2) ** 2))
            else:
                costs.append((a, b, cost + level4 * round(2 * (score - scores[b])) ** 2 + (i - j) ** 2))
    return costs


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
    max_diff = 2 * max(1, int(max(scores.values(), default=0) - min(scores.values(), default=0)) + 1)
    edges = n // 2 + 1
    level4 = edges * n * n + 1  # bound on the total of priority 4
    level3 = level4 * (edges * max_diff * max_diff + 1)  # bound on the totals of priorities 3 and 4
    level2 = level3 * (n + 1)
    level1 = level2 * (n + 1)
    worst = level1 * (edges * (1 + max(met.values(), default=0)) + 1)
    bye_edges: list[tuple[str, str, int]] = []
    cheapest_bye = None  # the bye edge of the lowest-ranked eligible player, the cheapest
    if n % 2:
        fewest = min(byes[p] for p in ranked)
        eligible = [p for p in ranked if byes[p] == fewest]
        bye_edges = [(p, _BYE, level2 * (n - 1 - rank[p])) for p in eligible]
        cheapest_bye = bye_edges[-1]
    matching = _pair_by_blocks(ranked, scores, met, cheapest_bye, level4, worst) if n >= SPARSE_FROM else None
    if matching is None:
        matching = _matching(_all_pairs(ranked, scores, met, level1, level4) + bye_edges, worst)
    bye = None
    pairs: list[tuple[str, str]] = []
    for a, b in matching:
        if _BYE in (a, b):
            bye = b if a == _BYE else a
            continue
        pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    pairs.sort(key=lambda pair: rank[pair[0]])
    return tuple(pairs), bye
