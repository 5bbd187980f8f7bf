"""Tournament tables as images: the round-robin cross-table, Swiss standings and elimination standings.

Pure functions from :mod:`tournaments.standings` values to encoded images (JPEG by default, like the board). All
three draw the same kind of grid (an optional title line, a header row, one row per player) with :func:`_draw_table`;
they differ only in their columns and cells. Player names come as a mapping ``player id -> display name`` (an id
missing from it is drawn as itself) and are cleaned and shortened exactly as on the board
(:func:`rendering.names.name_sprite`).

Tests use :func:`cross_table_layout` (and :class:`TableLayout`) to find the pixels to sample.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from PIL import Image, ImageDraw

from rendering import sprites
from rendering.encode import JPEG_QUALITY, ImageFormat, check_format, encode
from rendering.fonts import fit_text, font
from rendering.layout import Box
from rendering.names import drawable_name, name_sprite
from rendering.text_layout import measure
from rendering.theme import RGB, Theme, get_theme
from tournaments.standings import CrossCell, CrossTable, EliminationRow, RoundRobinRow, SwissRow

ROW_HEIGHT: Final = 34
HEADER_HEIGHT: Final = 32
TITLE_HEIGHT: Final = 46
"""The height of a one-line title; a title too long for one line takes two (:func:`title_lines`)."""
TITLE_LINE: Final = 28
"""What a title's second line adds to :data:`TITLE_HEIGHT`."""
LEGEND_SIZE: Final = 14
LEGEND_LINE: Final = 20
"""The height of one line of the legend under a table (:func:`legend_lines`)."""
MARGIN: Final = 10
TEXT_SIZE: Final = 17
HEADER_SIZE: Final = 14
TITLE_SIZE: Final = 22
NAME_WIDTH: Final = 230
CELL_WIDTH: Final = 38
"""Width of one result cell of the cross-table holding one result; each further result adds :data:`CELL_EXTRA`."""
CELL_EXTRA: Final = 22
TITLE_LENGTH: Final = 160
"""A title is cut to this many characters before being wrapped and fitted to the image in pixels."""
PAD: Final = 8
PREVIEW_WIDTH: Final = 600
"""The width a chat shows a picture at before it is opened (Telegram: 400-600 px)."""
MIN_CAP_HEIGHT: Final = 7
"""Readable: the smallest text's cap height (of "H") is at least this many pixels at :data:`PREVIEW_WIDTH`."""


@dataclass(frozen=True, slots=True)
class TableLabels:
    """The words of a table picture's headers and cells, given by the caller in its language (the renderer has none
    of its own; the defaults are neutral English)."""

    number: str = "#"
    player: str = "Player"
    points: str = "Pts"
    sb: str = "SB"
    diff: str = "+/−"
    place: str = "Place"
    rating: str = "Rating"
    cut1: str = "BH−1"
    buchholz: str = "BH"
    round: str = "Round"
    status: str = "Status"
    in_play: str = "in play"
    out: str = "out"
    played: str = "Pl"
    wins: str = "W"
    draws: str = "D"
    losses: str = "L"
    matches: str = "Matches"
    legend_swiss: str = (
        "BH−1: Buchholz without the weakest opponent · BH: Buchholz, the opponents' points added up · "
        "SB: Sonneborn–Berger, the points of the opponents beaten and half of those drawn with"
    )
    """The line under the Swiss table explaining its tie-break columns (empty: none)."""
    legend_round_robin: str = (
        "SB: Sonneborn–Berger, the points of the opponents beaten and half of those drawn with · "
        "+/−: game points won minus lost"
    )
    """The line under a round robin's table explaining its tie-break columns (empty: none)."""
    undecided: str = "—"
    """The place of a player still in an elimination (their final place is not decided yet)."""


DEFAULT_LABELS: Final = TableLabels()


