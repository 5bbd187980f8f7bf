"""Player names made safe to draw: any Unicode a Telegram user can put in a name becomes one short line.

The text shaper (raqm) refuses line and paragraph separators and several control characters outright
(``raqm_layout() failed``), and invisible format characters or huge names make a strip unreadable, so names
are cleaned before they are drawn.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Final

from PIL import Image

from rendering import sprites
from rendering.fonts import fit_text
from rendering.text_clusters import graphemes
from rendering.text_fonts import covers, table
from rendering.theme import RGB

MAX_NAME_LENGTH: Final = 32
"""Names are cut to this many characters (an ellipsis included) before being fitted to the strip in pixels."""
PLACEHOLDER: Final = "—"
"""What is drawn for a name with nothing drawable left."""
ELLIPSIS: Final = "…"
_KEPT_FORMAT: Final = frozenset({"\u200c", "\u200d"})
"""Zero-width non-joiner and joiner: needed by emoji sequences and some scripts."""
_DROPPED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Controls, format characters, surrogates, private-use and unassigned code points, line and paragraph separators."""
_TAGS: Final = range(0xE0020, 0xE0080)
"""Tag characters (format characters): kept after U+1F3F4 WAVING BLACK FLAG, where they spell a subdivision flag."""
MAX_MARKS: Final = 4
"""Combining marks kept on one base character (more only pile up: "Zalgo" text)."""


def _kept(char: str, category: str, previous: str) -> bool:
    """Return whether ``char`` (of general ``category``, after the kept text ``previous``) is kept in a name."""
    if category not in _DROPPED_CATEGORIES or char in _KEPT_FORMAT:
        return True
    if ord(char) in _TAGS:
        return previous.rstrip("".join(map(chr, _TAGS))).endswith("\U0001f3f4")
    # an emoji newer than this Python's Unicode tables (unassigned to it) that the shipped emoji font draws
    return category == "Cn" and 0x1F000 <= ord(char) <= 0x1FAFF and covers(table().emoji, char)


def _too_many_marks(chars: list[str], char: str, category: str) -> bool:
    if category not in ("Mn", "Me"):
        return False
    tail = 0
    for previous in reversed(chars):
        if unicodedata.category(previous) not in ("Mn", "Me"):
            break
        tail += 1
    return tail >= MAX_MARKS


def cut(text: str, max_length: int) -> str:
    """Return ``text`` if it has at most ``max_length`` characters, else its longest prefix of whole grapheme
    clusters that leaves room for :data:`ELLIPSIS` within ``max_length`` characters, plus the ellipsis."""
    if len(text) <= max_length:
        return text
    kept: list[str] = []
    used = 0
    for cluster in graphemes(text):
        if used + len(cluster) > max(1, max_length - 1):
            break
        kept.append(cluster)
        used += len(cluster)
    return "".join(kept).rstrip() + ELLIPSIS


def drawable_name(name: str, max_length: int = MAX_NAME_LENGTH) -> str:
    """Return ``name`` as one drawable line: control, format (except ZWJ/ZWNJ), separator, private-use and
    unassigned characters removed, every kind of space or line break turned into a single space, at most
    ``max_length`` characters (cut with an ellipsis between grapheme clusters, see :func:`cut`); :data:`PLACEHOLDER`
    when nothing is left. Kept besides: tag characters after 🏴 (subdivision flags), emoji this Python's Unicode
    tables do not know yet but the emoji font draws, and at most :data:`MAX_MARKS` combining marks per letter."""
    chars: list[str] = []
    for char in name:
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zs", "Zl", "Zp"):
            if chars and chars[-1] != " ":
                chars.append(" ")
        elif _kept(char, category, "".join(chars[-8:])) and not _too_many_marks(chars, char, category):
            chars.append(char)
    cleaned = "".join(chars).strip()
    if not cleaned:
        return PLACEHOLDER
    return cut(cleaned, max_length)


@lru_cache(maxsize=1024)
def name_sprite(name: str, size: int, max_width: int, colour: RGB) -> Image.Image:
    """Return the bold sprite of ``name`` (cleaned by :func:`drawable_name`, then shortened with an ellipsis to at
    most ``max_width`` pixels). Should the shaper still refuse it, the name's ASCII letters are drawn instead, and
    failing that :data:`PLACEHOLDER`: a name never makes the board fail. Cached: the sprite is shared, paste it, do
    not draw on it."""
    shown = drawable_name(name)
    fallback = drawable_name(shown.encode("ascii", "ignore").decode("ascii"))
    for candidate in (shown, fallback, PLACEHOLDER):
        try:
            return sprites.text(fit_text(candidate, size, max_width, bold=True), size, colour, bold=True)
        except (RuntimeError, OSError, ValueError):  # raqm_layout() failed, or a glyph the font cannot set
            continue
    return sprites.text(PLACEHOLDER, size, colour, bold=True)
