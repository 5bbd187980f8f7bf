"""The shipped text font (DejaVu Sans, see ``fonts/LICENSE``), loaded once per size, and fitting a line to a width.

The fallback fonts for what DejaVu Sans lacks (Noto: other scripts, CJK, math, symbols, colour emoji) are chosen per
grapheme cluster by :mod:`rendering.text_fonts`; :func:`fit_text` measures with them and cuts between clusters.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from rendering.text_clusters import graphemes
from rendering.text_layout import measure

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


@lru_cache(maxsize=2048)
def fit_text(text: str, size: int, max_width: int, *, bold: bool = False) -> str:
    """Return ``text``, shortened with an ellipsis if needed so that it is at most ``max_width`` pixels wide as
    :func:`rendering.sprites.text` draws it; it is cut only between grapheme clusters (an emoji sequence, a flag, a
    letter with its marks or an Indic conjunct stays whole), so the result is whole clusters of ``text`` plus "…"."""
    if measure(text, size, bold=bold) <= max_width:
        return text
    ellipsis = "…"
    clusters = graphemes(text)
    low, high = 0, len(clusters)
    while low < high:
        middle = (low + high + 1) // 2
        if measure("".join(clusters[:middle]).rstrip() + ellipsis, size, bold=bold) <= max_width:
            low = middle
        else:
            high = middle - 1
    return "".join(clusters[:low]).rstrip() + ellipsis
