"""Helpers of the tournament tests: fields of players and playing a tournament to its end by a rule."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, Self, TypeVar

from tournaments import Match, Player, Result


def field(n: int) -> tuple[Player, ...]:
    """Players p1..pn, rated so that p1 is seed 1 (1600, 1590, ...)."""
    return tuple(Player(f"p{i}", 1610.0 - 10 * i) for i in range(1, n + 1))


def seed_no(player: str) -> int:
    return int(player[1:])


class Advancing(Protocol):
    @property
    def is_over(self) -> bool: ...

    def playable(self) -> tuple[Match, ...]: ...

    def record(self, result: Result) -> Self: ...


def favourite(match: Match) -> Result:
    """The higher seed wins 1–0."""
    winner = min(match.first, match.second, key=seed_no)
    return Result(match.id, winner, int(winner == match.first), int(winner == match.second))


def random_rule(rng: random.Random, *, draws: bool = False) -> Callable[[Match], Result]:
    def rule(match: Match) -> Result:
        options: list[str | None] = [match.first, match.second]
        if draws:
            options.append(None)
        winner = rng.choice(options)
        low, high = sorted((rng.randint(0, 3), rng.randint(0, 3)))
        if winner is None or winner == match.first:  # the winner never scored fewer game points than the loser
            return Result(match.id, winner, high, low)
        return Result(match.id, winner, low, high)

    return rule


T = TypeVar("T", bound=Advancing)


def play_out(tournament: T, rule: Callable[[Match], Result] = favourite, limit: int = 10_000) -> T:
    for _ in range(limit):
        if tournament.is_over:
            return tournament
        tournament = tournament.record(rule(tournament.playable()[0]))
    raise AssertionError("the tournament did not end")
