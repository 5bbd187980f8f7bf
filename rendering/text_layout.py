"""One line of text drawn as Telegram draws it: a font per grapheme cluster, colour emoji, right-to-left runs.

:func:`layout` splits a line into runs: maximal stretches of whole grapheme clusters (:mod:`rendering.text_clusters`)
set in one font (:func:`rendering.text_fonts.choose_font`) at one bidi embedding level (the Unicode bidi algorithm of
``python-bidi``, paragraph direction from the first strong character), in visual order (rule L2). Each run is then
shaped on its own: with raqm (Pillow's default when its bundled libraqm finds libfribidi) in its own direction, so
Arabic joins, Indic conjuncts form and emoji sequences (skin tones, ZWJ families, flags, keycaps) become one glyph.
Without raqm (Pillow's basic layout: no shaping, no reordering) Arabic is shaped into its presentation forms by
``arabic-reshaper`` and each right-to-left run is reversed cluster by cluster (mirroring brackets), so Arabic and
Hebrew still read right; Indic conjuncts and emoji ligatures need raqm, so an emoji sequence is then drawn as its
first emoji (no skin tone, the first person of a family) and a flag as its two regional letters.

A line whose one run is DejaVu Sans left to right (every Latin, Cyrillic or Greek name, every label) is measured and
drawn exactly as before fallback existed, on the same code path.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import arabic_reshaper  # type: ignore[import-untyped]
from bidi import algorithm as bidi_algorithm  # type: ignore[import-untyped]
from bidi.mirror import MIRRORED  # type: ignore[import-untyped]
from PIL import Image, ImageDraw, ImageFont, features

from rendering.text_clusters import graphemes
from rendering.text_fonts import BOLD, REGULAR, choose_font, face, is_emoji_font, table

RGB = tuple[int, int, int]
_RTL_CLASSES: Final = frozenset({"R", "AL", "AN"})


@lru_cache(maxsize=1)
def raqm_available() -> bool:
    """Return whether Pillow's raqm layout (HarfBuzz shaping, FriBiDi reordering) works on this machine."""
    return bool(features.check("raqm"))


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of a line set in one font in one direction: its clusters in logical order."""

    font: str
    rtl: bool
    clusters: tuple[str, ...]

    @property
    def text(self) -> str:
        """Return the run's text in logical order."""
        return "".join(self.clusters)

    def visual_text(self) -> str:
        """Return the run's text in visual order for a layout that does not reorder: right-to-left runs reversed
        cluster by cluster (each cluster's marks stay after their base) with mirrored brackets."""
        if not self.rtl:
            return self.text
        return "".join(MIRRORED.get(c[0], c[0]) + c[1:] for c in reversed(self.clusters))


def _levels(text: str) -> list[int]:
    """Return the resolved bidi embedding level of every character of ``text`` (rules P2-I2; no explicit
    embeddings survive name cleaning)."""
    if not any(unicodedata.bidirectional(c) in _RTL_CLASSES for c in text):
        return [0] * len(text)
    storage = bidi_algorithm.get_empty_storage()
    base = bidi_algorithm.get_base_level(text)
    storage["base_level"] = base
    storage["base_dir"] = ("L", "R")[base]
    bidi_algorithm.get_embedding_levels(text, storage)
    bidi_algorithm.explicit_embed_and_overrides(storage)
    bidi_algorithm.resolve_weak_types(storage)
    bidi_algorithm.resolve_neutral_types(storage, False)
    bidi_algorithm.resolve_implicit_levels(storage, False)
    return [int(char["level"]) for char in storage["chars"]]


def _visual_order(levels: list[int]) -> list[int]:
    """Return the indices of items with embedding ``levels`` in visual order (rule L2)."""
    order = list(range(len(levels)))
    if not levels:
        return order
    top = max(levels)
    lowest_odd = min(level for level in levels if level % 2) if any(level % 2 for level in levels) else top + 1
    for level in range(top, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    return order


def _assign(clusters: list[str], bold: bool) -> list[tuple[str, str]]:
    """Return ``(cluster, font)`` pairs; a cluster no font maps is replaced by its NFKC form's clusters, or set in
    DejaVu Sans (its missing-glyph box) when that does not help."""
    out: list[tuple[str, str]] = []
    default = BOLD if bold else REGULAR
    previous: str | None = None
    for cluster in clusters:
        chosen = choose_font(cluster, previous, bold)
        if chosen is None:
            folded = unicodedata.normalize("NFKC", cluster)
            if folded != cluster and folded.strip():
                for part in graphemes(folded):
                    previous = choose_font(part, previous, bold) or default
                    out.append((part, previous))
                continue
            chosen = default
        out.append((cluster, chosen))
        previous = chosen
    return out


_UNLIGATED_DROP: Final = frozenset({0xFE0F, 0x20E3, *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)})
_ARABIC: Final = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]+")
"""Stretches of Arabic script: reshaped on their own (arabic-reshaper also drops joiners it sees elsewhere)."""


def _unligated(cluster: str) -> str:
    """Return what of an emoji sequence a layout without shaping can draw: its first emoji, without the skin tone,
    variation selector or tags it cannot join (a ZWJ family becomes its first person; flags stay two letters)."""
    head = cluster.split("\u200d", 1)[0]
    kept = "".join(c for c in head if ord(c) not in _UNLIGATED_DROP)
    return kept or cluster[0]