Align = Literal["left", "center"]


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a table: its header, its width in pixels and how its cells are aligned."""

    header: str
    width: int
    align: Align = "center"


@dataclass(frozen=True, slots=True)
class Cell:
    """One body cell: its text (a player name if ``name``), an optional fill and whether it is bold."""

    text: str = ""
    fill: RGB | None = None
    bold: bool = False
    name: bool = False


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Every measure of a table image: column widths, number of body rows, whether there is a title."""

    widths: tuple[int, ...]
    rows: int
    title: bool
    title_lines: int = 1
    """How many lines the title takes (1 or 2; ignored without a title)."""
    legend_lines: int = 0
    """How many lines the legend under the table takes (0: no legend)."""

    @property
    def top(self) -> int:
        """Return the y of the header row."""
        return MARGIN + (title_height(self.title_lines) if self.title else 0)

    @property
    def width(self) -> int:
        """Return the width of the image."""
        return 2 * MARGIN + sum(self.widths)

    @property
    def bottom(self) -> int:
        """Return the y just below the last row."""
        return self.top + HEADER_HEIGHT + self.rows * ROW_HEIGHT

    @property
    def height(self) -> int:
        """Return the height of the image."""
        legend = PAD + self.legend_lines * LEGEND_LINE if self.legend_lines else 0
        return self.bottom + legend + MARGIN

    def legend_box(self) -> Box | None:
        """Return the box of the legend under the table, None without one."""
        if not self.legend_lines:
            return None
        top = self.bottom + PAD
        return (MARGIN, top, self.width - MARGIN, top + self.legend_lines * LEGEND_LINE)

    def title_box(self) -> Box:
        """Return the box of the title line (empty height without a title)."""
        return (MARGIN, MARGIN, self.width - MARGIN, self.top)

    def column_x(self, column: int) -> int:
        """Return the left x of ``column``."""
        return MARGIN + sum(self.widths[:column])

    def header_box(self, column: int) -> Box:
        """Return the box of the header of ``column``."""
        x = self.column_x(column)
        return (x, self.top, x + self.widths[column], self.top + HEADER_HEIGHT)

    def cell_box(self, row: int, column: int) -> Box:
        """Return the box of body cell ``row`` (0 = the first player), ``column``."""
        x = self.column_x(column)
        y = self.top + HEADER_HEIGHT + row * ROW_HEIGHT
        return (x, y, x + self.widths[column], y + ROW_HEIGHT)


def cap_height(size: int, *, bold: bool = False) -> int:
    """Return the cap height (the height of "H") in pixels of the shipped font at ``size``."""
    _, top, _, bottom = font(size, bold=bold).getbbox("H")
    return int(bottom - top)


def readable_width(smallest: int) -> int:
    """Return the widest picture whose smallest text (``smallest`` px) is still readable in a chat: a cap height of
    :data:`MIN_CAP_HEIGHT` px when shown :data:`PREVIEW_WIDTH` px wide (857 px for the tables' 14 px headers)."""
    return cap_height(smallest) * PREVIEW_WIDTH // MIN_CAP_HEIGHT


def diagonal_colour(theme: str) -> RGB:
    """Return the fill of the cross-table's diagonal (a player against themselves) in ``theme``."""
    return get_theme(theme).strip


def _score(value: float) -> str:
    """Return a score as text: whole numbers plain, halves with ½ (``2½``), anything else as :func:`_decimal`."""
    if value * 2 != int(value * 2):
        return _decimal(value)
    sign = "−" if value < 0 else ""
    whole = int(abs(value))
    half = "½" if abs(value) != whole else ""
    return f"{sign}{whole or ''}{half}" if half else f"{sign}{whole}"


