"""The board image: :func:`render_board` and :func:`render_board_image`.

A board is drawn for a *viewer*, the player whose checkers move toward the bottom right; with no viewer (a
spectator) it is drawn from the side to move. Points are numbered in the viewer's frame. See the package docstring
for every option.

The variants of docs/rules.md §6 are drawn by the layout of their sides (:mod:`nardy.position`) and their geometry:
the opposite ones on the short-nardy board, the parallel ones (Fevga, Gul bara) on the long-nardy board. A side of
26 entries has a reserve (Acey-deucey, Dutch), drawn as a pile of face-on checkers with its count in a reserve tray
at the left, apart from the bear-off trays at the right. A side of 49 entries has Plakoto's pinned flags: a pinned
checker lies at the base of its point, the pinner's checkers on top of it (covering part of it), and a padlock
badge marks it. Every variant but the two main games has its title printed on the felt, in the middle of the half
on the mover's left (the dice lie in the other half).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict, Unpack

from PIL import Image, ImageDraw

from nardy.move import RESERVE_POINT, Step
from nardy.position import Position
from rendering import sprites
from rendering.background import background
from rendering.encode import ImageFormat, check_format, encode
from rendering.fonts import font
from rendering.frames import VariantInfo, VariantLike, VariantName, other_frame, variant_info
from rendering.layout import PIN_OVERLAP, VISIBLE_BAR, VISIBLE_STACK, Layout, layout
from rendering.names import name_sprite
from rendering.theme import RGB, Theme, get_theme

BAR = 25
OFF = 0
RESERVE = RESERVE_POINT
"""The source point of a step that enters a checker from the reserve (Acey-deucey, Dutch), written ``in``."""
VISIBLE_RESERVE = 15
"""Checkers drawn in a reserve pile (all of them)."""


@dataclass(frozen=True, slots=True)
class BoardLabels:
    """The words a board draws, given by the caller in its language (the renderer has none of its own; the defaults
    are neutral English): the pip count's caption, the mover's mark, the match's length (``{length}`` is replaced)
    and the Crawford game's name for the match line ("Match to 5 · 2:1 · Crawford")."""

    pips: str = "pips"
    to_move: str = "to move"
    match: str = "Match to {length}"
    crawford: str = "Crawford"


DEFAULT_LABELS = BoardLabels()
DEFAULT_NAMES = ("Player 1", "Player 2")

Location = tuple[str, int]
"""Where a checker is, as the viewer sees it: ``("point", 1..24)``, ``("bar", player)``, ``("off", player)`` or
``("reserve", player)``."""


@dataclass(frozen=True, slots=True)
class _Marks:
    """Highlight marks of one turn, per location in the viewer's frame."""

    sources: Counter[Location]
    targets: Counter[Location]
    touched: frozenset[Location]
    hits: Counter[Location]
    victims: Counter[Location]
    paths: tuple[tuple[Location, Location], ...]
    """Each moved checker's first and last location (a checker moved on in the same turn is one path)."""


def _check_player(value: int, what: str) -> int:
    if value not in (0, 1):
        raise ValueError(f"{what} must be player 0 or 1, not {value!r}")
    return value


def _check_side(side: Sequence[int], what: str, info: VariantInfo) -> None:
    length, checkers = info.side_length, info.checkers
    if len(side) != length or any(count < 0 for count in side) or sum(side) > checkers:
        raise ValueError(
            f"{what} side must be {length} non-negative counts totalling at most {checkers} in {info.name}: "
            f"{tuple(side)!r}"
        )
    if info.layout == "pinned" and any(flag > 1 for flag in side[25:]):
        raise ValueError(f"{what} side has a pinned flag other than 0 or 1 (entries 26..49): {tuple(side)!r}")


def _to_viewer(point: int, owner: int, bottom: int, variant: VariantName) -> int:
    """Return the viewer-frame number of board point ``point`` given in ``owner``'s frame."""
    return point if owner == bottom else other_frame(point, variant)


