"""Immutable positions in the mover's frame.

A position holds two sides of 25 counters each, both in their own frame: index ``i`` (0..23) is the number of
checkers on that side's point ``i + 1`` and index 24 is its bar. ``me`` is the side to move. Point 1 is the deepest
point of a side's home; movement goes from high to low numbers; a checker that leaves point 1 or below is borne off.
Which player ``me`` is, is known only to the game.

Two variants of docs/rules.md §6 need more than the 25 counters, and their sides carry extra entries after them:

- **Reserve** (Acey-deucey, Dutch: checkers not yet entered, distinct from borne off): 26 entries, index 25
  (:data:`RESERVE_INDEX`) is the number of the side's checkers still off the board waiting to enter.
- **Pinned checkers** (Plakoto): 49 entries; indices 0..24 count the side's *free* checkers and index
  ``25 + i`` (:data:`PINNED_OFFSET` + i) is 1 when one checker of the side lies pinned on its point ``i + 1``
  under the opponent's checkers (0 otherwise).

In every layout ``sum(side)`` is the number of the side's checkers not yet borne off.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar, Final

CHECKERS: Final = 15
POINTS: Final = 24
BAR: Final = 25
OFF: Final = 0
SIDE_LENGTH: Final = 25
RESERVE_INDEX: Final = 25
RESERVE_SIDE_LENGTH: Final = 26
PINNED_OFFSET: Final = 25
PINNED_SIDE_LENGTH: Final = 49

Side = tuple[int, ...]
Reduced = tuple[type[Any], tuple[object, ...]]


def reduce_frozen(value: Any) -> Reduced:
    """Return what pickle and copy need to rebuild the frozen dataclass ``value``: its class and its fields in order.

    The compiled build's frozen classes cannot be restored field by field, so each one defines ``__reduce__`` with
    this; the pure build gives the same result.
    """
    return type(value), tuple(getattr(value, field.name) for field in fields(value))


class Frozen:
    """Base of the engine's hottest immutable values (:class:`Position`, :class:`~nardy.move.Move`).

    Their fields are ``Final``: set once by ``__init__``; mypy refuses any other assignment in both builds, and the
    compiled build also refuses it at run time (AttributeError). They are written out rather than as frozen
    dataclasses because a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``: several
    times slower in the pure build, and it keeps the compiled build from setting them natively. ``_fields`` names the
    fields in order, for :meth:`__repr__` and :meth:`__reduce__`.
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __reduce__(self) -> Reduced:
        return type(self), tuple(getattr(self, name) for name in self._fields)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"


class Position(Frozen):
    """Two sides, each 25 counters in its own frame; ``me`` is the side to move."""

    __slots__ = ("me", "opp")
    _fields: ClassVar[tuple[str, ...]] = ("me", "opp")
    me: Final[Side]
    opp: Final[Side]

    def __init__(self, me: Side, opp: Side) -> None:
        self.me = me
        self.opp = opp

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.me == other.me and self.opp == other.opp

    def __hash__(self) -> int:
        return hash((self.me, self.opp))

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
    """Return the pip count of one side in its own frame: a checker on the bar or in the reserve counts 25, a
    pinned checker the number of its point."""
    total = sum(count * (index + 1) for index, count in enumerate(side[:SIDE_LENGTH]))
    if len(side) == RESERVE_SIDE_LENGTH:
        total += 25 * side[RESERVE_INDEX]
    elif len(side) == PINNED_SIDE_LENGTH:
        total += sum(flag * (index + 1) for index, flag in enumerate(side[PINNED_OFFSET:]))
    return total


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