def _decimal(value: float) -> str:
    """Return a tie-break value as a decimal with at most two places (``62.5``, ``69.25``, ``60``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text.replace("-", "−")


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def _result(cell: CrossCell) -> str:
    """Return the results of one pairing in schedule order: 1, 0, ½, or + / − for a forfeit; blank if unplayed."""
    marks = []
    for points, forfeit in zip(cell.points, cell.forfeits, strict=True):
        if forfeit:
            marks.append("+" if points >= 1.0 else "−")
        else:
            marks.append(_score(points))
    return " ".join(marks)


def _name(names: Mapping[str, str], player: str) -> Cell:
    return Cell(names.get(player, player), name=True)


def _place(place: int, theme: Theme) -> Cell:
    return Cell(str(place), fill=theme.accent if place == 1 else None, bold=True)


def title_height(lines: int) -> int:
    """Return the height of a title of ``lines`` lines (1 or 2)."""
    return TITLE_HEIGHT + TITLE_LINE * (max(1, lines) - 1)


def _width(text: str, size: int, bold: bool) -> float:
    try:
        return measure(text, size, bold=bold)
    except (RuntimeError, OSError, ValueError):  # the shaper refused it: too wide, so it is cut as a name is
        return float("inf")


def wrap_text(
    text: str,
    size: int,
    max_width: int,
    *,
    bold: bool = False,
    lines: int = 2,
    marks: tuple[str, ...] = (",", ":", ";", "·"),
    fill: float = 0.0,
    length: int = TITLE_LENGTH,
) -> tuple[str, ...]:
    """Return ``text`` (cleaned as a name is, cut to ``length`` characters) in at most ``lines`` lines of at most
    ``max_width`` pixels at ``size``.

    A line breaks after the last of ``marks`` followed by a space that fits and leaves the line at least ``fill`` of
    ``max_width`` full (a title's ", ": its round or status starts a line of its own), else at the last space that
    fits; before the last line, only where what follows fits if some break allows it. Only what the lines cannot hold
    is cut with "…" (on the last line).
    """
    rest = drawable_name(text, length)
    out: list[str] = []
    while rest and len(out) < lines - 1 and _width(rest, size, bold) > max_width:
        breaks = [i + 1 for i, char in enumerate(rest) if char == " " and i > 0]
        fitting = [i for i in breaks if _width(rest[:i].rstrip(), size, bold) <= max_width]
        if not fitting:
            break
        last = len(out) == lines - 2  # the break before the last line: what follows must fit if it can
        whole = [i for i in fitting if not last or _width(rest[i:].lstrip(), size, bold) <= max_width] or fitting
        marked = [
            i
            for i in whole
            if rest[: i - 1].endswith(marks) and _width(rest[:i].rstrip(), size, bold) >= fill * max_width
        ]
        cut = max(marked) if marked else max(whole)
        out.append(rest[:cut].rstrip(" ·"))
        rest = rest[cut:].lstrip(" ·")
    if rest:
        out.append(rest if _width(rest, size, bold) <= max_width else _fit(rest, size, max_width, bold))
    return tuple(out)


def _fit(text: str, size: int, max_width: int, bold: bool) -> str:
    try:
        return fit_text(text, size, max_width, bold=bold)
    except (RuntimeError, OSError, ValueError):
        return text


def title_lines(title: str, max_width: int) -> tuple[str, ...]:
    """Return the lines of ``title`` in a picture whose title line has ``max_width`` pixels: one, or two when it
    does not fit in one (:func:`wrap_text`), so that the round, the format or the status is not cut."""
    return wrap_text(title, TITLE_SIZE, max_width, bold=True, lines=2) or ("",)


def legend_lines(legend: str, max_width: int) -> tuple[str, ...]:
    """Return the lines of the legend under a table ``max_width`` pixels wide (at most four)."""
    if not legend:
        return ()
    return wrap_text(legend, LEGEND_SIZE, max_width, lines=4, marks=("·",), fill=0.6, length=4 * TITLE_LENGTH)


def _line_sprite(line: str, size: int, max_width: int, colour: RGB, *, bold: bool) -> Image.Image:
    try:
        return sprites.text(line, size, colour, bold=bold)
    except (RuntimeError, OSError, ValueError):  # the shaper refused it: draw it as a name is drawn
        return name_sprite(line, size, max_width, colour)


def draw_lines(
    canvas: Image.Image, lines: Sequence[str], box: Box, size: int, line: int, colour: RGB, *, bold: bool
) -> None:
    """Draw ``lines`` left-aligned in ``box`` (inset by :data:`PAD`), one every ``line`` pixels, each on a common
    baseline, the block centred vertically."""
    top = (box[1] + box[3]) // 2 - line * len(lines) // 2
    for i, text in enumerate(lines):
        sprite = _line_sprite(text, size, box[2] - box[0] - 2 * PAD, colour, bold=bold)
        _paste_text(canvas, sprite, text, size, bold, (box[0], top + i * line, box[2], top + (i + 1) * line), "left")


def _title_sprite(title: str, max_width: int, colour: RGB) -> Image.Image:
    shown = drawable_name(title, TITLE_LENGTH)
    try:
        return sprites.text(fit_text(shown, TITLE_SIZE, max_width, bold=True), TITLE_SIZE, colour, bold=True)
    except (RuntimeError, OSError, ValueError):  # the shaper refused it: draw it as a name is drawn
        return name_sprite(title, TITLE_SIZE, max_width, colour)


def _paste(canvas: Image.Image, sprite: Image.Image, box: Box, align: Align) -> None:
    mid = (box[1] + box[3]) // 2
    if align == "left":
        canvas.paste(sprite, (box[0] + PAD, mid - sprite.height // 2), sprite)
    else:
        sprites.paste_center(canvas, sprite, ((box[0] + box[2]) // 2, mid))


def _paste_text(
    canvas: Image.Image, sprite: Image.Image, text: str, size: int, bold: bool, box: Box, align: Align
) -> None:
    """Paste the text sprite of ``text`` in ``box`` with its baseline where a capital letter would sit centred, so
    that words with and without descenders ("Игрок", "Место") line up; centred by its pixels as :func:`_paste` does
    when the shipped font does not draw it alone (a fallback font's metrics differ)."""
    left, top, right, bottom = font(size, bold=bold).getbbox(text, anchor="ls")
    if abs((bottom - top) - sprite.height) > 2 or abs((right - left) - sprite.width) > 3:
        _paste(canvas, sprite, box, align)
        return
    baseline = (box[1] + box[3]) // 2 + cap_height(size, bold=bold) // 2 + cap_height(size, bold=bold) % 2
    x = box[0] + PAD if align == "left" else (box[0] + box[2]) // 2 - sprite.width // 2
    canvas.paste(sprite, (x, baseline + int(top)), sprite)


@lru_cache(maxsize=512)
def _tile(
    cell: Cell,
    size: tuple[int, int],
    fill: RGB,
    colour: RGB,
    text_size: int,
    align: Align,
    grid: RGB | None,
    lines: tuple[bool, bool],
) -> Image.Image:
    """Return one cell drawn on its own: ``fill``, the text (a name cleaned by :func:`name_sprite`), and a grid line
    in ``grid`` along its left and/or top edge (``lines``). Cached: most cells of a table repeat (1, 0, ½, blank)."""
    width, height = size
    tile = Image.new("RGB", size, fill)
    if cell.name:  # an empty name draws the placeholder
        _paste(tile, name_sprite(cell.text, text_size, width - 2 * PAD, colour), (0, 0, width, height), align)
    elif cell.text:
        sprite = sprites.text(cell.text, text_size, colour, bold=cell.bold)
        _paste_text(tile, sprite, cell.text, text_size, cell.bold, (0, 0, width, height), align)
    if grid is not None and any(lines):
        draw = ImageDraw.Draw(tile)
        if lines[0]:
            draw.line((0, 0, 0, height - 1), fill=grid)
        if lines[1]:
            draw.line((0, 0, width - 1, 0), fill=grid)
    return tile


def fitted(columns: Sequence[Column]) -> list[Column]:
    """Return ``columns``, each widened where its bold header needs more than its width less :data:`PAD` a side."""
    return [
        Column(c.header, max(c.width, math.ceil(_width(c.header, HEADER_SIZE, True)) + 2 * PAD), c.align)
        if c.header
        else c
        for c in columns
    ]


def table_layout(columns: Sequence[Column], rows: int, title: str | None = None, legend: str = "") -> TableLayout:
    """Return the layout of a table of ``columns`` (widened to their headers, :func:`fitted`) and ``rows`` body
    rows, with ``title`` above it (one or two lines, :func:`title_lines`) and ``legend`` under it."""
    widths = tuple(c.width for c in fitted(columns))
    inner = sum(widths) - 2 * PAD
    lines = len(title_lines(title, inner)) if title is not None else 1
    return TableLayout(widths, rows, title is not None, lines, len(legend_lines(legend, inner)))


def _draw_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[Cell]],
    theme: Theme,
    title: str | None,
    legend: str = "",
) -> tuple[Image.Image, TableLayout]:
    """Draw a table: an optional title (wrapped to two lines rather than cut), the header row, then ``rows``
    (alternately shaded), with grid lines, and ``legend`` under it (explaining the abbreviated headers).

    Every cell is pasted as one cached tile (:func:`_tile`), which keeps a 16-player cross-table to a few ms."""
    columns = fitted(columns)
    geo = table_layout(columns, len(rows), title, legend)
    canvas = Image.new("RGB", (geo.width, geo.height), theme.frame)
    inner = geo.width - 2 * MARGIN - 2 * PAD
    if title is not None:
        draw_lines(canvas, title_lines(title, inner), geo.title_box(), TITLE_SIZE, TITLE_LINE, theme.number, bold=True)
    legend_box = geo.legend_box()
    if legend_box is not None:
        muted = _mix(theme.number, theme.frame, 0.15)
        draw_lines(canvas, legend_lines(legend, inner), legend_box, LEGEND_SIZE, LEGEND_LINE, muted, bold=False)
    xs = [geo.column_x(c) for c in range(len(columns))]
    for x, column in zip(xs, columns, strict=True):
        header = _tile(
            Cell(column.header, bold=True),
            (column.width, HEADER_HEIGHT),
            theme.strip,
            theme.strip_text,
            HEADER_SIZE,
            column.align,
            None,
            (False, False),
        )
        canvas.paste(header, (x, geo.top))
    y = geo.top + HEADER_HEIGHT
    for r, line in enumerate(rows):
        shade = theme.felt if r % 2 == 0 else theme.felt_edge
        for c, (x, column, cell) in enumerate(zip(xs, columns, line, strict=True)):
            fill = shade if cell.fill is None else cell.fill
            colour = theme.felt_text if cell.fill is None else _contrast(cell.fill)
            tile = _tile(
                cell,
                (column.width, ROW_HEIGHT),
                fill,
                colour,
                TEXT_SIZE,
                column.align,
                theme.frame_dark,
                (c > 0, r > 0),
            )
            canvas.paste(tile, (x, y))
        y += ROW_HEIGHT
    return canvas, geo