def _locate(point: int, owner: int, bottom: int, info: VariantInfo) -> Location:
    if point == BAR:
        return ("bar", owner)
    if point == OFF:
        return ("off", owner)
    if point == RESERVE and info.layout == "reserve":
        return ("reserve", owner)
    if not 1 <= point <= 24:
        last = RESERVE if info.layout == "reserve" else BAR
        raise ValueError(f"step point {point} is outside 0..{last}")
    return ("point", _to_viewer(point, owner, bottom, info.board))


def _marks(steps: Sequence[Step], player: int, bottom: int, info: VariantInfo) -> _Marks:
    net: Counter[Location] = Counter()
    hits: Counter[Location] = Counter()
    victims: Counter[Location] = Counter()
    touched: set[Location] = set()
    paths: list[tuple[Location, Location]] = []
    for step in steps:
        src = _locate(step.src, player, bottom, info)
        dst = _locate(step.dst, player, bottom, info)
        paths.append((src, dst))
        net[src] -= 1
        net[dst] += 1
        touched.update((src, dst))
        if step.hit:
            hits[dst] += 1
            if info.layout != "pinned":  # a pinned checker stays on its point, marked by its padlock
                victims[("bar", 1 - player)] += 1
    sources = Counter({loc: -n for loc, n in net.items() if n < 0})
    targets = Counter({loc: n for loc, n in net.items() if n > 0})
    return _Marks(sources, targets, frozenset(touched), hits, victims, _joined(paths))


def _joined(paths: list[tuple[Location, Location]]) -> tuple[tuple[Location, Location], ...]:
    """Return the checkers' paths with every step that went on from a point joined to the one that reached it, in
    whatever order the steps were played ("8/5 13/8" is one path 13 to 5, as "13/8 8/5" is)."""
    joined = list(paths)
    merged = True
    while merged:
        merged = False
        for i, (start, end) in enumerate(joined):
            if end[0] != "point":
                continue
            onward = next((j for j, path in enumerate(joined) if j != i and path[0] == end), None)
            if onward is not None:
                joined[i] = (start, joined[onward][1])
                del joined[onward]
                merged = True
                break
    return tuple(path for path in joined if path[0] != path[1])


def _match_line(labels: BoardLabels, length: int, score: tuple[int, int], crawford: bool) -> str:
    """Return the match as players say it, "Match to 5 · 2:1 · Crawford": player 0's score (the light checkers)
    first whichever side the board is drawn from, in the order of the bot's caption, so that the two never
    disagree."""
    line = f"{labels.match.format(length=length)} · {score[0]}:{score[1]}"
    return f"{line} · {labels.crawford}" if crawford else line


def _dice_faces(dice: tuple[int, int], used: Sequence[int], count: int | None = None) -> list[tuple[int, bool]]:
    """Return ``(value, dimmed)`` for each die to draw: two, or ``count`` (default four) for a double, used ones
    dimmed."""
    for value in dice:
        if not 1 <= value <= 6:
            raise ValueError(f"die value {value} is not 1..6")
    double = dice[0] == dice[1]
    if count is not None and not (1 <= count <= 4 if double else count == 2):
        raise ValueError(f"dice_count {count} does not fit the roll {dice} (a double gives 1..4 moves, others 2)")
    faces = [dice[0]] * (count or 4) if double else [max(dice), min(dice)]
    dimmed = [False] * len(faces)
    for value in used:
        for index, face in enumerate(faces):
            if face == value and not dimmed[index]:
                dimmed[index] = True
                break
        else:
            raise ValueError(f"used die {value} is not among the unused dice of the roll {dice}")
    return list(zip(faces, dimmed, strict=True))


