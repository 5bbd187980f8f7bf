"""The variants the bot offers, in menu order, and how a typed name (any alias, English or Russian) resolves to one.

The one source of truth for every list of variants in the bot: ``/new``, ``/rules``, ``/settings``, the menus, the
computer chooser, tournaments and ratings. Which variants the computer plays is asked of ``nardy.ai`` at call
time (:func:`computer_plays`), so a variant becomes playable against the computer as soon as the engine can build
a player for it.
"""

from __future__ import annotations

import logging
from typing import Final

from nardy.ai import get_player
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
)
"""The canonical names of the variants people can play, in menu order."""
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
        return None
    return name if name in OFFERED else None


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
    try:
        get_player(COMPUTER_LEVEL, name)
    except Exception as error:
        log.debug("the computer does not play %s: %s", name, error)
        return False
    return True


def computer_variants() -> tuple[str, ...]:
    """Return the offered variants the computer plays, in menu order."""
    return tuple(v for v in OFFERED if computer_plays(v))
