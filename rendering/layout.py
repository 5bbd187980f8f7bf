"""Geometry of the board image: where every point, checker, die, tray and text goes, for a given width.

All coordinates are integer pixels in the final image. Points are numbered in the *viewer's* frame (the player at the
bottom): point 1 is at the bottom right, 1..12 run right to left along the bottom, 13..24 left to right along the top.
The bear-off trays are at the right (the top player's above, the bottom player's below), with the doubling cube
between them: in the middle when centred, by its owner's tray when owned; the top strip names the top player and
the bottom strip the bottom player. A board with reserves (Acey-deucey, Dutch: checkers not yet entered) has a
second column of trays at the left, the reserve trays, laid out the same way (the top player's above); its points are
a little narrower so that the image keeps its width. On the long-nardy board (``split_trays``) each player bears off
by its own home, which lies in opposite corners there: the bottom player's tray is at the bottom right, the top
player's at the top left, in a left column laid out like the reserves' (the right column keeps the cube).

Tests use this module to find the pixels to sample, so it is the single source of truth for positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Box = tuple[int, int, int, int]
"""A rectangle ``(left, top, right, bottom)``; right and bottom exclusive."""

Point2 = tuple[int, int]

MIN_WIDTH = 320
MAX_WIDTH = 4096
VISIBLE_STACK = 5
"""Checkers drawn on one point; a taller stack shows its count on the top one."""
VISIBLE_BAR = 4
"""Checkers drawn on one half of the bar; more show a count."""
PIN_OVERLAP = 0.45
"""On a point with a pinned checker (Plakoto), the share of the pinned checker that the first pinner covers."""
RESERVE_STEP = 0.19
"""Checkers of a reserve are drawn face-on in a pile, each this share of a checker further from the frame."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Every measure of a board image of one width; build it with :func:`layout`."""

    width: int
    height: int
    point_width: int
    checker: int
    strip_height: int
    frame_v: int
    board_box: Box
    inner_top: int
    inner_bottom: int
    left_half_x: int
    right_half_x: int
    bar_box: Box
    tray_x: tuple[int, int]
    tray_height: int
    slab_height: int
    die: int
    cube: int
    reserve_x: tuple[int, int] | None = None
    """The left and right x of the reserve trays (None: a board without reserves)."""
    split_trays: bool = False
    """The top player's bear-off tray is at the top left (the long-nardy board), not above the bottom one's."""
    left_x: tuple[int, int] | None = None
    """The left and right x of the left column of trays (reserves, or the top player's split tray), if any."""

    @property
    def mid_y(self) -> int:
        """Return the y of the board's horizontal centre line."""
        return (self.inner_top + self.inner_bottom) // 2

    @property
    def triangle_length(self) -> int:
        """Return the length of a point (triangle) from its base to its tip."""
        return int(self.checker * VISIBLE_STACK * 0.9)

    def top_strip(self) -> Box:
        """Return the box of the strip above the board (the top player's name, pips, score)."""
        return (0, 0, self.width, self.strip_height)

    def bottom_strip(self) -> Box:
        """Return the box of the strip below the board (the bottom player's name, pips, score)."""
        return (0, self.height - self.strip_height, self.width, self.height)

    def half_box(self, right: bool) -> Box:
        """Return the playing area of the left or right half of the board (between frame and bar)."""
        x = self.right_half_x if right else self.left_half_x
        return (x, self.inner_top, x + 6 * self.point_width, self.inner_bottom)

    def point_column(self, point: int) -> tuple[int, bool]:
        """Return ``(left x, is top row)`` of the viewer's point ``point`` (1..24).

        Raises:
            ValueError: ``point`` is not 1..24.
        """
        if not 1 <= point <= 24:
            raise ValueError(f"point {point} is not a board point 1..24")
        if point <= 12:
            index = 12 - point  # 0 at the far left (point 12) .. 11 at the far right (point 1)
            top = False
        else:
            index = point - 13  # 0 at the far left (point 13) .. 11 at the far right (point 24)
            top = True
        half_x = self.right_half_x if index >= 6 else self.left_half_x
        return half_x + (index % 6) * self.point_width, top

    def point_center_x(self, point: int) -> int:
        """Return the x of the centre line of the viewer's point ``point``."""
        x, _ = self.point_column(point)
        return x + self.point_width // 2

    def is_top(self, point: int) -> bool:
        """Return whether the viewer's point ``point`` is in the top row."""
        return self.point_column(point)[1]

    def checker_center(self, point: int, index: int, pinned: bool = False) -> Point2:
        """Return the centre of the ``index``-th checker (0 = against the frame) on the viewer's point ``point``.

        ``pinned``: the point's first checker is pinned (Plakoto), and the checkers above it sit
        :data:`PIN_OVERLAP` of a checker lower, covering part of it.
        """
        x = self.point_center_x(point)
        offset = self.checker // 2 + index * self.checker
        if pinned and index > 0:
            offset -= int(self.checker * PIN_OVERLAP)
        y = self.inner_top + offset if self.is_top(point) else self.inner_bottom - 1 - offset
        return x, y

    def triangle(self, point: int) -> tuple[Point2, Point2, Point2]:
        """Return the three corners of the triangle of the viewer's point ``point``: base left, base right, tip."""
        x, top = self.point_column(point)
        right = x + self.point_width
        centre = x + self.point_width // 2
        if top:
            return (x, self.inner_top), (right, self.inner_top), (centre, self.inner_top + self.triangle_length)
        base = self.inner_bottom
        return (x, base), (right, base), (centre, base - self.triangle_length)

    def number_center(self, point: int) -> Point2:
        """Return the centre of the number label of the viewer's point ``point`` (in the frame above or below)."""
        top = self.is_top(point)
        y = self.board_box[1] + self.frame_v // 2 if top else self.board_box[3] - self.frame_v // 2
        return self.point_center_x(point), y

    def bar_checker_center(self, top: bool, index: int) -> Point2:
        """Return the centre of the ``index``-th checker on the top or bottom half of the bar (0 = by the middle)."""
        left, _, right, _ = self.bar_box
        x = (left + right) // 2
        offset = self.checker // 2 + int(self.checker * 0.35) + index * self.checker
        return x, (self.mid_y - offset if top else self.mid_y + offset)

    def tray_box(self, top: bool) -> Box:
        """Return the bear-off tray of the top or bottom player (the top one's at the left if the trays are split)."""
        left, right = self.left_x if top and self.split_trays and self.left_x is not None else self.tray_x
        if top:
            return (left, self.inner_top, right, self.inner_top + self.tray_height)
        return (left, self.inner_bottom - self.tray_height, right, self.inner_bottom)

    def slab_box(self, top: bool, index: int) -> Box:
        """Return the ``index``-th borne-off checker (0 = against the frame), seen edge-on in a tray."""
        left, tray_top, right, tray_bottom = self.tray_box(top)
        pad = max(2, (right - left) // 10)
        step = index * self.slab_height
        y = tray_top + pad + step if top else tray_bottom - pad - step - self.slab_height
        return (left + pad, y, right - pad, y + self.slab_height)

    def tray_label_center(self, top: bool) -> Point2:
        """Return the centre of the borne-off count, on the middle side of the tray."""
        left, tray_top, right, tray_bottom = self.tray_box(top)
        x = (left + right) // 2
        inset = int(self.checker * 0.32)
        return x, (tray_bottom - inset if top else tray_top + inset)

    def reserve_box(self, top: bool) -> Box:
        """Return the reserve tray of the top or bottom player (checkers not yet entered), at the left.

        Raises:
            ValueError: the board has no reserves.
        """
        if self.reserve_x is None:
            raise ValueError("this board layout has no reserve trays")
        left, right = self.reserve_x
        if top:
            return (left, self.inner_top, right, self.inner_top + self.tray_height)
        return (left, self.inner_bottom - self.tray_height, right, self.inner_bottom)

    def reserve_checker_center(self, top: bool, index: int) -> Point2:
        """Return the centre of the ``index``-th checker of a reserve pile (0 = against the frame).

        Raises:
            ValueError: the board has no reserves.
        """
        left, box_top, right, box_bottom = self.reserve_box(top)
        pad = max(2, (right - left - self.checker) // 2)
        offset = pad + self.checker // 2 + int(index * self.checker * RESERVE_STEP)
        return (left + right) // 2, (box_top + offset if top else box_bottom - 1 - offset)

    def title_center(self, right: bool) -> Point2:
        """Return the centre of the variant's title, printed on the felt in the middle of the right or left half."""
        left, _, right_x, _ = self.half_box(right)
        return (left + right_x) // 2, self.mid_y

    def title_box(self, right: bool) -> Box:
        """Return the band of the right or left half that the variant's title may cover (the whole half's width,
        0.3 of a checker above and below the middle line)."""
        left, _, right_x, _ = self.half_box(right)
        reach = int(self.checker * 0.3)
        return left, self.mid_y - reach, right_x, self.mid_y + reach

    def cube_center(self, owner_top: bool | None) -> Point2:
        """Return the centre of the doubling cube in the tray column: in the middle if centred, else on its owner's
        side, just off the owner's tray (below the top player's, above the bottom player's; with split trays the top
        player's cube is in the left column, under its tray)."""
        left, right = self.left_x if owner_top and self.split_trays and self.left_x is not None else self.tray_x
        x = (left + right) // 2
        if owner_top is None:
            return x, self.mid_y
        reach = self.tray_height + int(self.cube * 0.5) + int(self.checker * 0.22)
        return x, (self.inner_top + reach if owner_top else self.inner_bottom - 1 - reach)

    def match_line_center(self, right: bool, with_title: bool) -> Point2:
        """Return the centre of the match line (length, score, Crawford) on the felt of the right or left half: the
        middle, or just under it when the variant's title is printed there too."""
        x, y = self.title_center(right)
        return x, y + (int(self.checker * 0.4) if with_title else 0)

    def dice_centers(self, count: int, right: bool) -> list[Point2]:
        """Return the centres of ``count`` dice in a row, in the middle of the right or left half."""
        left, _, right_x, _ = self.half_box(right)
        gap = int(self.die * 0.28)
        total = count * self.die + (count - 1) * gap
        x0 = (left + right_x - total) // 2 + self.die // 2
        return [(x0 + i * (self.die + gap), self.mid_y) for i in range(count)]

    def strip_disc_center(self, top: bool) -> Point2:
        """Return the centre of the checker swatch at the left of a player's strip."""
        box = self.top_strip() if top else self.bottom_strip()
        return self.board_box[0] + self.frame_v + self.checker // 3, (box[1] + box[3]) // 2


def _check_width(width: int) -> None:
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width {width} is outside {MIN_WIDTH}..{MAX_WIDTH}")


@lru_cache(maxsize=16)
def layout(width: int, reserve: bool = False, split_trays: bool = False) -> Layout:
    """Return the layout of a board image ``width`` pixels wide (the height follows from it); ``reserve`` adds the
    column of reserve trays at the left (Acey-deucey, Dutch), ``split_trays`` puts the top player's bear-off tray
    there (the long-nardy board, where each tray then lies by its player's home).

    Raises:
        ValueError: ``width`` is outside 320..4096, or both ``reserve`` and ``split_trays`` (one left column).
    """
    _check_width(width)
    if reserve and split_trays:
        raise ValueError("a board has either reserve trays or split bear-off trays in its left column, not both")
    left_column = reserve or split_trays
    point_width = int(width / (17.1 if left_column else 15.6))
    checker = point_width - max(2, round(point_width * 0.04))
    bar_width = int(point_width * 1.1)
    between = int(point_width * 0.35)
    tray_width = int(point_width * 1.15)
    used = 12 * point_width + bar_width + (2 if left_column else 1) * (between + tray_width)
    frame_left = (width - used) // 2
    left_x = (frame_left, frame_left + tray_width) if left_column else None
    if left_column:
        frame_left += tray_width + between
    strip_height = int(point_width * 0.95)
    frame_v = int(point_width * 0.56)
    inner_height = int(checker * 11.3)
    height = 2 * strip_height + 2 * frame_v + inner_height
    board_box = (0, strip_height, width, height - strip_height)
    inner_top = strip_height + frame_v
    inner_bottom = inner_top + inner_height
    left_half_x = frame_left
    bar_x = left_half_x + 6 * point_width
    right_half_x = bar_x + bar_width
    tray_left = right_half_x + 6 * point_width + between
    slab_height = max(3, int(checker * 0.21))
    tray_height = 15 * slab_height + 2 * max(2, tray_width // 10) + int(checker * 0.62)
    return Layout(
        width=width,
        height=height,
        point_width=point_width,
        checker=checker,
        strip_height=strip_height,
        frame_v=frame_v,
        board_box=board_box,
        inner_top=inner_top,
        inner_bottom=inner_bottom,
        left_half_x=left_half_x,
        right_half_x=right_half_x,
        bar_box=(bar_x, inner_top, right_half_x, inner_bottom),
        tray_x=(tray_left, tray_left + tray_width),
        tray_height=tray_height,
        slab_height=slab_height,
        die=int(checker * 0.94),
        cube=int(checker * 0.78),
        reserve_x=left_x if reserve else None,
        split_trays=split_trays,
        left_x=left_x,
    )
