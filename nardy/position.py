"""Immutable positions in the mover's frame.

A position holds two sides of 25 counters each, both in their own frame: index ``i`` (0..23) is the number of
checkers on that side's point ``i + 1`` and index 24 is its bar. ``me`` is the side to move. Point 1 is the deepest
point of a side's home; movement goes from high to low numbers; a checker that leaves point 1 or below is borne off.
Which player ``me`` is, is known only to the game.
"""

from __future__ import annotations

from dataclasses import dataclass

CHECKERS = 15
POINTS = 24
BAR = 25
OFF = 0
SIDE_LENGTH = 25

Side = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Position:
    """Two sides, each 25 counters in its own frame; ``me`` is the side to move."""

    me: Side
    opp: Side

    def swapped(self) -> Position:
        """Return the same position seen by the other side (the opponent becomes the mover)."""
        return Position(self.opp, self.me)

    @property
    def me_off(self) -> int:
        """Return how many checkers the mover has borne off, of 15 (a variant with fewer checkers, Hypergammon,
        counts with :meth:`nardy.variants.base.Variant.borne_off`)."""
        return CHECKERS - sum(self.me)

    @property
    def opp_off(self) -> int:
        """Return how many checkers the opponent has borne off, of 15 (see :attr:`me_off`)."""
        return CHECKERS - sum(self.opp)

    def pips(self) -> tuple[int, int]:
        """Return the pip counts ``(mover, opponent)``: the sum of each checker's distance to being borne off."""
        return side_pips(self.me), side_pips(self.opp)

    def key(self) -> str:
        """Return a compact, readable text key of the position (both sides' counters)."""
        return "/".join(",".join(map(str, side)) for side in (self.me, self.opp))


def side_pips(side: Side) -> int:
    """Return the pip count of one side in its own frame (a checker on the bar counts 25)."""
    return sum(count * (index + 1) for index, count in enumerate(side))


def make_side(points: dict[int, int]) -> Side:
    """Return a side built from ``{point: count}``; point 25 is the bar.

    Raises:
        InvalidPositionError: a point outside 1..25 or a negative count.
    """
    from nardy.errors import InvalidPositionError

    side = [0] * SIDE_LENGTH
    for point, count in points.items():
        if not 1 <= point <= BAR:
            raise InvalidPositionError(f"point {point} is outside 1..25")
        if count < 0:
            raise InvalidPositionError(f"negative count {count} on point {point}")
        side[point - 1] += count
    return tuple(side)