def _mix(colour: RGB, other: RGB, amount: float) -> RGB:
    r, g, b = (round(c + (o - c) * amount) for c, o in zip(colour, other, strict=True))
    return (r, g, b)


def _contrast(fill: RGB) -> RGB:
    """Return dark text on a light fill and white text on a dark one."""
    return (24, 20, 16) if sum(fill) > 382 else (255, 255, 255)


def _cell_width(table: CrossTable) -> int:
    games = max((len(cell.points) for line in table.cells for cell in line if cell is not None), default=1)
    return CELL_WIDTH + CELL_EXTRA * max(0, games - 1)


def _cross_columns(table: CrossTable, labels: TableLabels) -> list[Column]:
    cell = _cell_width(table)
    return [
        Column(labels.number, 36),
        Column(labels.player, NAME_WIDTH, "left"),
        *(Column(str(i + 1), cell) for i in range(len(table.players))),
        Column(labels.points, 62),
        Column(labels.sb, 70),
        Column(labels.diff, 58),
        Column(labels.place, 62),
    ]


def _list_columns(labels: TableLabels) -> list[Column]:
    return [
        Column(labels.place, 62),
        Column(labels.player, NAME_WIDTH, "left"),
        Column(labels.played, 50),
        Column(labels.wins, 44),
        Column(labels.draws, 44),
        Column(labels.losses, 44),
        Column(labels.points, 62),
        Column(labels.sb, 70),
        Column(labels.diff, 58),
    ]


