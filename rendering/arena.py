"""An arena's standings as an image: rank, player, marks, arena score, games played and the score sheet.

A pure function from :class:`tournaments.arena.ArenaStanding` values (best first) to an encoded image, drawn with the
table machinery of :mod:`rendering.standings` (its header row, alternately shaded rows, the first place lit, names
cleaned and shortened by :func:`rendering.names.name_sprite`: emoji, flags, CJK and right-to-left names included), so
it looks like the tournaments' tables. Above the table: an optional title and the header line (a clock and the
minutes left, or a flag and "finished"); under it, "+N more" when the table is cut and a legend of the marks drawn.

The score sheet shows each of the last :data:`SHEET_GAMES` games' points in order (an ellipsis first when there were
more). Every mark has a shape of its own, so none is told by colour alone:

- a win: a rounded square, filled, with the points;
- a win on fire (the previous two won, so the win scored double): a flame, orange, with the points;
- a loss: the bare "0";
- a berserk game (won or lost): a lightning bolt on the mark's top-right corner.

The column after the name marks the player: a flame while on fire now (the next win scores double), two bars while
paused, a door with an arrow once the player left the arena.

Tests use :func:`arena_layout` (and :class:`ArenaLayout`) to find the pixels to sample.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from PIL import Image, ImageDraw

from rendering import sprites
from rendering.encode import JPEG_QUALITY, ImageFormat, check_format, encode
from rendering.layout import Box
from rendering.names import name_sprite
from rendering.standings import (
    HEADER_HEIGHT,
    LEGEND_LINE,
    LEGEND_SIZE,
    MARGIN,
    PAD,
    ROW_HEIGHT,
    TEXT_SIZE,
    TITLE_LINE,
    TITLE_SIZE,
    Cell,
    Column,
    _draw_table,
    _mix,
    _place,
    draw_lines,
    table_layout,
    title_height,
    title_lines,
)
from rendering.text_layout import measure
from rendering.theme import RGB, Theme, get_theme
from tournaments.arena import ArenaStanding, SheetEntry

MAX_ROWS: Final = 20
"""The most players a picture lists (the best ones); the others are counted on a "+N more" line."""
SHEET_GAMES: Final = 10
"""The slots of the score sheet: the last games, an ellipsis in the first slot when there were more."""
SLOT: Final = 25
"""The width of one game of the score sheet."""
MARK_WIDTH: Final = 20
MARK_HEIGHT: Final = 24
MARK_SIZE: Final = 15
"""The points' text size on the sheet."""
BOLT_WIDTH: Final = 12
BOLT_HEIGHT: Final = 17
ICON: Final = 16
"""The size of a mark after the name (on fire, paused, left) and of the header line's icon."""
STATUS_HEIGHT: Final = 30
"""The height of the header line (time left or finished) above the table."""
LINE_HEIGHT: Final = 28
"""The height of the "+N more" line and of the line saying nobody has played."""
NAME_COLUMN: Final = 200
STATUS_COLUMN: Final = 2 * ICON + 4 + 2 * 6
SHEET_COLUMN: Final = 2 * PAD + SHEET_GAMES * SLOT

Mark = Literal["fire", "berserk", "paused", "left"]
"""What the legend explains: a doubled win (and being on fire), a berserk game, a paused and a departed player."""


@dataclass(frozen=True, slots=True)
class ArenaLabels:
    """The words of the arena picture, given by the caller in its language (the defaults are neutral English).
    ``time_left`` holds ``{minutes}``, ``more`` holds ``{count}``."""

    rank: str = "#"
    player: str = "Player"
    score: str = "Score"
    games: str = "Games"
    sheet: str = "Score sheet"
    time_left: str = "{minutes} min left"
    finished: str = "Finished"
    more: str = "+{count} more"
    nobody: str = "Nobody has played yet."
    fire: str = "on fire: a win scores double"
    berserk: str = "berserk"
    paused: str = "paused"
    left: str = "left the arena"


DEFAULT_ARENA_LABELS: Final = ArenaLabels()


@dataclass(frozen=True, slots=True)
class Palette:
    """The arena's own colours in a theme: a win's square and its text, a fire win's flame and its text, the bolt
    of a berserk game and its outline, and the loss's text."""

    win: RGB
    win_text: RGB
    fire: RGB
    fire_text: RGB
    fire_edge: RGB
    bolt: RGB
    bolt_edge: RGB
    loss: RGB


