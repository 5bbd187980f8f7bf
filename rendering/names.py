"""Player names made safe to draw: any Unicode a Telegram user can put in a name becomes one short line.

The text shaper (raqm) refuses line and paragraph separators and several control characters outright
(``raqm_layout() failed``), and invisible format characters or huge names make a strip unreadable, so names
are cleaned before they are drawn.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from PIL import Image

from rendering import sprites
from rendering.fonts import fit_text
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


def drawable_name(name: str, max_length: int = MAX_NAME_LENGTH) -> str:
    """Return ``name`` as one drawable line: control, format (except ZWJ/ZWNJ), separator, private-use and
    unassigned characters removed, every kind of space or line break turned into a single space, at most
    ``max_length`` characters (cut with an ellipsis); :data:`PLACEHOLDER` when nothing is left."""
    chars: list[str] = []
    for char in name:
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zs", "Zl", "Zp"):
            if chars and chars[-1] != " ":
                chars.append(" ")
        elif category not in _DROPPED_CATEGORIES or char in _KEPT_FORMAT:
            chars.append(char)
    cleaned = "".join(chars).strip()
    if not cleaned:
        return PLACEHOLDER
    if len(cleaned) > max_length:
        cleaned = cleaned[: max(1, max_length - 1)].rstrip() + ELLIPSIS
    return cleaned


def name_sprite(name: str, size: int, max_width: int, colour: RGB) -> Image.Image:
    """Return the bold sprite of ``name`` (cleaned by :func:`drawable_name`, then shortened with an ellipsis to at
    most ``max_width`` pixels). Should the shaper still refuse it, the name's ASCII letters are drawn instead, and
    failing that :data:`PLACEHOLDER`: a name never makes the board fail."""
    shown = drawable_name(name)
    fallback = drawable_name(shown.encode("ascii", "ignore").decode("ascii"))
    for candidate in (shown, fallback, PLACEHOLDER):
        try:
            return sprites.text(fit_text(candidate, size, max_width, bold=True), size, colour, bold=True)
        except (RuntimeError, OSError, ValueError):  # raqm_layout() failed, or a glyph the font cannot set
            continue
    return sprites.text(PLACEHOLDER, size, colour, bold=True)
