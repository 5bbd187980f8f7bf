"""Named kinds of match whose games rotate variants (docs/rules.md §6.2 "Tavli match", §6.7 "Mixed matches").

A :class:`MatchKind` is pure data: the rotation of variant names (game *i* of the match is played in
``rotation[i % len(rotation)]``), how the match ends (to N points, or after a fixed number of games with deciders
while the score is level), the option values the kind fixes, and its names in English and Russian. The match itself
is :class:`nardy.match.Match` (``Match.of_kind("tavli", 7)`` or ``Match(kind="tavli")``).

Registered kinds, found by name or alias in any case (:func:`get_match_kind`):

- ``tavli`` (тавли), docs/rules.md §6.2: Portes → Plakoto → Fevga → Portes …, a match to 7 points by default (3 and 5
  are the other usual lengths), ``opening=winner_starts``: the first game starts with the usual opening roll, the
  winner of each game rolls first in the next, and after a drawn game the next one starts with an opening roll.
- ``mixed`` (смешанный матч), 000's example in §6.7: one game each of Hypergammon, long and short nardy, then a
  Hypergammon decider while the score is level (it is not a match to N points: it ends after three games, or after
  the first decider that leaves the score unequal).

Any other rotation is built with :func:`rotation_kind` (``rotation_kind(("hypergammon", "long", "short"))``), or
simply by ``Match(rotation=(...), length=N)``. Variant names are checked only when a match is built, so a kind may
name a variant that is not registered yet (:meth:`MatchKind.available` says whether all are).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nardy.errors import NardyError
from nardy.options import Options
from nardy.variants import UnknownVariantError, Variant, get_variant

__all__ = [
    "MatchKind",
    "UnknownMatchKindError",
    "get_match_kind",
    "match_kinds",
    "register_match_kind",
    "rotation_kind",
    "rotation_title",
]


class UnknownMatchKindError(NardyError):
    """A match kind name or alias that no registered kind answers to."""


@dataclass(frozen=True, slots=True)
class MatchKind:
    """A kind of match whose games rotate variants.

    ``rotation`` holds variant names (game *i* is played in ``rotation[i % len(rotation)]``). ``default_length`` is
    the match length used when none is given (0: no length, see ``games``), ``lengths`` the lengths a UI offers.
    ``games`` > 0 makes a match of that many games instead of one to N points: after them the higher score wins,
    and while the score is level one more game is played in ``decider`` (None: the rotation goes on). ``options``
    are option values the kind fixes over whatever options the players chose (Tavli: ``opening=winner_starts``).
    ``name`` is empty for an ad-hoc rotation (:func:`rotation_kind`), which is not registered.
    """

    name: str
    rotation: tuple[str, ...]
    title_en: str
    title_ru: str
    aliases: tuple[str, ...] = ()
    default_length: int = 0
    lengths: tuple[int, ...] = ()
    games: int = 0
    decider: str | None = None
    options: tuple[tuple[str, Any], ...] = ()

    def title(self, lang: str = "en") -> str:
        """Return the kind's name in ``lang`` (``ru`` or ``en``; any other language gets English)."""
        return self.title_ru if lang == "ru" else self.title_en

    def match_options(self, options: Options | None = None) -> Options:
        """Return ``options`` (default: the defaults) with the values this kind fixes applied.

        Raises:
            InvalidOptionError: a fixed value the options do not accept (a broken kind definition).
        """
        return (options or Options()).updated(**dict(self.options)) if self.options else (options or Options())

    def variants(self) -> tuple[Variant, ...]:
        """Return the rotation's variants, in order.

        Raises:
            UnknownVariantError: a variant of the rotation is not registered.
        """
        return tuple(get_variant(name) for name in self.rotation)

    def available(self) -> bool:
        """Return whether every variant the kind plays (its rotation and decider) is registered."""
        try:
            self.variants()
            if self.decider is not None:
                get_variant(self.decider)
        except UnknownVariantError:
            return False
        return True


_KINDS: dict[str, MatchKind] = {}


def register_match_kind(kind: MatchKind) -> MatchKind:
    """Add ``kind`` to the registry under its name and aliases; return it.

    Raises:
        ValueError: the kind has no name or rotation, or a name or alias is already taken by another kind.
    """
    if not kind.name or not kind.rotation:
        raise ValueError(f"a registered match kind needs a name and a rotation, not {kind!r}")
    for alias in (kind.name, *kind.aliases):
        key = alias.casefold()
        if key in _KINDS and _KINDS[key] is not kind:
            raise ValueError(f"match kind alias {alias!r} is already registered")
        _KINDS[key] = kind
    return kind


def get_match_kind(name: str | MatchKind) -> MatchKind:
    """Return the registered match kind called ``name`` (any alias, any case); a MatchKind is returned as it is.

    Raises:
        UnknownMatchKindError: no kind answers to ``name``.
    """
    if isinstance(name, MatchKind):
        return name
    try:
        return _KINDS[name.strip().casefold()]
    except KeyError:
        known = ", ".join(k.name for k in match_kinds())
        raise UnknownMatchKindError(f"unknown match kind {name!r}; known: {known}") from None


def match_kinds() -> list[MatchKind]:
    """Return every registered match kind once, sorted by name."""
    return sorted({id(k): k for k in _KINDS.values()}.values(), key=lambda k: k.name)


def rotation_title(variants: Sequence[str | Variant], lang: str = "en") -> str:
    """Return the rotation written with the variants' titles in ``lang``: ``Portes → Plakoto → Fevga``.

    Raises:
        UnknownVariantError: a variant is not registered.
    """
    found = [get_variant(v) for v in variants]
    return " → ".join(v.titles.get(lang, v.titles.get("en", v.name)) for v in found)


def rotation_kind(
    variants: Sequence[str | Variant],
    *,
    games: int = 0,
    decider: str | Variant | None = None,
    default_length: int = 0,
) -> MatchKind:
    """Return an ad-hoc (unregistered, nameless) kind rotating ``variants``, e.g. ``("hypergammon", "long",
    "short")``, titled "mixed match (Hypergammon → long nardy → short nardy)" / "смешанный матч (…)".

    Raises:
        UnknownVariantError: a variant is not registered.
        ValueError: no variants, or a negative ``games`` or ``default_length``.
    """
    if not variants:
        raise ValueError("a rotation needs at least one variant")
    if games < 0 or default_length < 0:
        raise ValueError(f"games={games} and default_length={default_length} must not be negative")
    names = tuple(get_variant(v).name for v in variants)
    decider_name = None if decider is None else get_variant(decider).name
    return MatchKind(
        name="",
        rotation=names,
        title_en=f"mixed match ({rotation_title(names, 'en')})",
        title_ru=f"смешанный матч ({rotation_title(names, 'ru')})",
        default_length=default_length,
        games=games,
        decider=decider_name,
    )


TAVLI = register_match_kind(
    MatchKind(
        name="tavli",
        rotation=("portes", "plakoto", "fevga"),
        title_en="Tavli",
        title_ru="тавли",
        aliases=("тавли", "tavli match"),
        default_length=7,
        lengths=(3, 5, 7),
        options=(("opening", "winner_starts"),),
    )
)
MIXED = register_match_kind(
    MatchKind(
        name="mixed",
        rotation=("hypergammon", "long", "short"),
        title_en="mixed match (Hypergammon, long, short)",
        title_ru="смешанный матч (гипергаммон, длинные, короткие)",
        aliases=("смешанный", "смешанный матч", "mixed match"),
        games=3,
        decider="hypergammon",
    )
)
