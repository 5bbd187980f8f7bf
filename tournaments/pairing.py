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
    graph: nx.Graph = nx.Graph()
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            ga, size = in_group[a]
            cost = level1 * met[frozenset((a, b))]
            if scores[a] == scores[b]:
                cost += (abs(ga - in_group[b][0]) - size // 2) ** 2
            else:
                cost += level4 * round(2 * (scores[a] - scores[b])) ** 2 + (rank[a] - rank[b]) ** 2
            graph.add_edge(a, b, weight=worst - cost)
    bye = None
    if n % 2:
        fewest = min(byes[p] for p in ranked)
        for p in ranked:
            if byes[p] == fewest:
                cost = level2 * (n - 1 - rank[p])
                graph.add_edge(p, _BYE, weight=worst - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[str, str]] = []
    for a, b in matching:
        if _BYE in (a, b):
            bye = b if a == _BYE else a
            continue
        pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    pairs.sort(key=lambda pair: rank[pair[0]])
    return tuple(pairs), bye