def cross_table_fits(table: CrossTable, *, labels: TableLabels = DEFAULT_LABELS) -> bool:
    """Return whether the cross-table of ``table`` is readable as a matrix (at most :func:`readable_width` wide:
    8 players of a round robin, 5 of a double one); a larger one is drawn as a list (see :func:`render_cross_table`)."""
    widths = [c.width for c in fitted(_cross_columns(table, labels))]
    return 2 * MARGIN + sum(widths) <= readable_width(HEADER_SIZE)


def cross_table_layout(
    table: CrossTable, *, labels: TableLabels = DEFAULT_LABELS, title: str | None = None
) -> TableLayout:
    """Return the layout of the cross-table image of ``table``: as a matrix (:func:`cross_table_fits`) body cell
    ``(i, 2 + j)`` is player i against j; else the columns of the list, one row per player."""
    columns = _cross_columns(table, labels) if cross_table_fits(table, labels=labels) else _list_columns(labels)
    return table_layout(columns, len(table.players), title, labels.legend_round_robin)


@dataclass(frozen=True, slots=True)
class _Totals:
    """The columns after the results of one cross-table row."""

    points: float
    sonneborn_berger: float
    game_point_difference: int
    place: int


def _totals(table: CrossTable, standings: Sequence[RoundRobinRow] | None) -> list[_Totals]:
    """Return each row's totals: from ``standings`` (matched by player id) if given, else computed from the table:
    points, Sonneborn–Berger (each result times the opponent's points), game-point difference, and the place on
    those three (equal keys share it; head-to-head needs the standings)."""
    if standings is not None:
        by_id = {row.player: row for row in standings}
        missing = [p for p in table.players if p not in by_id]
        if missing:
            raise ValueError(f"standings lack the players {missing!r} of the cross-table")
        return [
            _Totals(r.points, r.sonneborn_berger, r.game_point_difference, r.place)
            for r in (by_id[p] for p in table.players)
        ]
    points = [sum(sum(cell.points) for cell in line if cell is not None) for line in table.cells]
    sb = [
        sum(p * points[j] for j, cell in enumerate(line) if cell is not None for p in cell.points)
        for line in table.cells
    ]
    gpd = [sum(won - lost for cell in line if cell is not None for won, lost in cell.scores) for line in table.cells]
    keys = [(points[i], sb[i], float(gpd[i])) for i in range(len(points))]
    return [
        _Totals(points[i], sb[i], gpd[i], 1 + sum(1 for other in keys if other > keys[i])) for i in range(len(keys))
    ]


