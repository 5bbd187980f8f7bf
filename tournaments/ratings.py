"""FIBS ratings (§8): win probability, K = 4·√N, the experience boost, and a rated match's new ratings."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tournaments.errors import InvalidOptionError
from tournaments.model import START_RATING, check_length

BOOST_EXPERIENCE = 400
"""While a player's experience is below this, its rating changes are multiplied by the experience boost."""


@dataclass(frozen=True)
class Rating:
    """A player's rating in one variant and its experience (the sum of the lengths of its rated matches)."""

    value: float = START_RATING
    experience: int = 0

    def __post_init__(self) -> None:
        if not math.isfinite(self.value):
            raise InvalidOptionError(f"a rating must be a finite number, not {self.value!r}")
        if isinstance(self.experience, bool) or not isinstance(self.experience, int) or self.experience < 0:
            raise InvalidOptionError(f"experience must be a non-negative integer, not {self.experience!r}")


def win_probability(rating: float, opponent: float, length: int) -> float:
    """Return the probability that a player rated ``rating`` wins a match to ``length`` against ``opponent``.

    The underdog (lower rating, D points below) wins with 1 / (10^(D·√N/2000) + 1), the favourite with the rest.
    Raises :class:`InvalidOptionError` if ``length`` is not a positive integer.
    """
    check_length(length)
    return 1.0 / (math.pow(10.0, (opponent - rating) * math.sqrt(length) / 2000.0) + 1.0)


def k_factor(length: int) -> float:
    """Return K = 4·√N for a match to N = ``length``. Raises :class:`InvalidOptionError` for a bad length."""
    return 4.0 * math.sqrt(check_length(length))


def experience_boost(experience: int) -> float:
    """Return the multiplier max(1, 5 − experience/100) while experience < 400, else 1.

    Raises :class:`InvalidOptionError` for a negative experience.
    """
    if experience < 0:
        raise InvalidOptionError(f"experience must be non-negative, not {experience!r}")
    if experience >= BOOST_EXPERIENCE:
        return 1.0
    return max(1.0, 5.0 - experience / 100.0)


def rating_change(winner: Rating, loser: Rating, length: int) -> tuple[float, float]:
    """Return (gain of the winner, loss of the loser) for a match to ``length``; both are non-negative.

    The base is K × (1 − the winner's win probability); each side is multiplied by its own experience boost.
    Raises :class:`InvalidOptionError` for a bad length.
    """
    base = k_factor(length) * (1.0 - win_probability(winner.value, loser.value, length))
    return base * experience_boost(winner.experience), base * experience_boost(loser.experience)


def rate_match(winner: Rating, loser: Rating, length: int, *, forfeit: bool = False) -> tuple[Rating, Rating]:
    """Return the new ratings (winner, loser) after a finished match to ``length``; experience grows by N each.

    A forfeit is not rated: both ratings come back unchanged. Raises :class:`InvalidOptionError` for a bad length.
    """
    check_length(length)
    if forfeit:
        return winner, loser
    gain, loss = rating_change(winner, loser, length)
    return (
        Rating(winner.value + gain, winner.experience + length),
        Rating(loser.value - loss, loser.experience + length),
    )