PALETTES: Final[dict[str, Palette]] = {
    "classic": Palette(
        win=(52, 34, 22),
        win_text=(250, 238, 214),
        fire=(240, 118, 16),
        fire_text=(24, 20, 16),
        fire_edge=(120, 40, 8),
        bolt=(128, 40, 170),
        bolt_edge=(255, 255, 255),
        loss=(112, 80, 52),
    ),
    "dark": Palette(
        win=(200, 206, 218),
        win_text=(14, 16, 22),
        fire=(255, 140, 20),
        fire_text=(14, 16, 22),
        fire_edge=(255, 214, 150),
        bolt=(255, 96, 214),
        bolt_edge=(14, 16, 22),
        loss=(170, 178, 194),
    ),
}


def palette(theme: str) -> Palette:
    """Return the arena's colours in ``theme`` (the classic ones for a theme without its own).

    Raises:
        ValueError: unknown theme.
    """
    get_theme(theme)
    return PALETTES.get(theme, PALETTES["classic"])


def _columns(labels: ArenaLabels) -> list[Column]:
    return [
        Column(labels.rank, 44),
        Column(labels.player, NAME_COLUMN, "left"),
        Column("", STATUS_COLUMN),
        Column(labels.score, 62),
        Column(labels.games, 56),
        Column(labels.sheet, SHEET_COLUMN, "left"),
    ]


RANK, NAME, STATUS, SCORE, GAMES, SHEET = range(6)
"""The columns of the table."""


def _marks_of(standing: ArenaStanding, paused: Collection[str], left: Collection[str]) -> list[Mark]:
    """Return the marks after a player's name: on fire, then left or paused (a player who left is not paused)."""
    marks: list[Mark] = ["fire"] if standing.fire else []
    if standing.player in left:
        marks.append("left")
    elif standing.player in paused:
        marks.append("paused")
    return marks


def sheet_shown(sheet: Sequence[SheetEntry], slots: int = SHEET_GAMES) -> tuple[bool, tuple[SheetEntry, ...]]:
    """Return whether the sheet is cut (an ellipsis in the first slot) and the games shown, the last ones."""
    if len(sheet) <= slots:
        return False, tuple(sheet)
    return True, tuple(sheet[len(sheet) - slots + 1 :])


def _legend_marks(rows: Sequence[ArenaStanding], paused: Collection[str], left: Collection[str]) -> tuple[Mark, ...]:
    found: set[Mark] = set()
    for row in rows:
        found.update(_marks_of(row, paused, left))
        _, games = sheet_shown(row.sheet)
        if any(e.won and e.fire for e in games):
            found.add("fire")
        if any(e.berserk for e in games):
            found.add("berserk")
    return tuple(m for m in ("fire", "berserk", "paused", "left") if m in found)


def _legend_width(label: str) -> int:
    return ICON + 6 + round(_measure(label, LEGEND_SIZE)) + 18


def _measure(text: str, size: int) -> float:
    try:
        return measure(text, size)
    except (RuntimeError, OSError, ValueError):
        return float(size * len(text))


def _legend_rows(marks: Sequence[Mark], labels: ArenaLabels, inner: int) -> list[list[Mark]]:
    """Return the legend's items flowed into lines of at most ``inner`` pixels."""
    lines: list[list[Mark]] = []
    used = inner + 1
    for mark in marks:
        width = _legend_width(getattr(labels, mark))
        if used + width > inner and (not lines or lines[-1]):
            lines.append([])
            used = 0
        lines[-1].append(mark)
        used += width
    return lines


