"""A chat's rating leaderboard as an image: place, player, rating and matches played, one row per player.

Drawn with the table machinery of :mod:`rendering.standings` (:func:`rendering.standings._draw_table`, its
:class:`~rendering.standings.Column` and :class:`~rendering.standings.Cell`, labels, the place cell and the name
cleaning of :func:`rendering.names.name_sprite`), so it looks like the tournament standings. At most
:data:`MAX_ROWS` rows are drawn (the first ones: pass the rows best first).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image

from rendering.encode import ImageFormat, check_format, encode
from rendering.standings import DEFAULT_LABELS, NAME_WIDTH, Cell, Column, TableLabels, _draw_table, _place
from rendering.theme import get_theme

MAX_ROWS: Final = 50
"""The most rows a leaderboard image holds; further rows are left out."""

QUALITY: Final = 75
"""The default JPEG quality of a leaderboard, below the standings' (:data:`rendering.encode.JPEG_QUALITY`, 85): a
50-row table of long names is 210–220 KB at 85 and at most about 180 KB at 75, under the 200 KB a chat image should
stay within, and its flat cells and text look the same."""


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One player of a leaderboard: place (1 = best), display name, rating, experience (matches' total length, as
    kept by the FIBS ratings; not drawn) and matches played."""

    place: int
    name: str
    rating: float
    experience: int
    matches: int


def _rating(value: float) -> str:
    """Return a rating with one decimal (``1523.4``, ``−12.0``); a value that is not finite as a dash."""
    if not math.isfinite(value):
        return "—"
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text.replace("-", "−")


def render_leaderboard_image(
    rows: Sequence[LeaderboardRow],
    *,
    title: str | None = None,
    labels: TableLabels = DEFAULT_LABELS,
    theme: str = "classic",
) -> Image.Image:
    """Return the leaderboard as an RGB image; see :func:`render_leaderboard`."""
    colours = get_theme(theme)
    columns = [
        Column(labels.place, 62),
        Column(labels.player, NAME_WIDTH, "left"),
        Column(labels.rating, 86),
        Column(labels.matches, 70),
    ]
    cells = [
        [
            _place(row.place, colours),
            Cell(row.name, name=True),
            Cell(_rating(row.rating), bold=True),
            Cell(str(row.matches)),
        ]
        for row in rows[:MAX_ROWS]
    ]
    image, _ = _draw_table(columns, cells, colours, title)
    return image


def render_leaderboard(
    rows: Sequence[LeaderboardRow],
    *,
    title: str | None = None,
    labels: TableLabels = DEFAULT_LABELS,
    theme: str = "classic",
    fmt: ImageFormat = "jpeg",
    quality: int = QUALITY,
) -> bytes:
    """Return a chat's rating leaderboard as JPEG (default) or PNG bytes.

    One row per :class:`LeaderboardRow`, in the order given (at most :data:`MAX_ROWS`): place (the first place
    highlighted), name (any Unicode, cleaned and shortened as on the board), rating with one decimal, matches played.
    ``labels`` the headers' words (:class:`~rendering.standings.TableLabels`, in the caller's language), ``theme``
    ``"classic"`` or ``"dark"``, ``title`` an optional line above the table; ``quality`` the JPEG quality (default
    :data:`QUALITY`).

    Raises:
        ValueError: unknown theme or format, or a JPEG quality outside 1..95.
    """
    fmt = check_format(fmt)
    image = render_leaderboard_image(rows, title=title, labels=labels, theme=theme)
    return encode(image, fmt, quality=quality)
