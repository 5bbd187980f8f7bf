"""The registry of variants, found by name or alias (``long``, ``длинные``, ``short``, ``backgammon``, ...).

Registered: long and short nardy, and of docs/rules.md §6 Hypergammon (``hypergammon``, гипергаммон), Nackgammon
(``nackgammon``), Portes (``portes``, портес), Misère (``misere``, поддавки), Plakoto (``plakoto``, плакото),
Acey-deucey (``acey_deucey``, американка), Dutch backgammon (``dutch``, голландский трик-трак), Fevga (``fevga``,
февга) and Gul bara (``gulbara``, гюльбара, «бешеный гюльбар»)."""

from __future__ import annotations

from nardy.errors import NardyError
from nardy.variants.base import GameValue, TurnContext, Variant
from nardy.variants.fevga import Fevga
from nardy.variants.gulbara import GulBara
from nardy.variants.long import LongNardy
from nardy.variants.opposite import Hypergammon, Misere, Nackgammon, Portes
from nardy.variants.plakoto import Plakoto
from nardy.variants.reserve import AceyDeucey, Dutch
from nardy.variants.short import ShortNardy

__all__ = [
    "AceyDeucey",
    "Dutch",
    "Fevga",
    "GameValue",
    "GulBara",
    "Hypergammon",
    "LongNardy",
    "Misere",
    "Nackgammon",
    "Plakoto",
    "Portes",
    "ShortNardy",
    "TurnContext",
    "UnknownVariantError",
    "Variant",
    "get_variant",
]


class UnknownVariantError(NardyError):
    """A variant name or alias that no registered variant answers to."""


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add ``variant`` to the registry under its name and aliases; return it.

    Raises:
        ValueError: a name or alias is already taken by another variant.
    """
    for alias in (variant.name, *variant.aliases):
        key = alias.casefold()
        if key in _REGISTRY and _REGISTRY[key] is not variant:
            raise ValueError(f"variant alias {alias!r} is already registered")
        _REGISTRY[key] = variant
    return variant


def get_variant(name: str | Variant) -> Variant:
    """Return the registered variant called ``name`` (any alias, any case); a Variant is returned as it is.

    Raises:
        UnknownVariantError: no variant answers to ``name``.
    """
    if isinstance(name, Variant):
        return name
    try:
        return _REGISTRY[name.strip().casefold()]
    except KeyError:
        known = ", ".join(sorted({v.name for v in _REGISTRY.values()}))
        raise UnknownVariantError(f"unknown variant {name!r}; known: {known}") from None


def registered_variants() -> list[Variant]:
    """Return every registered variant once, sorted by name."""
    return sorted({id(v): v for v in _REGISTRY.values()}.values(), key=lambda v: v.name)


def variant_names() -> list[str]:
    """Return the canonical names of all registered variants."""
    return sorted({v.name for v in _REGISTRY.values()})


SHORT = register(ShortNardy())
LONG = register(LongNardy())
HYPERGAMMON = register(Hypergammon())
NACKGAMMON = register(Nackgammon())
PORTES = register(Portes())
MISERE = register(Misere())
PLAKOTO = register(Plakoto())
ACEY_DEUCEY = register(AceyDeucey())
DUTCH = register(Dutch())
FEVGA = register(Fevga())
GULBARA = register(GulBara())
