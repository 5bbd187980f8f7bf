"""Standings and tie-breaks (§8) for round robin, Swiss and elimination, and the round-robin cross-table.

Places: players whose whole sort key is equal share a place; the next place skips (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tournaments.model import Bye, Match, Player, Result, game_points, match_points

Played = tuple[Match, Result]
"""A decided match and its result."""

_Key = tuple[float, ...]


@dataclass(frozen=True)
class RoundRobinRow:
    """One line of round-robin standings; the columns after ``points`` are the tie-breaks in the order applied."""

    place: int
    player: str
    points: float
    head_to_head: float
    sonneborn_berger: float
    game_point_difference: int
    rating: float
    played: int
    wins: int
    draws: int
    losses: int
    forfeits: int


@dataclass(frozen=True)
class SwissRow:
    """One line of Swiss standings; the columns after ``points`` are the tie-breaks in the order applied."""

    place: int
    player: str
    points: float
    buchholz_cut1: float
    buchholz: float
    sonneborn_berger: float
    rating: float
    byes: int


@dataclass(frozen=True)
class EliminationRow:
    """One line of elimination standings: the round reached (higher is better), whether still in, the rating."""

    place: int
    player: str
    reached: int
    eliminated: bool
    rating: float
    unbeaten: bool = False
    """Still in without a loss (double elimination: still in the winners' bracket, or its champion)."""


@dataclass(frozen=True)
class CrossCell:
    """One cell of the cross-table: the results of ``player`` against ``opponent`` in schedule order."""

    player: str
    opponent: str
    points: tuple[float, ...]
    scores: tuple[tuple[int, int], ...]
    forfeits: tuple[bool, ...]


@dataclass(frozen=True)
class CrossTable:
    """The round-robin cross-table: ``players`` in standings order; ``cells[i][j]`` is i against j (None on i = j)."""

    players: tuple[str, ...]
    cells: tuple[tuple[CrossCell | None, ...], ...]


def _places(keys: Sequence[_Key], better: Callable[[_Key, _Key], bool]) -> list[int]:
    return [1 + sum(1 for other in keys if better(other, key)) for key in keys]


def _rank(ids: Sequence[str], key: Callable[[str], _Key]) -> tuple[list[str], list[int]]:
    """Sort ``ids`` by ``key`` (larger is better) keeping input order on ties; return them and their places."""
    order = sorted(range(len(ids)), key=lambda i: (*(-x for x in key(ids[i])), i))
    ranked = [ids[i] for i in order]
    keys = [key(p) for p in ranked]
    return ranked, _places(keys, lambda a, b: a > b)


def _points(players: Iterable[Player], played: Iterable[Played], byes: Iterable[Bye] = ()) -> dict[str, float]:
    points = {p.id: 0.0 for p in players}
    for match, result in played:
        for player in (match.first, match.second):
            points[player] += match_points(match, result, player)
    for bye in byes:
        points[bye.player] += bye.points
    return points


def _sonneborn_berger(played: Iterable[Played], points: dict[str, float]) -> dict[str, float]:
    sb = dict.fromkeys(points, 0.0)
    for match, result in played:
        for player in (match.first, match.second):
            sb[player] += match_points(match, result, player) * points[match.opponent(player)]
    return sb


def round_robin_standings(players: Sequence[Player], played: Sequence[Played]) -> tuple[RoundRobinRow, ...]:
    """Return the round-robin standings of ``players`` after the decided matches ``played``, best first.

    Order: match points (a win 1, a draw ½, a rest 0); then the points scored in the matches among the players tied
    on match points; then Sonneborn–Berger; then game-point difference; then rating. Any remaining tie shares the
    place. Raises :class:`InvalidResultError` if a result names a player who is not in its match.
    """
    ratings = {p.id: p.rating for p in players}
    points = _points(players, played)
    sb = _sonneborn_berger(played, points)
    gpd = dict.fromkeys(ratings, 0)
    counts = {p: [0, 0, 0, 0, 0] for p in ratings}  # played, wins, draws, losses, forfeits
    h2h = dict.fromkeys(ratings, 0.0)
    for match, result in played:
        tied = points[match.first] == points[match.second]
        for player in (match.first, match.second):
            won, lost = game_points(match, result, player)
            gpd[player] += won - lost
            score = match_points(match, result, player)
            if tied:
                h2h[player] += score
            row = counts[player]
            row[0] += 1
            row[1 if score == 1.0 else 2 if score == 0.5 else 3] += 1
            row[4] += result.forfeit and result.winner != player
    ids = [p.id for p in players]
    ranked, places = _rank(ids, lambda p: (points[p], h2h[p], sb[p], float(gpd[p]), ratings[p]))
    return tuple(
        RoundRobinRow(place, p, points[p], h2h[p], sb[p], gpd[p], ratings[p], *counts[p])
        for place, p in zip(places, ranked, strict=True)
    )


def cross_table(players: Sequence[Player], played: Sequence[Played]) -> CrossTable:
    """Return the cross-table of a round robin: players in standings order, one cell per ordered pair.

    Raises :class:`InvalidResultError` if a result names a player who is not in its match.
    """
    order = tuple(row.player for row in round_robin_standings(players, played))
    cells: list[tuple[CrossCell | None, ...]] = []
    for player in order:
        line: list[CrossCell | None] = []
        for opponent in order:
            if opponent == player:
                line.append(None)
                continue
            games = [(m, r) for m, r in played if {m.first, m.second} == {player, opponent}]
            line.append(
                CrossCell(
                    player,
                    opponent,
                    tuple(match_points(m, r, player) for m, r in games),
                    tuple(game_points(m, r, player) for m, r in games),
                    tuple(r.forfeit for _, r in games),
                )
            )
        cells.append(tuple(line))
    return CrossTable(order, tuple(cells))


def swiss_standings(
    players: Sequence[Player], played: Sequence[Played], byes: Sequence[Bye] = ()
) -> tuple[SwissRow, ...]:
    """Return the Swiss standings of ``players`` after the decided matches ``played`` and the ``byes``, best first.

    Order: match points (a bye counts its points); then Buchholz Cut 1 (the opponents' match points without the
    lowest); then Buchholz; then Sonneborn–Berger; then rating. A bye has no opponent and adds nothing to Buchholz
    or Sonneborn–Berger. Any remaining tie shares the place. Raises :class:`InvalidResultError` if a result names a
    player who is not in its match.
    """
    ratings = {p.id: p.rating for p in players}
    points = _points(players, played, byes)
    sb = _sonneborn_berger(played, points)
    opponents: dict[str, list[float]] = {p: [] for p in ratings}
    for match, _ in played:
        for player in (match.first, match.second):
            opponents[player].append(points[match.opponent(player)])
    buchholz = {p: sum(scores) for p, scores in opponents.items()}
    cut1 = {p: buchholz[p] - min(scores) if scores else 0.0 for p, scores in opponents.items()}
    bye_count = dict.fromkeys(ratings, 0)
    for bye in byes:
        bye_count[bye.player] += 1
    ids = [p.id for p in players]
    ranked, places = _rank(ids, lambda p: (points[p], cut1[p], buchholz[p], sb[p], ratings[p]))
    return tuple(
        SwissRow(place, p, points[p], cut1[p], buchholz[p], sb[p], ratings[p], bye_count[p])
        for place, p in zip(places, ranked, strict=True)
    )


def elimination_standings(
    players: Sequence[Player],
    reached: dict[str, int],
    eliminated: frozenset[str],
    unbeaten: frozenset[str] = frozenset(),
) -> tuple[EliminationRow, ...]:
    """Return elimination standings, best first: players still in first, then the round reached, then the
    ``unbeaten`` above the others, then rating.

    ``reached`` maps every player id to the round it reached; raises ``KeyError`` if one is missing.
    Any remaining tie shares the place.
    """
    ratings = {p.id: p.rating for p in players}
    ids = [p.id for p in players]
    ranked, places = _rank(
        ids, lambda p: (float(p not in eliminated), float(reached[p]), float(p in unbeaten), ratings[p])
    )
    return tuple(
        EliminationRow(place, p, reached[p], p in eliminated, ratings[p], p in unbeaten)
        for place, p in zip(places, ranked, strict=True)
    )
