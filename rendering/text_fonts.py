"""Which shipped font draws which grapheme cluster: DejaVu Sans first, a Noto font for each other script, CJK, math,
symbols and colour emoji (``fonts/``, licences in ``fonts/LICENSE*``).

Each font's coverage comes from ``fonts/coverage.json``, written by ``scripts/build-fonts.py`` from the fonts' cmaps,
so no font is parsed at run time and fontTools is only a build tool. The choice for one cluster (:func:`choose_font`):

1. emoji presentation (UTS #51: a pictograph that is emoji by default, or any character followed by U+FE0F, a
   keycap, a skin tone, a flag or a ZWJ sequence) goes to the colour emoji font when it has the base character;
2. a letter of a script with its own Noto font (Arabic, Hebrew, Georgian, Armenian, the Indic scripts, Thai, ...)
   goes to that font; spaces, digits and punctuation stay in the font of the cluster before them, as a browser's
   script itemisation does, so an Arabic name keeps its own spacing;
3. anything else goes to the first font of DejaVu Sans (the asked weight, then the other), the script fonts, Noto
   Sans Math, Symbols, Symbols2, CJK and emoji that maps every character of the cluster (default-ignorable
   characters such as ZWJ and variation selectors aside);
4. a cluster no font covers is ``None``: the layout then draws its NFKC form (𝒜 as A) or, failing that, DejaVu's box.
"""

from __future__ import annotations

import json
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

FONT_DIR: Final = Path(__file__).with_name("fonts")
REGULAR: Final = "DejaVuSans.ttf"
BOLD: Final = "DejaVuSans-Bold.ttf"

_IGNORABLE: Final = frozenset({0x200C, 0x200D, 0xFE0E, 0xFE0F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)})
"""Default-ignorable characters a font need not map: the shaper hides them."""
_EMOJI_MARKS: Final = frozenset({0xFE0F, 0x20E3, *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)})
"""Characters that make a cluster an emoji: the emoji variation selector, keycap, skin tones, tag characters."""
_BMP_EMOJI_PRESENTATION: Final = frozenset(
    [
        0x231A,
        0x231B,
        0x23E9,
        0x23EA,
        0x23EB,
        0x23EC,
        0x23F0,
        0x23F3,
        0x25FD,
        0x25FE,
        0x2614,
        0x2615,
        0x267F,
        0x2693,
        0x26A1,
        0x26AA,
        0x26AB,
        0x26BD,
        0x26BE,
        0x26C4,
        0x26C5,
        0x26CE,
        0x26D4,
        0x26EA,
        0x26F2,
        0x26F3,
        0x26F5,
        0x26FA,
        0x26FD,
        0x2705,
        0x270A,
        0x270B,
        0x2728,
        0x274C,
        0x274E,
        0x2753,
        0x2754,
        0x2755,
        0x2757,
        0x2795,
        0x2796,
        0x2797,
        0x27B0,
        0x27BF,
        0x2B1B,
        0x2B1C,
        0x2B50,
        0x2B55,
        *range(0x2648, 0x2654),
    ]
)
"""Emoji_Presentation=Yes below U+1F000 (drawn in colour without U+FE0F); above it nearly every pictograph is."""
_INHERITING: Final = frozenset({"Zs", "Nd", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"})
"""General categories that stay in the font of the cluster before them (script Common)."""


@dataclass(frozen=True, slots=True)
class Coverage:
    """The code points of one font as sorted ``starts``/``ends`` of ranges."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def __contains__(self, cp: object) -> bool:
        if not isinstance(cp, int):
            return False
        index = bisect_right(self.starts, cp) - 1
        return index >= 0 and cp <= self.ends[index]


@dataclass(frozen=True, slots=True)
class FontTable:
    """Everything ``coverage.json`` says: coverage per font file, preferred blocks per script font, the emoji font."""

    coverage: dict[str, Coverage]
    prefer: dict[str, Coverage]
    emoji: str
    emoji_strike: int
    order: tuple[str, ...]
    """The fallback order after DejaVu Sans."""


def _coverage(pairs: list[list[int]]) -> Coverage:
    return Coverage(tuple(a for a, _ in pairs), tuple(b for _, b in pairs))


@lru_cache(maxsize=1)
def table() -> FontTable:
    """Return the font coverage table shipped in ``fonts/coverage.json``, read once.

    Raises:
        OSError: the file is missing from the package.
        ValueError: it is not the JSON ``scripts/build-fonts.py`` writes.
    """
    data = json.loads((FONT_DIR / "coverage.json").read_text(encoding="utf-8"))
    try:
        coverage = {name: _coverage(pairs) for name, pairs in data["fonts"].items()}
        prefer = {name: _coverage(pairs) for name, pairs in data["prefer"].items()}
        emoji = str(data["emoji"]["file"])
        strike = int(data["emoji"]["strike"])
    except (KeyError, TypeError) as error:
        raise ValueError(f"fonts/coverage.json is malformed: {error!r}") from error
    others = [name for name in coverage if name not in (REGULAR, BOLD, emoji)]
    scripts = [name for name in others if name in prefer]
    rest = [name for name in others if name not in prefer]
    return FontTable(coverage, prefer, emoji, strike, (*scripts, *rest, emoji))


@lru_cache(maxsize=256)
def face(name: str, size: int, *, basic: bool = False) -> ImageFont.FreeTypeFont:
    """Return the shipped font file ``name`` at ``size`` pixels (the emoji font only at its strike size), with the
    basic layout engine if ``basic`` (no shaping), cached.

    Raises:
        OSError: the font file is missing from the package.
    """
    engine = ImageFont.Layout.BASIC if basic else None  # None: raqm where Pillow has it
    return ImageFont.truetype(str(FONT_DIR / name), max(1, size), layout_engine=engine)


def is_emoji_font(name: str) -> bool:
    """Return whether ``name`` is the colour emoji font (bitmaps at one strike size)."""
    return name == table().emoji


def covers(name: str, cluster: str) -> bool:
    """Return whether font ``name`` maps every character of ``cluster`` except default-ignorable ones."""
    cover = table().coverage[name]
    return all(ord(c) in cover or ord(c) in _IGNORABLE for c in cluster)


def wants_emoji(cluster: str) -> bool:
    """Return whether ``cluster`` has emoji presentation (UTS #51), so it is drawn in colour."""
    base = ord(cluster[0])
    if 0xFE0E in map(ord, cluster):
        return False
    if any(ord(c) in _EMOJI_MARKS for c in cluster) or 0x1F1E6 <= base <= 0x1F1FF:
        return True
    if "\u200d" in cluster and len(cluster) > 2:
        return True
    return base >= 0x1F000 or base in _BMP_EMOJI_PRESENTATION


@lru_cache(maxsize=8192)
def choose_font(cluster: str, previous: str | None, bold: bool) -> str | None:
    """Return the file name of the shipped font that draws ``cluster`` (see the module's rules; ``previous`` is the
    font of the cluster before, ``bold`` the weight asked for), or ``None`` when no font maps it."""
    fonts = table()
    base = ord(cluster[0])
    if wants_emoji(cluster) and base in fonts.coverage[fonts.emoji]:
        return fonts.emoji
    for name, blocks in fonts.prefer.items():
        if base in blocks and covers(name, cluster):
            return name
    if (
        previous is not None
        and previous != fonts.emoji
        and unicodedata.category(cluster[0]) in _INHERITING
        and covers(previous, cluster)
    ):
        return previous
    first, second = (BOLD, REGULAR) if bold else (REGULAR, BOLD)
    for name in (first, second, *fonts.order):
        if covers(name, cluster):
            return name
    return None
