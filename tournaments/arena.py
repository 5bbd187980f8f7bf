"""Arena scoring and standings (lichess's arena, adapted to our games; issue 47).

An arena lasts a fixed time; a player whose game ends is paired again at once (:mod:`tournaments.matching`). Every
counted game is scored for each of its two players on their own score sheet, in the order the games ended:

- a loss scores 0 (a berserk loss too);
- a win scores 2, plus, with :attr:`ArenaRules.status_bonus`, 1 for a марс/gammon (``points == 2``) and 2 for a
  кокс/backgammon (``points == 3``);
- a win while *on fire* — the player's previous two games were both won — scores double, the status bonus with it;
  the fire lasts until a game is not won (the first two wins of a streak are never doubled);
- a berserker who wins after at least :attr:`ArenaRules.berserk_min_moves` own moves scores 1 more; that point is
  never doubled (as on lichess).

A win on time (``on_time``) is a win like any other: it keeps the fire going, scores its recorded ``points`` and earns
the berserk point only if the berserker had made enough moves before the flag fell.

The table ranks by score, then performance (the average rating of the opponents met, one entry per game), then
head to head (the points each of the tied players scored in their games against the others of the tie), then player
id; ranks run 1..n in that order, never shared.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from tournaments.errors import InvalidOptionError, InvalidPlayersError, InvalidResultError, UnknownPlayerError
from tournaments.model import START_RATING

WIN_POINTS = 2
"""What a plain win scores (before the fire doubles it)."""

BERSERK_POINTS = 1
"""What a berserk win scores on top (never doubled)."""

FIRE_AFTER = 2
"""Wins in a row after which each further win scores double."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """One finished, counted arena game; a sequence of them is in the order the games ended.

    ``players`` are the two player ids, ``winner`` the index (0 or 1) of the winner in ``players``, ``points`` 1 for a
    plain win, 2 for a марс/gammon, 3 for a кокс/backgammon; ``berserk`` and ``moves`` (own moves, i.e. turns played)
    are per player, in the order of ``players``; ``on_time`` says the loser's time ran out (still a win).
    Raises :class:`InvalidResultError` when a field is out of range (the message names the game and the field).
    """

    players: tuple[str, str]
    winner: int
    points: int = 1
    berserk: tuple[bool, bool] = (False, False)
    moves: tuple[int, int] = (0, 0)
    on_time: bool = False

    def __post_init__(self) -> None:
        where = f"arena game {self.players!r}"
        if (
            not isinstance(self.players, tuple)
            or len(self.players) != 2
            or not all(isinstance(p, str) and p for p in self.players)
        ):
            raise InvalidResultError(f"{where}: players must be two non-empty ids")
        if self.players[0] == self.players[1]:
            raise InvalidResultError(f"{where}: a player cannot play themselves")
        if not _is_int(self.winner) or self.winner not in (0, 1):
            raise InvalidResultError(f"{where}: winner must be 0 or 1 (an index into players), not {self.winner!r}")
        if not _is_int(self.points) or not 1 <= self.points <= 3:
            raise InvalidResultError(f"{where}: points must be 1, 2 or 3, not {self.points!r}")
        if not isinstance(self.berserk, tuple) or len(self.berserk) != 2:
            raise InvalidResultError(f"{where}: berserk must be a pair of booleans, not {self.berserk!r}")
        if (
            not isinstance(self.moves, tuple)
            or len(self.moves) != 2
            or not all(_is_int(m) and m >= 0 for m in self.moves)
        ):
            raise InvalidResultError(f"{where}: moves must be two non-negative integers, not {self.moves!r}")

    def side(self, player: str) -> int:
        """Return the index (0 or 1) of ``player`` in this game.

        Raises :class:`UnknownPlayerError` if ``player`` did not play it.
        """
        if player == self.players[0]:
            return 0
        if player == self.players[1]:
            return 1
        raise UnknownPlayerError(f"{player!r} did not play arena game {self.players!r}")


@dataclass(frozen=True, slots=True)
class ArenaRules:
    """The scoring options of an arena: the status bonus (+1 марс/gammon, +2 кокс/backgammon) and the fewest own
    moves a berserker must have made for the berserk point. Raises :class:`InvalidOptionError` for a negative count."""

    status_bonus: bool = False
    berserk_min_moves: int = 7

    def __post_init__(self) -> None:
        if not _is_int(self.berserk_min_moves) or self.berserk_min_moves < 0:
            raise InvalidOptionError(
                f"berserk_min_moves must be a non-negative integer, not {self.berserk_min_moves!r}"
            )


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One game on a player's score sheet: the points it scored, whether the player was on fire when it started (so a
    win in it scored double), whether the player berserked in it (whatever the result) and whether it was won."""

    points: int
    fire: bool
    berserk: bool
    won: bool


