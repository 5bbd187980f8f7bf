"""Dice sources and the traditional names of rolls (docs/rules.md §4)."""

from __future__ import annotations

import random
import secrets
from typing import Protocol

from nardy.fairness import commitment, derive_die


class DiceSource(Protocol):
    """Anything that rolls one fair six-sided die."""

    def roll_die(self) -> int:
        """Return a value in 1..6."""
        ...


class SystemDice:
    """Dice from the operating system's CSPRNG (the default for real games)."""

    def roll_die(self) -> int:
        """Return a value in 1..6 from ``secrets``."""
        return secrets.randbelow(6) + 1


class FairDice:
    """Provably fair dice (:mod:`nardy.fairness`): die number ``start``, ``start + 1``, … derived from a secret
    server seed and a public client seed, so that the record of a game can be checked once the seed is revealed.
    A game rebuilt from its record continues with ``start`` = the dice it has rolled (``fairness.dice_rolled``)."""

    def __init__(self, server_seed: str, client_seed: str, start: int = 0) -> None:
        """Raises: FairnessError (a ValueError) when the server seed is not 64 hex digits."""
        commitment(server_seed)  # validates the seed now rather than at the first roll
        self._server_seed = server_seed
        self._client_seed = client_seed
        self.index = start

    def __repr__(self) -> str:  # never shows the secret seed
        return f"FairDice(client_seed={self._client_seed!r}, index={self.index})"

    def roll_die(self) -> int:
        """Return the next derived die, a value in 1..6."""
        value = derive_die(self._server_seed, self._client_seed, self.index)
        self.index += 1
        return value


class SeededDice:
    """Reproducible dice for tests and self-play."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def roll_die(self) -> int:
        """Return a value in 1..6 from the seeded generator."""
        return self._random.randint(1, 6)


class FixedDice:
    """Dice that return a given sequence of values (tests, replays); raises when the sequence runs out."""

    def __init__(self, values: list[int]) -> None:
        self._values = list(values)

    def roll_die(self) -> int:
        """Return the next value.

        Raises:
            ValueError: the sequence is exhausted or holds a value outside 1..6.
        """
        if not self._values:
            raise ValueError("FixedDice ran out of values")
        value = self._values.pop(0)
        if not 1 <= value <= 6:
            raise ValueError(f"die value {value} is outside 1..6")
        return value


_NAMES = {
    (2, 1): "ду ек",
    (2, 2): "дубара",
    (3, 1): "се ек",
    (3, 2): "се ба ду",
    (3, 3): "ду се",
    (4, 1): "чару ек",
    (4, 2): "чару ду",
    (4, 3): "чару се",
    (4, 4): "дорт чар",
    (5, 1): "панджу ек",
    (5, 2): "панджу ду",
    (5, 3): "панджу се",
    (5, 4): "панджу чар",
    (5, 5): "ду беш",
    (6, 1): "шешу ек",
    (6, 2): "шешу ду",
    (6, 3): "шешу се",
    (6, 4): "шешу чар",
    (6, 5): "шешу беш",
    (6, 6): "ду шеш",
}


def dice_name(d1: int, d2: int) -> str | None:
    """Return the traditional name of a roll (``шешу беш`` for 6-5), or None for 1-1, which has none.

    Raises:
        ValueError: a die outside 1..6.
    """
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice {d1}-{d2} are outside 1..6")
    return _NAMES.get((max(d1, d2), min(d1, d2)))