@dataclass(frozen=True, slots=True)
class ArenaLayout:
    """Every measure of an arena picture: the table's columns, how many players are drawn and how many are not,
    the title's lines, the legend's lines (each a tuple of marks) and whether nobody has played."""

    widths: tuple[int, ...]
    shown: int
    hidden: int
    title_lines: int
    legend: tuple[tuple[Mark, ...], ...]

    @property
    def width(self) -> int:
        """Return the width of the image."""
        return 2 * MARGIN + sum(self.widths)

    def status_box(self) -> Box:
        """Return the box of the header line (time left or finished)."""
        top = MARGIN + (title_height(self.title_lines) if self.title_lines else 0)
        return (MARGIN, top, self.width - MARGIN, top + STATUS_HEIGHT)

    @property
    def top(self) -> int:
        """Return the y of the table's header row."""
        return self.status_box()[3]

    @property
    def bottom(self) -> int:
        """Return the y just below the table's last row."""
        return self.top + HEADER_HEIGHT + self.shown * ROW_HEIGHT

    def line_box(self) -> Box | None:
        """Return the box of the line under the table ("+N more", or that nobody has played), None without one."""
        if not self.hidden and self.shown:
            return None
        return (MARGIN, self.bottom, self.width - MARGIN, self.bottom + LINE_HEIGHT)

    def legend_box(self) -> Box | None:
        """Return the box of the legend, None without one."""
        if not self.legend:
            return None
        top = (self.line_box() or (0, 0, 0, self.bottom))[3] + PAD
        return (MARGIN, top, self.width - MARGIN, top + len(self.legend) * LEGEND_LINE)

    @property
    def height(self) -> int:
        """Return the height of the image."""
        return (self.legend_box() or self.line_box() or (0, 0, 0, self.bottom))[3] + MARGIN

    def column_x(self, column: int) -> int:
        """Return the left x of ``column``."""
        return MARGIN + sum(self.widths[:column])

    def cell_box(self, row: int, column: int) -> Box:
        """Return the box of body cell ``row`` (0 = the first player), ``column``."""
        x = self.column_x(column)
        y = self.top + HEADER_HEIGHT + row * ROW_HEIGHT
        return (x, y, x + self.widths[column], y + ROW_HEIGHT)

    def mark_box(self, row: int, slot: int) -> Box:
        """Return the box of the mark of game ``slot`` (0 = the first slot) of ``row``'s score sheet."""
        x0, y0, _, y1 = self.cell_box(row, SHEET)
        x = x0 + PAD + slot * SLOT
        y = (y0 + y1) // 2 - MARK_HEIGHT // 2 + 1
        return (x, y, x + MARK_WIDTH, y + MARK_HEIGHT)

    def bolt_box(self, row: int, slot: int) -> Box:
        """Return the box of the berserk bolt on the mark of game ``slot`` of ``row``."""
        _, y, x1, _ = self.mark_box(row, slot)
        left = x1 - BOLT_WIDTH + 5
        return (left, y - 5, left + BOLT_WIDTH, y - 5 + BOLT_HEIGHT)

    def icon_box(self, row: int, index: int) -> Box:
        """Return the box of the ``index``-th mark (0 or 1) after ``row``'s name."""
        x0, y0, x1, y1 = self.cell_box(row, STATUS)
        count_width = 2 * ICON + 4
        x = (x0 + x1) // 2 - count_width // 2 + index * (ICON + 4)
        y = (y0 + y1) // 2 - ICON // 2
        return (x, y, x + ICON, y + ICON)


def arena_layout(
    rows: Sequence[ArenaStanding],
    *,
    labels: ArenaLabels = DEFAULT_ARENA_LABELS,
    title: str | None = None,
    paused: Collection[str] = (),
    left: Collection[str] = (),
    max_rows: int = MAX_ROWS,
) -> ArenaLayout:
    """Return the layout of the arena picture of ``rows`` (see :func:`render_arena_standings`).

    Raises:
        ValueError: ``max_rows`` below 1.
    """
    if max_rows < 1:
        raise ValueError(f"max_rows must be at least 1, not {max_rows!r}")
    shown = list(rows[:max_rows])
    geo = table_layout(_columns(labels), len(shown))
    inner = geo.width - 2 * MARGIN - 2 * PAD
    lines = len(title_lines(title, inner)) if title is not None else 0
    legend = _legend_rows(_legend_marks(shown, paused, left), labels, inner)
    return ArenaLayout(geo.widths, len(shown), len(rows) - len(shown), lines, tuple(tuple(line) for line in legend))


# ---------------------------------------------------------------------------------------------------- the shapes