class _Board:
    """One board being drawn: the canvas plus everything needed to place things on it."""

    def __init__(self, theme: Theme, geo: Layout, bottom: int, info: VariantInfo) -> None:
        self.info = info
        self.side_checkers = info.checkers
        self.theme = theme
        self.geo = geo
        self.bottom = bottom
        self.canvas = background(theme.name, geo.width, geo.reserve_x is not None, geo.split_trays).copy()
        self.points: dict[int, list[int]] = {p: [] for p in range(1, 25)}  # viewer point -> players bottom-up
        self.pinned: dict[int, int] = {}  # viewer point -> the player whose checker lies pinned at its base
        self.bar: dict[int, int] = {0: 0, 1: 0}
        self.off: dict[int, int] = {0: 0, 1: 0}
        self.reserve: dict[int, int] = {0: 0, 1: 0}

    def is_top(self, player: int) -> bool:
        return player != self.bottom

    def place(self, side: Sequence[int], owner: int) -> None:
        """Put one side's checkers on the board (call :meth:`stack` once both sides are placed)."""
        board = self.info.board
        for index in range(24):
            if side[index]:
                self.points[_to_viewer(index + 1, owner, self.bottom, board)].extend([owner] * side[index])
        self.bar[owner] = side[24]
        self.off[owner] = self.side_checkers - sum(side)
        if self.info.layout == "reserve":
            self.reserve[owner] = side[25]
        elif self.info.layout == "pinned":
            for index in range(24):
                if side[25 + index]:
                    self.pinned[_to_viewer(index + 1, owner, self.bottom, board)] = owner

    def stack(self) -> None:
        """Check that no point holds both colours (but a pinned checker under its pinners) and put each pinned
        checker at the base of its point.

        Raises:
            ValueError: a point holds both colours, or a pinned checker lies on a point without any pinner or
                with free checkers of its own side.
        """
        for point, owners in self.points.items():
            pinned = self.pinned.get(point)
            if pinned is None:
                if len(set(owners)) > 1:
                    raise ValueError(f"point {point} (viewer's frame) holds checkers of both players")
            elif not owners or pinned in owners:
                raise ValueError(
                    f"point {point} (viewer's frame) holds a pinned checker of player {pinned} but "
                    + ("no pinner" if not owners else "also free checkers of that player")
                )
            else:
                owners.insert(0, pinned)

    # -- location geometry -------------------------------------------------------------------------------------
    def slot_center(self, location: Location, index: int) -> tuple[int, int] | None:
        """Return the centre of the ``index``-th checker of a point or bar, or None if it is not drawn."""
        kind, value = location
        if kind == "point":
            pinned = value in self.pinned
            return self.geo.checker_center(value, index, pinned) if 0 <= index < VISIBLE_STACK else None
        if kind == "bar":
            return self.geo.bar_checker_center(self.is_top(value), index) if 0 <= index < VISIBLE_BAR else None
        if kind == "reserve":
            top = self.is_top(value)
            return self.geo.reserve_checker_center(top, index) if 0 <= index < VISIBLE_RESERVE else None
        return None

    def count(self, location: Location) -> int:
        kind, value = location
        if kind == "point":
            return len(self.points[value])
        if kind == "bar":
            return self.bar[value]
        if kind == "reserve":
            return self.reserve[value]
        return self.off[value]

    # -- drawing -----------------------------------------------------------------------------------------------
    def tint(self, marks: _Marks, colour: RGB) -> None:
        """Mark the number of every point the turn touched with a badge in ``colour``."""
        geo = self.geo
        dark = (24, 20, 16) if sum(colour) > 382 else (255, 255, 255)
        for kind, value in marks.touched:
            if kind == "point":
                badge = sprites.pill(str(value), int(geo.frame_v * 0.84), colour, dark)
                sprites.paste_center(self.canvas, badge, geo.number_center(value))

    def felt_text(self, text: str, share: float, opacity: int, centre: tuple[int, int]) -> None:
        """Print ``text`` on the felt at ``centre``, ``share`` of a checker high (smaller if it must, to fit in most of
        a half's width) and faded to ``opacity``."""
        room = int(self.geo.point_width * 6 * 0.88)
        size = int(self.geo.checker * share)
        width = font(size, bold=True).getlength(text)
        if width > room:
            size = int(size * room / width)
        sprite = sprites.faded_text(text, max(8, size), self.theme.felt_text, opacity, bold=True)
        sprites.paste_center(self.canvas, sprite, centre)

    def match_line(self, text: str, right: bool, with_title: bool) -> None:
        """Print the match line on the felt of the right or left half, under the variant's title if there is one."""
        self.felt_text(text, 0.4, 210, self.geo.match_line_center(right, with_title))

    def title(self, text: str, right: bool) -> None:
        """Print the variant's title on the felt, in the middle of the right or left half."""
        if text:
            self.felt_text(text.upper(), 0.34, 150, self.geo.title_center(right))

    def checkers(self) -> None:
        geo = self.geo
        size = geo.checker
        for point, owners in self.points.items():
            pinned = point in self.pinned
            for index, owner in enumerate(owners[:VISIBLE_STACK]):
                sprites.paste_center(
                    self.canvas,
                    sprites.checker(self.theme.name, owner, size),
                    geo.checker_center(point, index, pinned),
                )
            if len(owners) > VISIBLE_STACK:
                count = len(owners) - 1 if pinned else len(owners)
                self.stack_label(count, owners[-1], geo.checker_center(point, VISIBLE_STACK - 1, pinned))
            if pinned:
                self.pin_badge(point)
        for player, count in self.reserve.items():
            top = self.is_top(player)
            for index in range(min(count, VISIBLE_RESERVE)):
                centre = geo.reserve_checker_center(top, index)
                sprites.paste_center(self.canvas, sprites.checker(self.theme.name, player, size), centre)
            if count:
                self.stack_label(count, player, geo.reserve_checker_center(top, min(count, VISIBLE_RESERVE) - 1))
        for player, count in self.bar.items():
            top = self.is_top(player)
            for index in range(min(count, VISIBLE_BAR)):
                centre = geo.bar_checker_center(top, index)
                sprites.paste_center(self.canvas, sprites.checker(self.theme.name, player, size), centre)
            if count > VISIBLE_BAR:
                self.stack_label(count, player, geo.bar_checker_center(top, VISIBLE_BAR - 1))

    def pin_badge(self, point: int) -> None:
        """Mark the pinned checker at the base of ``point`` with a padlock, on the part its pinner leaves bare."""
        geo = self.geo
        x, y = geo.checker_center(point, 0)
        shift = int(geo.checker * (1 - PIN_OVERLAP) * 0.45)
        centre = (x, y - shift if geo.is_top(point) else y + shift)
        badge = sprites.padlock(int(geo.checker * 0.46), self.theme.hit, (255, 255, 255))
        sprites.paste_center(self.canvas, badge, centre)

    def stack_label(self, count: int, owner: int, centre: tuple[int, int]) -> None:
        colour = self.theme.checkers[owner].text
        label = sprites.text(str(count), int(self.geo.checker * 0.42), colour, bold=True)
        sprites.paste_center(self.canvas, label, centre)

    def trays(self) -> None:
        geo = self.geo
        for player, count in self.off.items():
            top = self.is_top(player)
            if count <= 0:
                continue
            box = geo.slab_box(top, 0)
            slab = sprites.slab(self.theme.name, player, box[2] - box[0], box[3] - box[1])
            for index in range(min(count, 15)):
                left, upper, _, _ = geo.slab_box(top, index)
                self.canvas.paste(slab, (left, upper), slab)
            label = sprites.text(str(count), int(geo.checker * 0.34), self.theme.tray_text, bold=True)
            sprites.paste_center(self.canvas, label, geo.tray_label_center(top))

    def marks(self, marks: _Marks, colour: RGB) -> None:
        """Mark one turn in ``colour``: a dashed outline where each checker left, an arrow along each checker's path,
        a ring on each checker where it arrived, and a hit (the hitter and the checker sent to the bar) with a ring
        in the theme's hit colour and a cross badge: each marker has its own shape, not only its own colour."""
        size = self.geo.checker
        origins = self.origin_slots(marks, colour)
        ends = self.arrival_slots(marks)
        for path in marks.paths:
            start = origins[path[0]].pop(0) if origins.get(path[0]) else None
            end = ends[path[1]].pop(0) if ends.get(path[1]) else None
            if start is not None and end is not None:
                self.arrow(start, end, colour)
        hit_colour = self.theme.hit
        for location, arrived in marks.targets.items():
            if location[0] == "off":
                self.outline_slabs(location[1], arrived, colour)
                continue
            top_index = min(self.count(location), VISIBLE_STACK) - 1
            hit_here = marks.hits[location]
            for j in range(arrived):
                centre = self.slot_center(location, top_index - j)
                if centre is not None:
                    sprites.paste_center(
                        self.canvas, sprites.ring(hit_colour if j < hit_here else colour, size), centre
                    )
                    if j < hit_here:
                        self.hit_badge(centre)
        for location, hit in marks.victims.items():
            top_index = min(self.count(location), VISIBLE_BAR) - 1
            for j in range(hit):
                centre = self.slot_center(location, top_index - j)
                if centre is not None:
                    sprites.paste_center(self.canvas, sprites.ring(hit_colour, size), centre)
                    self.hit_badge(centre)

    def origin_slots(self, marks: _Marks, colour: RGB) -> dict[Location, list[tuple[int, int]]]:
        """Outline where checkers left and return, per location, the centre each departure is drawn from."""
        size = self.geo.checker
        slots: dict[Location, list[tuple[int, int]]] = {}
        for location, moved in marks.sources.items():
            if location[0] == "reserve":
                self.outline_reserve(location[1], colour)
                top = self.is_top(location[1])
                pile = max(0, min(self.reserve[location[1]], VISIBLE_RESERVE) - 1)
                slots[location] = [self.geo.reserve_checker_center(top, pile)] * moved
                continue
            start = self.count(location)
            visible = VISIBLE_BAR if location[0] == "bar" else VISIBLE_STACK
            top_slot = self.slot_center(location, min(start, visible) - 1) if start else None
            hidden = False
            for j in range(moved):
                centre = self.slot_center(location, start + j)
                if centre is not None:
                    sprites.paste_center(self.canvas, sprites.origin_ring(colour, size), centre)
                else:
                    hidden = True
                    centre = top_slot
                if centre is not None:
                    slots.setdefault(location, []).append(centre)
            if hidden and top_slot is not None:
                # The stack still fills every drawn slot (a move off the head): its top checker carries the mark.
                sprites.paste_center(self.canvas, sprites.origin_ring(colour, size), top_slot)
        return slots

    def arrival_slots(self, marks: _Marks) -> dict[Location, list[tuple[int, int]]]:
        """Return, per location where checkers arrived, the centres the arrows point at (the last arrival first)."""
        slots: dict[Location, list[tuple[int, int]]] = {}
        for location, arrived in marks.targets.items():
            if location[0] == "off":
                box = self.geo.slab_box(self.is_top(location[1]), max(0, self.off[location[1]] - 1))
                slots[location] = [((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)] * arrived
                continue
            top_index = min(self.count(location), VISIBLE_STACK) - 1
            for j in range(arrived):
                centre = self.slot_center(location, max(0, top_index - j))
                if centre is not None:
                    slots.setdefault(location, []).append(centre)
        return slots

    def arrow(self, start: tuple[int, int], end: tuple[int, int], colour: RGB) -> None:
        """Draw an arrow from the edge of the checker at ``start`` to the ring of the checker at ``end`` (none when
        the two are too close for an arrow to show)."""
        size = self.geo.checker
        dx, dy = end[0] - start[0], end[1] - start[1]
        length = (dx * dx + dy * dy) ** 0.5
        begin, stop = size * 0.3, size * 0.56
        if length < begin + stop + size * 0.6:
            return
        ux, uy = dx / length, dy / length
        x0, y0 = round(start[0] + ux * begin), round(start[1] + uy * begin)
        x1, y1 = round(end[0] - ux * stop), round(end[1] - uy * stop)
        for tile, (left, top) in sprites.arrow(x1 - x0, y1 - y0, max(2, size // 9), colour):
            self.canvas.paste(tile, (x0 + left, y0 + top), tile)

    def hit_badge(self, centre: tuple[int, int]) -> None:
        """Put the cross badge of a hit on the upper outer edge of the checker at ``centre``."""
        size = self.geo.checker
        badge = sprites.hit_badge(max(8, int(size * 0.46)), self.theme.hit)
        shift = int(size * 0.36)
        sprites.paste_center(self.canvas, badge, (centre[0] + shift, centre[1] - shift))

    def outline_slabs(self, player: int, arrived: int, colour: RGB) -> None:
        count = self.off[player]
        if count <= 0:
            return
        top = self.is_top(player)
        first = self.geo.slab_box(top, count - 1)
        last = self.geo.slab_box(top, max(0, count - arrived))
        box = (
            first[0] - 2,
            min(first[1], last[1]) - 2,
            first[2] + 1,
            max(first[3], last[3]) + 1,
        )
        ImageDraw.Draw(self.canvas).rounded_rectangle(
            box, radius=3, outline=colour, width=max(2, self.geo.checker // 22)
        )

    def outline_reserve(self, player: int, colour: RGB) -> None:
        """Outline a reserve that checkers entered from: its pile, or the whole tray once it is empty."""
        top = self.is_top(player)
        count = min(self.reserve[player], VISIBLE_RESERVE)
        box = self.geo.reserve_box(top)
        if count:
            half = self.geo.checker // 2 + 2
            (x, y0), (_, y1) = self.geo.reserve_checker_center(top, 0), self.geo.reserve_checker_center(top, count - 1)
            box = (x - half, min(y0, y1) - half, x + half, max(y0, y1) + half)
        ImageDraw.Draw(self.canvas).rounded_rectangle(
            box, radius=self.geo.checker // 3, outline=colour, width=max(2, self.geo.checker // 22)
        )

    def dice(self, faces: list[tuple[int, bool]], right: bool, player: int) -> None:
        """Draw the roll in ``player``'s checker colour in the middle of one half, the dice already used faded and
        struck through."""
        centres = self.geo.dice_centers(len(faces), right)
        body = self.theme.checkers[player].body
        for (value, used), centre in zip(faces, centres, strict=True):
            sprite = sprites.die(self.theme.name, value, self.geo.die, used, body=body)
            sprites.paste_center(self.canvas, sprite, centre)

    def cube(self, value: int, owner: int | None) -> None:
        owner_top = None if owner is None else self.is_top(owner)
        sprite = sprites.cube(self.theme.name, value, self.geo.cube)
        sprites.paste_center(self.canvas, sprite, self.geo.cube_center(owner_top))

    def strip(
        self,
        player: int,
        name: str,
        pips: int,
        to_move: bool,
        score: int | None,
        length: int | None,
        labels: BoardLabels,
        *,
        won: str | None = None,
    ) -> None:
        """Draw a player's strip: swatch, name, the "to move" badge, pips and the player's match score; ``won`` (the
        winner's label, possibly empty) lights the strip and puts a crown and the label after the name.
        """
        geo = self.geo
        theme = self.theme
        top = self.is_top(player)
        box = geo.top_strip() if top else geo.bottom_strip()
        draw = ImageDraw.Draw(self.canvas)
        height = box[3] - box[1]
        mid = (box[1] + box[3]) // 2
        if to_move or won is not None:
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=theme.strip_active)
            bar_h = max(3, height // 14)
            y = box[3] - bar_h if top else box[1]
            draw.rectangle((box[0], y, box[2] - 1, y + bar_h - 1), fill=theme.accent)
        disc_size = int(height * 0.62)
        disc_x, disc_y = geo.strip_disc_center(top)
        sprites.paste_center(self.canvas, sprites.checker(theme.name, player, disc_size), (disc_x, disc_y))
        x = disc_x + disc_size // 2 + int(height * 0.3)
        right = box[2] - geo.frame_v

        # Right-hand side, right to left: match score, pip count.
        if score is not None:
            score_text = str(score)
            score_sprite = sprites.text(score_text, int(height * 0.44), theme.strip_text, bold=True)
            pad = int(height * 0.18)
            box_w = score_sprite.width + 2 * pad
            box_h = int(height * 0.66)
            sbox = (right - box_w, mid - box_h // 2, right, mid + box_h // 2)
            draw.rounded_rectangle(sbox, radius=box_h // 4, outline=theme.strip_muted, width=max(1, height // 30))
            sprites.paste_center(self.canvas, score_sprite, ((sbox[0] + sbox[2]) // 2, mid))
            right = sbox[0] - int(height * 0.35)
        pip_value = sprites.text(str(pips), int(height * 0.46), theme.strip_text, bold=True)
        pip_caption = sprites.text(labels.pips, int(height * 0.3), theme.strip_muted)
        self.canvas.paste(pip_value, (right - pip_value.width, mid - pip_value.height // 2), pip_value)
        right -= pip_value.width + int(height * 0.15)
        self.canvas.paste(pip_caption, (right - pip_caption.width, mid - pip_caption.height // 2), pip_caption)
        right -= pip_caption.width + int(height * 0.45)

        # Left-hand side: name, then "to move" (or the winner's crown and label).
        name_size = int(height * 0.44)
        gap = int(height * 0.3)
        move_sprite = sprites.pill(labels.to_move, int(height * 0.56), theme.accent, theme.strip) if to_move else None
        crown = sprites.crown(int(height * 0.74), theme.accent, theme.strip) if won is not None else None
        won_label = None
        if won:
            # The winner's label may take up to half the room left of the pips; the name keeps the rest.
            won_room = max(height, (right - x) // 2 - (crown.width if crown else 0))
            won_label = name_sprite(won, int(height * 0.4), won_room, theme.accent)
        after = [sprite for sprite in (move_sprite, crown, won_label) if sprite is not None]
        room = right - x - sum(sprite.width + gap for sprite in after)
        label = name_sprite(name, name_size, max(room, height), theme.strip_text)
        self.canvas.paste(label, (x, mid - label.height // 2 - int(height * 0.02)), label)
        mx = x + label.width
        for sprite in after:
            mx += gap if sprite is not won_label else int(height * 0.12)
            self.canvas.paste(sprite, (mx, mid - sprite.height // 2), sprite)
            mx += sprite.width


def board_layout(variant: VariantLike, width: int) -> Layout:
    """Return the layout of ``variant``'s board ``width`` pixels wide: with the reserve trays (Acey-deucey, Dutch),
    or with split bear-off trays (the long-nardy board: each by its player's home).

    Raises:
        ValueError: an unknown variant, or a width outside 320..4096.
    """
    info = variant_info(variant)
    return layout(width, info.layout == "reserve", info.board == "long")


def render_board_image(
    position: Position,
    variant: VariantLike,
    *,
    mover: int = 0,
    viewer: int | None = None,
    dice: tuple[int, int] | None = None,
    used_dice: Sequence[int] = (),
    dice_count: int | None = None,
    cube_value: int = 1,
    cube_owner: int | None = None,
    show_cube: bool = False,
    last_move: Sequence[Step] | None = None,
    last_move_player: int | None = None,
    pending_steps: Sequence[Step] | None = None,
    names: tuple[str, str] = DEFAULT_NAMES,
    match_score: tuple[int, int] | None = None,
    match_length: int | None = None,
    crawford: bool = False,
    theme: str = "classic",
    width: int = 1280,
    labels: BoardLabels = DEFAULT_LABELS,
    title: str | None = None,
    finished: bool = False,
    winner: int | None = None,
    winner_label: str = "",
) -> Image.Image:
    """Return the board as an RGB :class:`PIL.Image.Image`; options as for :func:`rendering.render_board`.

    Raises:
        ValueError: an option is out of range: unknown variant or theme; a player index other than
            0/1; a malformed side (not of the variant's length, a negative count, more checkers than the variant
            has, a pinned flag other than 0/1) or both players on one point (but a pinned checker under its
            pinners); a die outside 1..6 or a used die not in the roll; a cube value below 1; a width outside
            320..4096; a step point outside 0..25 (0..26 with a reserve, 26 = entering from the reserve).
    """
    info = variant_info(variant)
    colours = get_theme(theme)
    geo = board_layout(variant, width)
    mover = _check_player(mover, "mover")
    bottom = mover if viewer is None else _check_player(viewer, "viewer")
    if cube_value < 1:
        raise ValueError(f"cube value {cube_value} is below 1")
    if cube_owner is not None:
        _check_player(cube_owner, "cube_owner")
    if winner is not None:
        _check_player(winner, "winner")
    elif winner_label:
        raise ValueError("winner_label given without a winner")
    _check_side(position.me, "mover's", info)
    _check_side(position.opp, "opponent's", info)
    faces = _dice_faces(dice, used_dice, dice_count) if dice is not None else None
    if dice is None and (used_dice or dice_count is not None):
        raise ValueError("used_dice or dice_count given without dice")

    board = _Board(colours, geo, bottom, info)
    board.place(position.me, mover)
    board.place(position.opp, 1 - mover)
    board.stack()

    last_marks = None
    if last_move:
        maker = 1 - mover if last_move_player is None else _check_player(last_move_player, "last_move_player")
        last_marks = _marks(last_move, maker, bottom, info)
    pending_marks = _marks(pending_steps, mover, bottom, info) if pending_steps else None

    for marks, colour in ((last_marks, colours.last_move), (pending_marks, colours.pending)):
        if marks is not None:
            board.tint(marks, colour)
    board.checkers()
    board.trays()
    for marks, colour in ((last_marks, colours.last_move), (pending_marks, colours.pending)):
        if marks is not None:
            board.marks(marks, colour)
    # The felt's words go over the arrows, which may cross the middle of the board.
    shown = (info.title("en") if title is None else title) if info.titles else ""  # none on the two main games
    board.title(shown, right=board.is_top(mover))
    if match_score is not None and match_length:
        board.match_line(_match_line(labels, match_length, match_score, crawford), board.is_top(mover), bool(shown))
    if faces is not None:
        board.dice(faces, right=not board.is_top(mover), player=mover)

    mover_pips, opp_pips = position.pips()
    pips = {mover: mover_pips, 1 - mover: opp_pips}
    for player in (0, 1):
        board.strip(
            player,
            names[player],
            pips[player],
            player == mover and not finished and winner is None,
            None if match_score is None else match_score[player],
            match_length,
            labels,
            won=winner_label if winner == player else None,
        )
    if show_cube:
        board.cube(cube_value, cube_owner)
    return board.canvas


class BoardOptions(TypedDict, total=False):
    """The keyword options of :func:`render_board_image`, for :func:`render_board` to pass on."""

    mover: int
    viewer: int | None
    dice: tuple[int, int] | None
    used_dice: Sequence[int]
    dice_count: int | None
    cube_value: int
    cube_owner: int | None
    show_cube: bool
    last_move: Sequence[Step] | None
    last_move_player: int | None
    pending_steps: Sequence[Step] | None
    names: tuple[str, str]
    match_score: tuple[int, int] | None
    match_length: int | None
    crawford: bool
    theme: str
    width: int
    labels: BoardLabels
    title: str | None
    finished: bool
    winner: int | None
    winner_label: str


def render_board(
    position: Position,
    variant: VariantLike,
    *,
    fmt: ImageFormat = "jpeg",
    quality: int | None = None,
    **options: Unpack[BoardOptions],
) -> bytes:
    """Return the board image encoded as JPEG (default; ``quality`` None: the board's quantisation tables,
    :data:`rendering.encode.BOARD_JPEG_TABLES`, else libjpeg's quality 1..95) or PNG bytes; ``options`` are those of
    :func:`render_board_image` (see the package docstring).

    Raises:
        ValueError: an option is out of range (see :func:`render_board_image`), an unknown ``fmt`` or a JPEG
            ``quality`` outside 1..95.
    """
    fmt = check_format(fmt)
    image = render_board_image(position, variant, **options)
    return encode(image, fmt, quality=quality)
