"""Variant names and the mapping between the two players' frames of reference.

The renderer needs only a few facts about a variant: its board (``"short"`` for short nardy and the variants of the
opposite geometry, Hypergammon, Nackgammon, Portes, Misère, Plakoto, Acey-deucey, Dutch; ``"long"`` for long nardy
and the parallel ones, Fevga and Gul bara), how many checkers a side has (15, or 3 in Hypergammon), the layout of a
side (25 entries; 26 with a reserve; 49 with Plakoto's pinned flags, see :mod:`nardy.position`), its title, and how a
point number in one player's frame reads in the other player's frame. Both mappings are involutions (applying one
twice gives the point back), so the same function converts in either direction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from nardy.errors import NardyError
from nardy.position import PINNED_SIDE_LENGTH, RESERVE_SIDE_LENGTH, SIDE_LENGTH
from nardy.variants import Variant, get_variant

VariantName = Literal["short", "long"]

VARIANT_NAMES: tuple[VariantName, ...] = ("short", "long")


class NamedVariant(Protocol):
    """Anything with a ``name`` attribute, such as the engine's variant objects."""

    @property
    def name(self) -> str: ...


VariantLike = str | NamedVariant


SideLayout = Literal["plain", "reserve", "pinned"]
"""How a side is laid out: 25 entries (``plain``), 26 with a reserve, 49 with pinned flags."""

LAYOUTS: dict[int, SideLayout] = {SIDE_LENGTH: "plain", RESERVE_SIDE_LENGTH: "reserve", PINNED_SIDE_LENGTH: "pinned"}
MAIN_GAMES = frozenset({"short", "long"})
"""The two main games: their boards carry no title (every other variant's board shows its name)."""


@dataclass(frozen=True, slots=True)
class VariantInfo:
    """What the renderer needs to know of a variant: its canonical name, its board, checkers a side, side length
    and layout, whether it has a bar, and its titles by language (empty for the two main games)."""

    name: str
    board: VariantName
    checkers: int
    side_length: int
    layout: SideLayout
    has_bar: bool
    titles: dict[str, str]

    def title(self, lang: str) -> str:
        """Return the variant's title in ``lang`` (English if that language has none), first letter capitalised;
        empty for the two main games."""
        text = self.titles.get(lang) or self.titles.get("en", "")
        return text[:1].upper() + text[1:]


def _engine(variant: VariantLike) -> Variant | None:
    name = variant if isinstance(variant, str) else getattr(variant, "name", None)
    if not isinstance(name, str):
        return None
    try:
        return get_variant(name)
    except NardyError:
        return None


def variant_info(variant: VariantLike) -> VariantInfo:
    """Return what the renderer needs of ``variant`` (a name or alias of a registered variant, or an object with a
    ``.name``); a bare ``"short"``/``"long"`` object not in the registry counts as that main game.

    Raises:
        ValueError: no registered variant has that name, or its side length is not 25, 26 or 49.
    """
    board = variant_name(variant)
    engine = _engine(variant)
    if engine is None:
        return VariantInfo(board, board, 15, SIDE_LENGTH, "plain", board == "short", {})
    side_layout = LAYOUTS.get(engine.side_length)
    if side_layout is None:
        raise ValueError(f"variant {engine.name!r} has sides of {engine.side_length} entries, not 25, 26 or 49")
    titles = {} if engine.name in MAIN_GAMES else dict(engine.titles)
    return VariantInfo(engine.name, board, engine.checkers, engine.side_length, side_layout, engine.has_bar, titles)


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