def _supersampled(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    s = sprites.SUPERSAMPLE
    big = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    return big, ImageDraw.Draw(big), s


def _scaled(points: Sequence[tuple[float, float]], width: int, height: int, s: int) -> list[tuple[float, float]]:
    return [(x * width * s, y * height * s) for x, y in points]


FLAME: Final = (
    (0.50, 1.00),
    (0.18, 0.93),
    (0.04, 0.72),
    (0.08, 0.50),
    (0.22, 0.30),
    (0.30, 0.46),
    (0.42, 0.16),
    (0.56, 0.00),
    (0.62, 0.24),
    (0.78, 0.12),
    (0.82, 0.34),
    (0.96, 0.56),
    (0.94, 0.76),
    (0.82, 0.93),
)
"""A flame in a unit box (x right, y down): a round base and tongues rising to a tip."""
BOLT: Final = ((0.62, 0.0), (0.06, 0.58), (0.44, 0.58), (0.30, 1.0), (0.94, 0.38), (0.56, 0.38), (0.80, 0.0))
"""A lightning bolt in a unit box."""


@lru_cache(maxsize=64)
def flame(width: int, height: int, fill: RGB, edge: RGB) -> Image.Image:
    """Return a flame ``width`` x ``height`` (RGBA) in ``fill`` with an ``edge`` contour."""
    big, draw, s = _supersampled(width, height)
    draw.polygon(_scaled(FLAME, width, height, s), fill=(*fill, 255), outline=(*edge, 255), width=s)
    return big.resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def bolt(fill: RGB, edge: RGB) -> Image.Image:
    """Return the berserk bolt (RGBA) in ``fill`` with an ``edge`` contour that keeps it apart from any mark."""
    big, draw, s = _supersampled(BOLT_WIDTH, BOLT_HEIGHT)
    inset = [(0.04 + 0.92 * x, 0.03 + 0.94 * y) for x, y in BOLT]
    draw.polygon(_scaled(inset, BOLT_WIDTH, BOLT_HEIGHT, s), fill=(*fill, 255), outline=(*edge, 255), width=s)
    return big.resize((BOLT_WIDTH, BOLT_HEIGHT), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def win_square(fill: RGB) -> Image.Image:
    """Return a win's rounded square (RGBA)."""
    big, draw, s = _supersampled(MARK_WIDTH, MARK_HEIGHT)
    draw.rounded_rectangle((0, 0, MARK_WIDTH * s - 1, MARK_HEIGHT * s - 1), radius=5 * s, fill=(*fill, 255))
    return big.resize((MARK_WIDTH, MARK_HEIGHT), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def pause_icon(colour: RGB) -> Image.Image:
    """Return the "paused" mark: two upright bars."""
    big, draw, s = _supersampled(ICON, ICON)
    for left in (0.16, 0.58):
        draw.rounded_rectangle(
            (left * ICON * s, 0.08 * ICON * s, (left + 0.26) * ICON * s, 0.92 * ICON * s), radius=s, fill=(*colour, 255)
        )
    return big.resize((ICON, ICON), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def exit_icon(colour: RGB) -> Image.Image:
    """Return the "left the arena" mark: a door frame open on the right and an arrow leaving through it."""
    big, draw, s = _supersampled(ICON, ICON)
    n = ICON * s
    line = max(s, n // 9)
    draw.line(
        [(0.52 * n, 0.12 * n), (0.08 * n, 0.12 * n), (0.08 * n, 0.88 * n), (0.52 * n, 0.88 * n)], (*colour, 255), line
    )
    draw.line([(0.32 * n, 0.5 * n), (0.86 * n, 0.5 * n)], (*colour, 255), line)
    draw.polygon([(0.98 * n, 0.5 * n), (0.68 * n, 0.26 * n), (0.68 * n, 0.74 * n)], fill=(*colour, 255))
    return big.resize((ICON, ICON), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def clock_icon(colour: RGB) -> Image.Image:
    """Return the header line's clock: a dial with two hands."""
    big, draw, s = _supersampled(ICON, ICON)
    n = ICON * s
    line = max(s, n // 10)
    draw.ellipse((line / 2, line / 2, n - line / 2, n - line / 2), outline=(*colour, 255), width=line)
    draw.line([(n / 2, 0.22 * n), (n / 2, n / 2), (0.72 * n, 0.62 * n)], (*colour, 255), line)
    return big.resize((ICON, ICON), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def flag_icon(colour: RGB, other: RGB) -> Image.Image:
    """Return the header line's finish flag: a pole and a chequered cloth."""
    big, draw, s = _supersampled(ICON, ICON)
    n = ICON * s
    draw.rectangle((0.08 * n, 0.06 * n, 0.18 * n, n), fill=(*colour, 255))
    cell = 0.82 * n / 4
    for i in range(4):
        for j in range(3):
            fill = colour if (i + j) % 2 == 0 else other
            x, y = 0.18 * n + i * cell, 0.06 * n + j * cell
            draw.rectangle((x, y, x + cell, y + cell), fill=(*fill, 255))
    return big.resize((ICON, ICON), Image.Resampling.LANCZOS)


def _icon(mark: Mark, colours: Theme, arena: Palette, text: RGB) -> Image.Image:
    if mark == "fire":
        return flame(ICON, ICON, arena.fire, arena.fire_edge)
    if mark == "berserk":
        return bolt(arena.bolt, arena.bolt_edge)
    if mark == "paused":
        return pause_icon(text)
    return exit_icon(text)


# ---------------------------------------------------------------------------------------------------- drawing


def _paste(canvas: Image.Image, sprite: Image.Image, box: Box) -> None:
    sprites.paste_center(canvas, sprite, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2))


def _draw_mark(canvas: Image.Image, geo: ArenaLayout, row: int, slot: int, entry: SheetEntry, arena: Palette) -> None:
    box = geo.mark_box(row, slot)
    points = str(entry.points)
    if entry.won and entry.fire:
        fire = flame(MARK_WIDTH + 2, MARK_HEIGHT + 2, arena.fire, arena.fire_edge)
        canvas.paste(fire, (box[0] - 1, box[1] - 2), fire)
        sprite = sprites.text(points, MARK_SIZE, arena.fire_text, bold=True)
        sprites.paste_center(canvas, sprite, ((box[0] + box[2]) // 2, box[1] + MARK_HEIGHT * 5 // 8 + 1))
    elif entry.won:
        square = win_square(arena.win)
        canvas.paste(square, box[:2], square)
        _paste(canvas, sprites.text(points, MARK_SIZE, arena.win_text, bold=True), box)
    else:
        _paste(canvas, sprites.text(points, MARK_SIZE, arena.loss, bold=True), box)
    if entry.berserk:
        mark = bolt(arena.bolt, arena.bolt_edge)
        canvas.paste(mark, geo.bolt_box(row, slot)[:2], mark)


def _text_sprite(text: str, size: int, colour: RGB, max_width: int) -> Image.Image:
    try:
        return sprites.text(text, size, colour)
    except (RuntimeError, OSError, ValueError):
        return name_sprite(text, size, max_width, colour)


def _draw_status(
    canvas: Image.Image, geo: ArenaLayout, labels: ArenaLabels, minutes_left: int | None, colours: Theme
) -> None:
    box = geo.status_box()
    text = labels.finished if minutes_left is None else labels.time_left.replace("{minutes}", str(minutes_left))
    icon = clock_icon(colours.number) if minutes_left is not None else flag_icon(colours.number, colours.frame_dark)
    mid = (box[1] + box[3]) // 2
    canvas.paste(icon, (box[0] + PAD, mid - ICON // 2), icon)
    left = box[0] + PAD + ICON + 8
    sprite = _text_sprite(text, TEXT_SIZE, colours.number, box[2] - left - PAD)
    canvas.paste(sprite, (left, mid - sprite.height // 2), sprite)


def _draw_legend(canvas: Image.Image, geo: ArenaLayout, labels: ArenaLabels, colours: Theme, arena: Palette) -> None:
    box = geo.legend_box()
    if box is None:
        return
    muted = _mix(colours.number, colours.frame, 0.15)
    for i, line in enumerate(geo.legend):
        x = box[0] + PAD
        mid = box[1] + i * LEGEND_LINE + LEGEND_LINE // 2
        for mark in line:
            icon = _icon(mark, colours, arena, colours.number)
            canvas.paste(icon, (x + (ICON - icon.width) // 2, mid - icon.height // 2), icon)
            x += ICON + 6
            label = getattr(labels, mark)
            sprite = _text_sprite(label, LEGEND_SIZE, muted, box[2] - x - PAD)
            canvas.paste(sprite, (x, mid - sprite.height // 2), sprite)
            x += sprite.width + 18


def render_arena_standings_image(
    rows: Sequence[ArenaStanding],
    names: Mapping[str, str],
    *,
    theme: str = "classic",
    labels: ArenaLabels = DEFAULT_ARENA_LABELS,
    title: str | None = None,
    minutes_left: int | None = None,
    paused: Collection[str] = (),
    left: Collection[str] = (),
    max_rows: int = MAX_ROWS,
) -> Image.Image:
    """Return the arena's standings as an RGB image; see :func:`render_arena_standings`."""
    colours = get_theme(theme)
    arena = palette(theme)
    if minutes_left is not None and minutes_left < 0:
        raise ValueError(f"minutes_left must not be negative, not {minutes_left!r}")
    geo = arena_layout(rows, labels=labels, title=title, paused=paused, left=left, max_rows=max_rows)
    shown = rows[: geo.shown]
    cells = [
        [
            _place(row.rank, colours),
            Cell(names.get(row.player, row.player), name=True),
            Cell(),
            Cell(str(row.score), bold=True),
            Cell(str(row.games)),
            Cell(),
        ]
        for row in shown
    ]
    table, _ = _draw_table(_columns(labels), cells, colours, None)
    canvas = Image.new("RGB", (geo.width, geo.height), colours.frame)
    canvas.paste(table, (0, geo.top - MARGIN))
    inner = geo.width - 2 * MARGIN - 2 * PAD
    if title is not None:
        top = MARGIN
        box = (MARGIN, top, geo.width - MARGIN, top + title_height(geo.title_lines))
        draw_lines(canvas, title_lines(title, inner), box, TITLE_SIZE, TITLE_LINE, colours.number, bold=True)
    _draw_status(canvas, geo, labels, minutes_left, colours)
    for r, row in enumerate(shown):
        for i, mark in enumerate(_marks_of(row, paused, left)):
            icon = _icon(mark, colours, arena, colours.felt_text)
            _paste(canvas, icon, geo.icon_box(r, i))
        cut, games = sheet_shown(row.sheet)
        if cut:
            _paste(canvas, sprites.text("…", MARK_SIZE, arena.loss, bold=True), geo.mark_box(r, 0))
        for slot, entry in enumerate(games, start=1 if cut else 0):
            _draw_mark(canvas, geo, r, slot, entry, arena)
    line = geo.line_box()
    if line is not None:
        text = labels.more.replace("{count}", str(geo.hidden)) if geo.shown else labels.nobody
        muted = _mix(colours.number, colours.frame, 0.15)
        draw_lines(canvas, (text,), line, TEXT_SIZE, LINE_HEIGHT, muted, bold=False)
    _draw_legend(canvas, geo, labels, colours, arena)
    return canvas


def render_arena_standings(
    rows: Sequence[ArenaStanding],
    names: Mapping[str, str],
    *,
    theme: str = "classic",
    labels: ArenaLabels = DEFAULT_ARENA_LABELS,
    title: str | None = None,
    minutes_left: int | None = None,
    paused: Collection[str] = (),
    left: Collection[str] = (),
    max_rows: int = MAX_ROWS,
    fmt: ImageFormat = "jpeg",
    quality: int = JPEG_QUALITY,
) -> bytes:
    """Return an arena's standings (:func:`tournaments.arena.arena_standings`, best first) as JPEG (default) or PNG.

    One row per player, at most ``max_rows`` (the rest counted on a "+N more" line, ``labels.more``): rank (the
    first lit), name (``names`` maps player ids to display names, any Unicode, cleaned and shortened as on the board;
    a missing id is drawn as itself), the marks after the name (a flame while on fire, two bars for a player in
    ``paused``, a door for one in ``left``, the ids of those who left the arena), the arena score, the games played,
    and the score sheet: the last :data:`SHEET_GAMES` games' points, a win in a rounded square, a win on fire in an
    orange flame, a loss a bare 0, a berserk game with a bolt on its corner (see the module docstring). Above the
    table ``title`` (optional, wrapped to two lines rather than cut) and the header line: a clock and
    ``labels.time_left`` with ``minutes_left``, or with ``minutes_left`` None (the arena is over) a flag and
    ``labels.finished``. Under it a legend of the marks drawn. ``labels`` (:class:`ArenaLabels`) are the caller's
    words; ``theme`` is ``"classic"`` or ``"dark"``.

    Raises:
        ValueError: unknown theme or format, a JPEG quality outside 1..95, ``max_rows`` below 1 or a negative
            ``minutes_left``.
    """
    fmt = check_format(fmt)
    image = render_arena_standings_image(
        rows,
        names,
        theme=theme,
        labels=labels,
        title=title,
        minutes_left=minutes_left,
        paused=paused,
        left=left,
        max_rows=max_rows,
    )
    return encode(image, fmt, quality=quality)