@lru_cache(maxsize=2048)
def layout(value: str, bold: bool, raqm: bool) -> tuple[Run, ...]:
    """Return ``value`` as runs in visual order (see the module), for a raqm layout if ``raqm`` (else the basic one,
    with Arabic reshaped into presentation forms first)."""
    if not raqm:
        value = _ARABIC.sub(lambda match: str(arabic_reshaper.reshape(match.group())), value)
    pairs = _assign(graphemes(value), bold)
    if not raqm:
        pairs = [(_unligated(cluster) if is_emoji_font(font) else cluster, font) for cluster, font in pairs]
    levels = _levels("".join(cluster for cluster, _ in pairs))
    runs: list[tuple[str, int, list[str]]] = []
    position = 0
    for cluster, font in pairs:
        level = levels[position] if position < len(levels) else 0
        position += len(cluster)
        if runs and runs[-1][0] == font and runs[-1][1] == level:
            runs[-1][2].append(cluster)
        else:
            runs.append((font, level, [cluster]))
    order = _visual_order([level for _, level, _ in runs])
    return tuple(Run(runs[i][0], runs[i][1] % 2 == 1, tuple(runs[i][2])) for i in order)


def is_plain(runs: tuple[Run, ...]) -> bool:
    """Return whether ``runs`` is one left-to-right DejaVu Sans run (drawn exactly as before fallback existed)."""
    return len(runs) == 1 and not runs[0].rtl and runs[0].font in (REGULAR, BOLD)


@dataclass(frozen=True, slots=True)
class _Placed:
    """A run ready to draw: its font at the size to draw with, text, direction, scale, pen position and ink box."""

    face: ImageFont.FreeTypeFont
    text: str
    direction: str | None
    scale: float
    x: float
    box: tuple[float, float, float, float]
    emoji: bool


def _place(runs: tuple[Run, ...], size: int, raqm: bool) -> tuple[list[_Placed], float]:
    """Return the runs placed on one baseline (ink boxes relative to the baseline at x = 0) and the total advance."""
    placed: list[_Placed] = []
    x = 0.0
    for run in runs:
        emoji = is_emoji_font(run.font)
        strike = table().emoji_strike
        font = face(run.font, strike if emoji else size, basic=not raqm)
        scale = size / strike if emoji else 1.0
        text = run.text if raqm else run.visual_text()
        direction = ("rtl" if run.rtl else "ltr") if raqm else None
        left, top, right, bottom = font.getbbox(text, anchor="ls", direction=direction)
        advance = font.getlength(text, direction=direction) * scale
        box = (x + left * scale, top * scale, x + right * scale, bottom * scale)
        placed.append(_Placed(font, text, direction, scale, x, box, emoji))
        x += advance
    return placed, x


def measure(value: str, size: int, *, bold: bool = False) -> float:
    """Return the advance width in pixels of ``value`` drawn by :func:`render` at ``size``."""
    raqm = raqm_available()
    runs = layout(value, bold, raqm)
    if not runs:
        return 0.0
    if is_plain(runs):
        return float(face(runs[0].font, size, basic=not raqm).getlength(runs[0].text))
    return _place(runs, size, raqm)[1]


def render(value: str, size: int, colour: RGB, *, bold: bool = False, raqm: bool | None = None) -> Image.Image:
    """Return ``value`` set at ``size`` pixels as a tightly cropped RGBA sprite: text in ``colour``, emoji in their
    own colours. ``raqm`` forces (True) or forbids (False) the raqm layout; by default it is used where it works.

    Raises:
        RuntimeError, OSError, ValueError: the shaper refused the text (a control character, for instance).
    """
    use_raqm = raqm_available() if raqm is None else raqm
    runs = layout(value, bold, use_raqm)
    if not runs or is_plain(runs):
        name, value = (runs[0].font, runs[0].text) if runs else (BOLD if bold else REGULAR, value)
        font = face(name, size, basic=not use_raqm)
        left, top, right, bottom = font.getbbox(value)
        width = max(1, int(right - left))
        height = max(1, int(bottom - top))
        mask = Image.new("L", (width, height), 0)
        ImageDraw.Draw(mask).text((-left, -top), value, font=font, fill=255)
        sprite = Image.new("RGBA", (width, height), (*colour, 0))
        sprite.putalpha(mask)
        return sprite
    placed, _ = _place(runs, size, use_raqm)
    left = min(p.box[0] for p in placed)
    top = min(p.box[1] for p in placed)
    width = max(1, int(max(p.box[2] for p in placed) - left + 0.999))
    height = max(1, int(max(p.box[3] for p in placed) - top + 0.999))
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    colour_layer: list[tuple[Image.Image, tuple[int, int]]] = []
    for p in placed:
        if p.emoji:
            colour_layer.append(_emoji_image(p, left, top))
        else:
            draw.text((p.x - left, -top), p.text, font=p.face, fill=255, anchor="ls", direction=p.direction)
    sprite = Image.new("RGBA", (width, height), (*colour, 0))
    sprite.putalpha(mask)
    for image, offset in colour_layer:
        sprite.alpha_composite(image, offset)
    return sprite


def _emoji_image(placed: _Placed, left: float, top: float) -> tuple[Image.Image, tuple[int, int]]:
    """Return a run of the emoji font drawn at its strike size in colour and scaled, and where it goes in the sprite
    whose ink box starts at (``left``, ``top``)."""
    x0, y0, x1, y1 = placed.face.getbbox(placed.text, anchor="ls", direction=placed.direction)
    big = Image.new("RGBA", (max(1, int(x1 - x0)), max(1, int(y1 - y0))), (0, 0, 0, 0))
    ImageDraw.Draw(big).text(
        (-x0, -y0), placed.text, font=placed.face, anchor="ls", direction=placed.direction, embedded_color=True
    )
    k = placed.scale
    small = big.resize((max(1, round(big.width * k)), max(1, round(big.height * k))), Image.Resampling.LANCZOS)
    return small, (max(0, round(placed.x + x0 * k - left)), max(0, round(y0 * k - top)))
