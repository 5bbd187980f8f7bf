"""Variant names and the mapping between the two players' frames of reference.

The renderer needs only two facts about a variant: its name (``"short"`` or ``"long"``) and how a point number in one
player's frame reads in the other player's frame. Both mappings are involutions (applying one twice gives the point
back), so the same function converts in either direction.
"""

from __future__ import annotations

from typing import Literal, Protocol

VariantName = Literal["short", "long"]

VARIANT_NAMES: tuple[VariantName, ...] = ("short", "long")


class NamedVariant(Protocol):
    """Anything with a ``name`` attribute, such as the engine's variant objects."""

    @property
    def name(self) -> str: ...


VariantLike = str | NamedVariant


def variant_name(variant: VariantLike) -> VariantName:
    """Return ``"short"`` or ``"long"`` for a variant given by name or by an object with a ``.name``.

    Raises:
        ValueError: the variant is neither short nor long nardy.
    """
    name = variant if isinstance(variant, str) else getattr(variant, "name", None)
    if name == "short":
        return "short"
    if name == "long":
        return "long"
    raise ValueError(f"unknown nardy variant {variant!r}: expected 'short' or 'long'")


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
