"""The variants the bot offers, in menu order, and how a typed name (any alias, English or Russian) resolves to one.

The one source of truth for every list of variants in the bot: ``/new``, ``/rules``, ``/settings``, the menus, the
computer chooser, tournaments and ratings. Which variants the computer plays is asked of ``nardy.ai`` at call
time (:func:`computer_plays`), so a variant becomes playable against the computer as soon as the engine can build
a player for it.
"""

from __future__ import annotations

import logging
from typing import Final

from nardy import DiceSource, Match, Options
from nardy.ai import get_player, levels_for
from nardy.matchkinds import UnknownMatchKindError, get_match_kind
from nardy.variants import UnknownVariantError, get_variant

log = logging.getLogger(__name__)

OFFERED: Final[tuple[str, ...]] = (
    "short",
    "long",
    "nackgammon",
    "hypergammon",
    "portes",
    "plakoto",
    "fevga",
    "misere",
    "gulbara",
    "acey_deucey",
    "dutch",
    "tavli",
    "mixed",
)
"""The canonical names of the variants people can play, in menu order; the last are the match kinds (:data:`KINDS`)."""
KINDS: Final[tuple[str, ...]] = ("tavli", "mixed")
"""The offered kinds of match whose games rotate variants (:mod:`nardy.matchkinds`): a Tavli match (Portes →
Plakoto → Fevga, to 7 points unless another length is asked) and seed 000's mixed match (Hypergammon, long, short
and a Hypergammon decider while level). Everywhere the bot names a game they stand beside the variants."""
MAIN: Final[tuple[str, ...]] = ("short", "long")
"""The two main games: on the first screen of the menu and always on /rating."""
DEFAULT: Final = "short"
"""The variant of a chat that has chosen none."""
COMPUTER_LEVEL: Final = "medium"
"""The level :func:`computer_plays` tries to build (the one every other level falls back to)."""
EXTRA_ALIASES: Final[dict[str, str]] = {
    "длинная": "long",
    "long_nardy": "long",
    "короткая": "short",
    "short_nardy": "short",
    "hyper": "hypergammon",
    "гипер": "hypergammon",
    "nack": "nackgammon",
    "misère": "misere",
    "acey": "acey_deucey",
    "aceydeucey": "acey_deucey",
    "единичка": "acey_deucey",
    "голландские": "dutch",
    "голландский": "dutch",
    "гюльбар": "gulbara",
    "тавли": "tavli",
    "смешанный": "mixed",
    "микс": "mixed",
}
"""Words the bot understands besides the engine's aliases (typed forms of the commands)."""


def resolve(word: str | None) -> str | None:
    """Return the canonical name of the offered variant ``word`` names (any alias, any case), else None."""
    if not word:
        return None
    key = word.strip().casefold()
    if key in EXTRA_ALIASES:
        return EXTRA_ALIASES[key]
    try:
        name = get_variant(key).name
    except UnknownVariantError:
        try:
            name = get_match_kind(key).name
        except UnknownMatchKindError:
            return None
    return name if name in OFFERED else None


def default_length(name: str) -> int:
    """Return the match length a game of ``name`` has when none is asked: a Tavli match's 7, else 0 (one game)."""
    return get_match_kind(name).default_length if name in KINDS else 0


def get_match_kind_games(name: str) -> int:
    """Return how many games a match of the offered game ``name`` has when that is fixed (the mixed match: 3), else
    0."""
    return get_match_kind(name).games if name in KINDS else 0


def new_match(name: str, length: int, *, options: Options | None = None, dice: DiceSource | None = None) -> Match:
    """Return a new match of the offered game ``name`` to ``length`` points (0: the kind's default; a kind of a fixed
    number of games ignores it).

    Raises:
        UnknownVariantError, UnknownMatchKindError, GameStateError: not a game the engine can start.
    """
    if name in KINDS:
        kind = get_match_kind(name)
        return Match.of_kind(name, None if kind.games or not length else length, options=options, dice=dice)
    return Match(name, length, options=options, dice=dice)


def game_name(match: Match) -> str:
    """Return the offered name of a match's game: its kind (``tavli``) or its variant."""
    return match.kind_name or match.variant.name


def rotation_of(name: str) -> tuple[str, ...]:
    """Return the variants a game of ``name`` is played in: a kind's rotation (and decider), else ``name`` alone."""
    if name not in KINDS:
        return (name,)
    kind = get_match_kind(name)
    return tuple(dict.fromkeys((*kind.rotation, *((kind.decider,) if kind.decider else ()))))


def is_offered(name: object) -> bool:
    """Return whether ``name`` is the canonical name of an offered variant."""
    return isinstance(name, str) and name in OFFERED


def next_variant(name: str) -> str:
    """Return the offered variant after ``name`` in menu order (wrapping; the first for an unknown name)."""
    index = OFFERED.index(name) if name in OFFERED else -1
    return OFFERED[(index + 1) % len(OFFERED)]


def computer_plays(name: str) -> bool:
    """Return whether the computer can play the offered variant ``name``: asks ``nardy.ai`` to build a player now
    (cheap; not cached, so a variant the engine learns is offered at once)."""
    if not is_offered(name):
        return False
    for variant in rotation_of(name):
        try:
            get_player(COMPUTER_LEVEL, variant)
        except Exception as error:
            log.debug("the computer does not play %s: %s", variant, error)
            return False
    return True


def computer_levels(name: str) -> tuple[str, ...]:
    """Return the computer's levels for the offered game ``name``: those it has in every variant of the game."""
    variants = rotation_of(name)
    return tuple(lv for lv in levels_for(variants[0]) if all(lv in levels_for(v) for v in variants[1:]))


def computer_variants() -> tuple[str, ...]:
    """Return the offered variants the computer plays, in menu order."""
    return tuple(v for v in OFFERED if computer_plays(v))