@dataclass(frozen=True, slots=True)
class ArenaStanding:
    """A player's line of the arena table: rank (1..n), score, games played and won, ``fire`` (on fire now: the next
    win scores double), ``performance`` (average rating of the opponents met, 0.0 without a game) and the sheet."""

    player: str
    rank: int
    score: int
    games: int
    wins: int
    fire: bool
    performance: float
    sheet: tuple[SheetEntry, ...]


def game_points(game: ArenaGame, side: int, *, fire: bool, rules: ArenaRules = ArenaRules()) -> int:
    """Return what the player at index ``side`` of ``game`` scores for it, being on fire (``fire``) or not.

    A loss scores 0; a win 2, plus the status bonus (``points - 1``) when ``rules.status_bonus``, the whole doubled on
    fire, plus the undoubled berserk point when that player berserked and made at least ``rules.berserk_min_moves``
    own moves. Raises :class:`InvalidResultError` if ``side`` is not 0 or 1.
    """
    if not _is_int(side) or side not in (0, 1):
        raise InvalidResultError(f"arena game {game.players!r}: side must be 0 or 1, not {side!r}")
    if game.winner != side:
        return 0
    points = WIN_POINTS + (game.points - 1 if rules.status_bonus else 0)
    if fire:
        points *= 2
    if game.berserk[side] and game.moves[side] >= rules.berserk_min_moves:
        points += BERSERK_POINTS
    return points


@dataclass(slots=True)
class _Tally:
    """A player's running score while the games are replayed."""

    score: int = 0
    wins: int = 0
    streak: int = 0
    opponents: list[float] = field(default_factory=list)
    sheet: list[SheetEntry] = field(default_factory=list)


def _check_players(players: Sequence[str]) -> None:
    seen: set[str] = set()
    for index, player in enumerate(players):
        if not isinstance(player, str) or not player:
            raise InvalidPlayersError(f"arena player #{index + 1} must be a non-empty id, not {player!r}")
        if player in seen:
            raise InvalidPlayersError(f"arena player {player!r} is listed twice")
        seen.add(player)


def _rating(ratings: Mapping[str, float], player: str) -> float:
    rating = float(ratings.get(player, START_RATING))
    if not math.isfinite(rating):
        raise InvalidPlayersError(f"the rating of {player!r} must be a finite number, not {rating!r}")
    return rating


def arena_standings(
    players: Sequence[str],
    games: Sequence[ArenaGame],
    ratings: Mapping[str, float],
    rules: ArenaRules = ArenaRules(),
) -> list[ArenaStanding]:
    """Return the arena table of ``players`` after ``games`` (in the order they ended), best first, ranks 1..n.

    Every player of ``players`` has a line, with or without games (a withdrawn player keeps theirs). ``ratings`` gives
    each player's rating for the performance; a player missing from it counts as ``START_RATING``. Order: score, then
    performance, then head to head among the players tied on both, then player id.
    Raises :class:`InvalidPlayersError` for an empty or repeated id or a non-finite rating, and
    :class:`UnknownPlayerError` for a game (named by its 1-based number) with a player not in ``players``.
    """
    _check_players(players)
    tallies = {player: _Tally() for player in players}
    # points scored by (player, opponent) in their games together, for head to head
    against: dict[tuple[str, str], int] = {}
    for number, game in enumerate(games, start=1):
        for player in game.players:
            if player not in tallies:
                raise UnknownPlayerError(
                    f"arena game #{number} {game.players!r} names {player!r}, who is not a player of the arena"
                )
        for side, player in enumerate(game.players):
            tally = tallies[player]
            opponent = game.players[1 - side]
            fire = tally.streak >= FIRE_AFTER
            won = game.winner == side
            points = game_points(game, side, fire=fire, rules=rules)
            tally.score += points
            tally.wins += won
            tally.streak = tally.streak + 1 if won else 0
            tally.opponents.append(_rating(ratings, opponent))
            tally.sheet.append(SheetEntry(points=points, fire=fire, berserk=game.berserk[side], won=won))
            against[player, opponent] = against.get((player, opponent), 0) + points

    def performance(player: str) -> float:
        opponents = tallies[player].opponents
        return math.fsum(opponents) / len(opponents) if opponents else 0.0

    perf = {player: performance(player) for player in players}
    by_score = sorted(players, key=lambda p: (-tallies[p].score, -perf[p]))
    ordered: list[str] = []
    for _, group in groupby(by_score, key=lambda p: (tallies[p].score, perf[p])):
        tied = list(group)
        if len(tied) > 1:
            head = {p: sum(against.get((p, q), 0) for q in tied if q != p) for p in tied}
            tied.sort(key=lambda p: (-head[p], p))
        ordered.extend(tied)

    table: list[ArenaStanding] = []
    for rank, player in enumerate(ordered, start=1):
        tally = tallies[player]
        table.append(
            ArenaStanding(
                player=player,
                rank=rank,
                score=tally.score,
                games=len(tally.sheet),
                wins=tally.wins,
                fire=tally.streak >= FIRE_AFTER,
                performance=perf[player],
                sheet=tuple(tally.sheet),
            )
        )
    return table
