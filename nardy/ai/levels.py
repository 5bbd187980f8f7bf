"""The computer levels by name: which exist for a variant (the hard level only where a network ships) and the
player of a level (:mod:`nardy.ai.players`)."""

from __future__ import annotations

from nardy.ai.features import family
from nardy.ai.network import shipped_network
from nardy.ai.players import EasyPlayer, HardPlayer, MediumPlayer, RandomPlayer, _BasePlayer
from nardy.variants import Variant, get_variant

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


def has_level(level: str, variant: str | Variant) -> bool:
    """Return whether :func:`get_player` builds ``level`` for ``variant`` (``hard`` needs a shipped network).

    Raises:
        UnknownVariantError: an unknown variant.
    """
    name = get_variant(variant).name
    if level != "hard":
        if level not in (*LEVELS, "random"):
            return False
        if level == "random":
            return True
        try:  # the hand-written evaluation exists for every variant with an encoding (nardy.ai.features.family)
            family(name)
        except ValueError:
            return False
        return True
    try:
        shipped_network(name)
    except FileNotFoundError:
        return False
    return True


def levels_for(variant: str | Variant) -> tuple[str, ...]:
    """Return the levels of :data:`LEVELS` that exist for ``variant``.

    Raises:
        UnknownVariantError: an unknown variant.
    """
    return tuple(level for level in LEVELS if has_level(level, variant))


def get_player(level: str, variant: str | Variant, *, seed: int | None = None) -> _BasePlayer:
    """Return a computer player of ``level`` (``easy``, ``medium``, ``hard``; also ``random``) for ``variant``.

    Raises:
        UnknownVariantError: an unknown variant.
        ValueError: an unknown level, or ``hard`` for a variant without a trained network
            (:func:`has_level` tells beforehand).
    """
    classes: dict[str, type[_BasePlayer]] = {
        "random": RandomPlayer,
        "easy": EasyPlayer,
        "medium": MediumPlayer,
        "hard": HardPlayer,
    }
    cls = classes.get(level)
    if cls is None:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(classes)}")
    return cls(variant, seed)
