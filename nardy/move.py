"""Steps (one checker, one die) and moves (a whole turn), and their canonical text (docs/rules.md §5; reading
it is :mod:`nardy.notation`'s)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from nardy.position import BAR, OFF, Frozen, Position, Reduced, reduce_frozen

RESERVE_POINT: Final = 26
"""The ``src`` of a step that enters a checker from the reserve (Acey-deucey, Dutch backgammon; written ``in``)."""


def point_name(point: int) -> str:
    """Return the canonical text of a point: ``bar`` for 25, ``off`` for 0, ``in`` for 26 (the reserve), else the
    number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    if point == RESERVE_POINT:
        return "in"
    return str(point)


@dataclass(frozen=True, slots=True, order=True)
class Step:
    """One checker moved by one die, in the mover's frame: ``src`` 1..25 (25 = bar), ``dst`` 0..24 (0 = off).

    In the variants with a reserve (Acey-deucey, Dutch backgammon) ``src`` 26 (:data:`RESERVE_POINT`, written
    ``in``) enters a checker from the reserve: a die d takes it to ``dst`` 25 - d, as from the bar, so for such a
    step ``src - dst`` is ``die + 1``, not ``die``.
    """

    src: int
    dst: int
    die: int
    hit: bool = False

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)

    def __str__(self) -> str:
        return f"{point_name(self.src)}/{point_name(self.dst)}{'*' if self.hit else ''}"


def _chains(steps: Sequence[Step]) -> list[list[Step]]:
    chains: list[list[Step]] = []
    for step in steps:
        for chain in reversed(chains):
            if chain[-1].dst == step.src and step.src != OFF:
                chain.append(step)
                break
        else:
            chains.append([step])
    return chains


def _chain_text(chain: list[Step]) -> str:
    parts = [point_name(chain[0].src)]
    parts.extend(point_name(s.dst) + ("*" if s.hit else "") for s in chain)
    return "/".join(parts)


def format_steps(steps: Sequence[Step]) -> str:
    """Return the canonical notation of a turn given as its steps in play order (``""`` for no steps)."""
    counted: dict[str, tuple[tuple[int, ...], int]] = {}
    for chain in _chains(steps):
        text = _chain_text(chain)
        key = (chain[0].src, *(s.dst for s in chain))
        prev = counted.get(text)
        counted[text] = (key, (prev[1] if prev else 0) + 1)
    ordered = sorted(counted.items(), key=lambda item: tuple(-p for p in item[1][0]))
    return " ".join(text if n == 1 else f"{text}({n})" for text, (_, n) in ordered)


class Move(Frozen):
    """A legal turn: its steps in play order and the position after it (mover's frame, not swapped)."""

    __slots__ = ("position", "steps")
    _fields: ClassVar[tuple[str, ...]] = ("steps", "position")
    steps: Final[tuple[Step, ...]]
    position: Final[Position]

    def __init__(self, steps: tuple[Step, ...], position: Position) -> None:
        self.steps = steps
        self.position = position

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.steps == other.steps and self.position == other.position

    def __hash__(self) -> int:
        return hash((self.steps, self.position))

    @property
    def notation(self) -> str:
        """Return the canonical notation of the turn (docs/rules.md §5)."""
        return format_steps(self.steps)

    @property
    def hits(self) -> int:
        """Return how many opponent checkers the turn hits."""
        return sum(step.hit for step in self.steps)

    def __str__(self) -> str:
        return self.notation
