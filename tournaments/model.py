"""Values shared by every format: players, matches, byes, rounds and results, and their checks."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.errors import InvalidOptionError, InvalidPlayersError, InvalidResultError, ScoreMismatchError

START_RATING = 1500.0
"""The rating of a player who has never played a rated match (§8)."""


@dataclass(frozen=True)
class Player:
    """A player of a tournament: a unique id and the rating at the start (used for seeding and tie-breaks)."""

    id: str
    rating: float = START_RATING


@dataclass(frozen=True)
class Match:
    """One pairing: ``first`` and ``second`` play a match; ``bracket`` names the elimination bracket, if any."""

    id: str
    round: int
    first: str
    second: str
    bracket: str = ""

    def opponent(self, player: str) -> str:
        """Return the other player of the match. Raises :class:`InvalidResultError` if ``player`` is not in it."""
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        raise InvalidResultError(f"{player!r} does not play match {self.id}")


@dataclass(frozen=True)
class Bye:
    """A player without an opponent in a round: a round-robin rest (0), a Swiss bye (1) or an elimination bye."""

    round: int
    player: str
    points: float


@dataclass(frozen=True)
class Round:
    """The pairings of one round: its matches and its byes (rests)."""

    number: int
    matches: tuple[Match, ...]
    byes: tuple[Bye, ...] = ()


@dataclass(frozen=True)
class Result:
    """The outcome of a match. ``winner`` is None for a drawn match (½ each); the points are game points won."""

    match_id: str
    winner: str | None
    first_points: int = 0
    second_points: int = 0
    forfeit: bool = False


def match_points(match: Match, result: Result, player: str) -> float:
    """Return what ``player`` scored in the match: 1 for a win, ½ for a draw, 0 for a loss.

    Raises :class:`InvalidResultError` if the player is not in the match.
    """
    match.opponent(player)
    if result.winner is None:
        return 0.5
    return 1.0 if result.winner == player else 0.0


def game_points(match: Match, result: Result, player: str) -> tuple[int, int]:
    """Return the game points (won, lost) by ``player`` in the match. Raises if the player is not in it."""
    match.opponent(player)
    if player == match.first:
        return result.first_points, result.second_points
    return result.second_points, result.first_points


def forfeit(match: Match, loser: str) -> Result:
    """Return the result of ``match`` lost by forfeit by ``loser`` (0–0 in game points, marked as a forfeit).

    Raises :class:`InvalidResultError` if ``loser`` is not in the match.
    """
    return Result(match.id, match.opponent(loser), forfeit=True)


def check_result(match: Match, result: Result, *, draws: bool) -> None:
    """Check that ``result`` fits ``match``; return None.

    Raises :class:`InvalidResultError` for another match's id, a winner who did not play, a draw where ``draws`` is
    False, a forfeit without a winner, or negative game points; :class:`ScoreMismatchError` (a subclass) for a winner
    with fewer game points than the loser (equal points are accepted: a forfeit is 0–0, a match score is capped at
    the match length).
    """
    if result.match_id != match.id:
        raise InvalidResultError(f"result for match {result.match_id} given as the result of match {match.id}")
    if result.winner is None:
        if not draws:
            raise InvalidResultError(
                f"match {match.id}: a drawn match is not possible here (only in matches to 1 point)"
            )
        if result.forfeit:
            raise InvalidResultError(f"match {match.id}: a forfeit needs a winner")
    elif result.winner not in (match.first, match.second):
        raise InvalidResultError(
            f"match {match.id}: winner {result.winner!r} is neither {match.first!r} nor {match.second!r}"
        )
    if result.first_points < 0 or result.second_points < 0:
        raise InvalidResultError(f"match {match.id}: negative game points {result.first_points}–{result.second_points}")
    if result.winner is not None:
        won, lost = game_points(match, result, result.winner)
        if won < lost:
            loser = match.opponent(result.winner)
            raise ScoreMismatchError(
                f"match {match.id}: winner {result.winner!r} scored fewer game points than {loser!r} ({won}–{lost})"
            )


def check_length(length: int) -> int:
    """Return ``length`` (the match length N) if it is a positive integer; else raise :class:`InvalidOptionError`."""
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise InvalidOptionError(f"a match length must be a positive integer, not {length!r}")
    return length


def check_players(players: Iterable[Player], *, minimum: int = 2) -> tuple[Player, ...]:
    """Return the players as a tuple after checking them.

    Raises :class:`InvalidPlayersError` for fewer than ``minimum`` players, an empty or repeated id, or a rating that
    is not a finite number.
    """
    field = tuple(players)
    if len(field) < minimum:
        raise InvalidPlayersError(f"a tournament needs at least {minimum} players, got {len(field)}")
    seen: set[str] = set()
    for player in field:
        if not isinstance(player, Player):
            raise InvalidPlayersError(f"not a Player: {player!r}")
        if not isinstance(player.id, str) or not player.id:
            raise InvalidPlayersError(f"a player id must be a non-empty string, not {player.id!r}")
        if player.id in seen:
            raise InvalidPlayersError(f"player id {player.id!r} appears twice")
        if isinstance(player.rating, bool) or not isinstance(player.rating, int | float):
            raise InvalidPlayersError(f"player {player.id!r}: rating {player.rating!r} is not a number")
        if not math.isfinite(player.rating):
            raise InvalidPlayersError(f"player {player.id!r}: rating {player.rating!r} is not finite")
        seen.add(player.id)
    return field


def seeded(players: Iterable[Player]) -> tuple[Player, ...]:
    """Return the players in seed order: rating descending, equal ratings in the order given. Raises nothing."""
    field = tuple(players)
    order = sorted(range(len(field)), key=lambda i: (-field[i].rating, i))
    return tuple(field[i] for i in order)
