"""The shipped fonts (DejaVu Sans, see ``fonts/LICENSE``), loaded once per size."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return DejaVu Sans (bold if asked) at ``size`` pixels, cached.

    Raises:
        OSError: the font file is missing from the package.
    """
    return ImageFont.truetype(str(BOLD if bold else REGULAR), max(1, size))


def fit_text(text: str, size: int, max_width: int, *, bold: bool = False) -> str:
    """Return ``text``, shortened with an ellipsis if needed so that it is at most ``max_width`` pixels wide."""
    face = font(size, bold=bold)
    if face.getlength(text) <= max_width:
        return text
    ellipsis = "…"
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + ellipsis) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ellipsis