def render_cross_table_image(
    table: CrossTable,
    names: Mapping[str, str],
    *,
    standings: Sequence[RoundRobinRow] | None = None,
    theme: str = "classic",
    labels: TableLabels = DEFAULT_LABELS,
    title: str | None = None,
) -> Image.Image:
    """Return the round-robin cross-table as an RGB image; see :func:`render_cross_table`."""
    colours = get_theme(theme)
    count = len(table.players)
    if len(table.cells) != count or any(len(line) != count for line in table.cells):
        raise ValueError(f"a cross-table of {count} players needs {count}×{count} cells")
    rows: list[list[Cell]] = []
    if not cross_table_fits(table, labels=labels):
        for player, line, totals in zip(table.players, table.cells, _totals(table, standings), strict=True):
            marks = [p for cell in line if cell is not None for p in cell.points]
            rows.append(
                [
                    _place(totals.place, colours),
                    _name(names, player),
                    Cell(str(len(marks))),
                    Cell(str(marks.count(1.0))),
                    Cell(str(marks.count(0.5))),
                    Cell(str(marks.count(0.0))),
                    Cell(_score(totals.points), bold=True),
                    Cell(_decimal(totals.sonneborn_berger)),
                    Cell(_signed(totals.game_point_difference)),
                ]
            )
        image, _ = _draw_table(_list_columns(labels), rows, colours, title, labels.legend_round_robin)
        return image
    for i, (player, line, totals) in enumerate(zip(table.players, table.cells, _totals(table, standings), strict=True)):
        rows.append(
            [
                Cell(str(i + 1)),
                _name(names, player),
                *(Cell(fill=colours.strip) if cell is None else Cell(_result(cell)) for cell in line),
                Cell(_score(totals.points), bold=True),
                Cell(_decimal(totals.sonneborn_berger)),
                Cell(_signed(totals.game_point_difference)),
                _place(totals.place, colours),
            ]
        )
    image, _ = _draw_table(_cross_columns(table, labels), rows, colours, title, labels.legend_round_robin)
    return image


def render_cross_table(
    table: CrossTable,
    names: Mapping[str, str],
    *,
    standings: Sequence[RoundRobinRow] | None = None,
    theme: str = "classic",
    labels: TableLabels = DEFAULT_LABELS,
    title: str | None = None,
    fmt: ImageFormat = "jpeg",
    quality: int = JPEG_QUALITY,
) -> bytes:
    """Return the round-robin cross-table ("сводная таблица") as JPEG (default) or PNG bytes.

    One row and one column per player of ``table`` (a :class:`tournaments.CrossTable`, players in standings order):
    each cell is that pairing's result (1 / 0 / ½, ``+`` / ``−`` for a forfeit won / lost, several for a double
    round robin, blank if not yet played; the diagonal is filled with :func:`diagonal_colour`), then points,
    Sonneborn–Berger, game-point difference and place. A matrix too wide to read in a chat (more than 8 players, 5
    of a double round robin: :func:`cross_table_fits`) is drawn as a list instead: place, name, matches played, won,
    drawn, lost, points, Sonneborn–Berger, game-point difference. Pass ``standings`` (``RoundRobin.standings()``) for
    the exact §8 values and places (head-to-head included); without it they are computed from the table alone.
    ``names`` maps player ids to display names (a missing id is drawn as itself). ``theme`` is ``"classic"`` or
    ``"dark"``, ``labels`` the column headers' words (:class:`TableLabels`, in the caller's language; its
    ``legend_round_robin`` goes under the table), ``title`` an optional title above the table (wrapped to a second
    line rather than cut: :func:`title_lines`).

    Raises:
        ValueError: unknown theme or format, a JPEG quality outside 1..95, a malformed table, or ``standings``
            lacking a player of the table.
    """
    fmt = check_format(fmt)
    image = render_cross_table_image(table, names, standings=standings, theme=theme, labels=labels, title=title)
    return encode(image, fmt, quality=quality)


