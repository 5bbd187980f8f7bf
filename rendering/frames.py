"""Variant names and the mapping between the two players' frames of reference.

The renderer needs only three facts about a variant: its board (``"short"`` for short nardy and the variants played
on its board, Hypergammon, Nackgammon, Portes, Misère; ``"long"`` for long nardy), how many checkers a side has (15, or
3 in Hypergammon) and how a point number in one player's frame reads in the other player's frame. Both mappings are
involutions (applying one twice gives the point back), so the same function converts in either direction.
"""

from __future__ import annotations

from typing import Literal, Protocol

from nardy.errors import NardyError
from nardy.variants import get_variant

VariantName = Literal["short", "long"]

VARIANT_NAMES: tuple[VariantName, ...] = ("short", "long")


class NamedVariant(Protocol):
    """Anything with a ``name`` attribute, such as the engine's variant objects."""

    @property
    def name(self) -> str: ...


VariantLike = str | NamedVariant


def variant_name(variant: VariantLike) -> VariantName:
    """Return the board of a variant given by name (any alias of a registered variant) or by an object with a
    ``.name``: ``"short"`` for short nardy and every variant on its board (opposite geometry), ``"long"`` for long
    nardy (parallel geometry).

    Raises:
        ValueError: no registered variant has that name.
    """
    name = variant if isinstance(variant, str) else getattr(variant, "name", None)
    if name == "short":
        return "short"
    if name == "long":
        return "long"
    try:
        engine = get_variant(str(name)) if isinstance(name, str) else None
    except NardyError:
        engine = None
    if engine is None:
        raise ValueError(f"unknown nardy variant {variant!r}: expected 'short', 'long' or a variant of nardy.variants")
    return "short" if engine.geometry == "opposite" else "long"


def checker_count(variant: VariantLike) -> int:
    """Return how many checkers a side has in ``variant`` (15 unless the registered variant says otherwise).

    Raises:
        ValueError: no registered variant has that name.
    """
    variant_name(variant)
    name = variant if isinstance(variant, str) else getattr(variant, "name", "")
    try:
        return get_variant(str(name)).checkers
    except NardyError:
        return 15


def other_frame(point: int, variant: VariantName) -> int:
    """Return the number, in the other player's frame, of the board point ``point`` (1..24) of one player's frame.

    Short nardy: the players move in opposite directions, so point ``q`` is the other's ``25 - q``. Long nardy: both
    move the same way round, so point ``q`` is the other's ``q + 12`` (mod 24, in 1..24).

    Raises:
        ValueError: ``point`` is not a board point (1..24).
    """
    if not 1 <= point <= 24:
        raise ValueError(f"point {point} is not a board point 1..24")
    if variant == "short":
        return 25 - point
    return (point + 12 - 1) % 24 + 1