def _rating(value: float) -> str:
    return str(round(value))


def render_swiss_standings_image(
    rows: Sequence[SwissRow],
    names: Mapping[str, str],
    *,
    theme: str = "classic",
    labels: TableLabels = DEFAULT_LABELS,
    title: str | None = None,
) -> Image.Image:
    """Return the Swiss standings as an RGB image; see :func:`render_swiss_standings`."""
    colours = get_theme(theme)
    columns = [
        Column(labels.place, 62),
        Column(labels.player, NAME_WIDTH, "left"),
        Column(labels.rating, 76),
        Column(labels.points, 62),
        Column(labels.cut1, 66),
        Column(labels.buchholz, 62),
        Column(labels.sb, 70),
    ]
    cells = [
        [
            _place(row.place, colours),
            _name(names, row.player),
            Cell(_rating(row.rating)),
            Cell(_score(row.points), bold=True),
            Cell(_score(row.buchholz_cut1)),
            Cell(_score(row.buchholz)),
            Cell(_decimal(row.sonneborn_berger)),
        ]
        for row in rows
    ]
    image, _ = _draw_table(columns, cells, colours, title, labels.legend_swiss)
    return image


def render_swiss_standings(
    rows: Sequence[SwissRow],
    names: Mapping[str, str],
    *,
    theme: str = "classic",
    labels: TableLabels = DEFAULT_LABELS,
    title: str | None = None,
    fmt: ImageFormat = "jpeg",
    quality: int = JPEG_QUALITY,
) -> bytes:
    """Return Swiss standings (``Swiss.standings()``) as JPEG (default) or PNG bytes: place, name, rating, match
    points, Buchholz Cut 1, Buchholz, Sonneborn–Berger, and ``labels.legend_swiss`` under the table saying what the
    abbreviations mean. Options as for :func:`render_cross_table`.

    Raises:
        ValueError: unknown theme or format, or a JPEG quality outside 1..95.
    """
    fmt = check_format(fmt)
    image = render_swiss_standings_image(rows, names, theme=theme, labels=labels, title=title)
    return encode(image, fmt, quality=quality)


def render_elimination_image(
    rows: Sequence[EliminationRow],
    names: Mapping[str, str],
    *,
    theme: str = "classic",
    labels: TableLabels = DEFAULT_LABELS,
    title: str | None = None,
) -> Image.Image:
    """Return elimination standings as an RGB image; see :func:`render_elimination`."""
    colours = get_theme(theme)
    columns = [
        Column(labels.place, 62),
        Column(labels.player, NAME_WIDTH, "left"),
        Column(labels.rating, 76),
        Column(labels.round, 66),
        Column(labels.status, 90),
    ]
    still_in = sum(1 for row in rows if not row.eliminated)
    cells = [
        [
            _place(row.place, colours) if row.eliminated or still_in == 1 else Cell(labels.undecided),
            _name(names, row.player),
            Cell(_rating(row.rating)),
            Cell(str(row.reached), bold=True),
            Cell(labels.out if row.eliminated else labels.in_play, bold=not row.eliminated),
        ]
        for row in rows
    ]
    image, _ = _draw_table(columns, cells, colours, title)
    return image


def render_elimination(
    rows: Sequence[EliminationRow],
    names: Mapping[str, str],
    *,
    theme: str = "classic",
    labels: TableLabels = DEFAULT_LABELS,
    title: str | None = None,
    fmt: ImageFormat = "jpeg",
    quality: int = JPEG_QUALITY,
) -> bytes:
    """Return elimination standings (``Elimination.standings()``) as JPEG (default) or PNG bytes: place, name,
    rating, round reached, and whether the player is still in; a player still in has no place yet (``labels.undecided``,
    "—") until they are the last one in. Options as for :func:`render_cross_table`.

    Raises:
        ValueError: unknown theme or format, or a JPEG quality outside 1..95.
    """
    fmt = check_format(fmt)
    image = render_elimination_image(rows, names, theme=theme, labels=labels, title=title)
    return encode(image, fmt, quality=quality)
