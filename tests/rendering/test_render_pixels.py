"""Every element appears where the layout says, for both viewers: sample pixel colours of PNG renders.

Coordinates come from :mod:`rendering.layout` (never hard-coded); colours from :mod:`rendering.theme`.
"""

from __future__ import annotations

import pytest
from PIL import Image
from render_helpers import decode, distance, pixel, share_near

from nardy.move import Step
from nardy.position import Position, make_side
from rendering import render_board
from rendering.background import background
from rendering.board import board_layout
from rendering.frames import other_frame
from rendering.layout import VISIBLE_STACK, layout
from rendering.theme import get_theme

WIDTH = 960
SHORT = make_side({24: 2, 13: 5, 8: 3, 6: 5})
LONG = make_side({24: 15})
TOLERANCE = 14


def board(position: Position, variant: str, **options: object) -> Image.Image:
    options.setdefault("width", WIDTH)
    return decode(render_board(position, variant, fmt="png", **options))  # type: ignore[arg-type]


def assert_checker(
    image: Image.Image, point: int, player: int, index: int = 0, theme: str = "classic", variant: str = "short"
) -> None:
    geo = board_layout(variant, image.width)
    colour = pixel(image, geo.checker_center(point, index))
    expected = get_theme(theme).checkers[player].body
    assert distance(colour, expected) <= TOLERANCE, (point, player, colour, expected)


def assert_empty(
    image: Image.Image, point: int, index: int = 0, theme: str = "classic", variant: str = "short"
) -> None:
    geo = board_layout(variant, image.width)
    xy = geo.checker_center(point, index)
    backdrop = background(theme, image.width, geo.reserve_x is not None, geo.split_trays)
    assert pixel(image, xy) == pixel(backdrop, xy), (point, index)


@pytest.mark.parametrize("theme", ["classic", "dark"])
@pytest.mark.parametrize("viewer", [0, 1])
def test_short_opening_checkers_for_each_viewer(viewer: int, theme: str) -> None:
    image = board(Position(SHORT, SHORT), "short", mover=0, viewer=viewer, theme=theme)
    own, other = viewer, 1 - viewer
    for point, count in {24: 2, 13: 5, 8: 3, 6: 5}.items():
        # The viewer's checkers on its own points, the other player's on the mirrored points.
        assert_checker(image, point, own, 0, theme)
        assert_checker(image, point, own, count - 1, theme)
        assert_checker(image, 25 - point, other, count - 1, theme)
        if count < VISIBLE_STACK:
            assert_empty(image, point, count, theme)
    for point in (2, 3, 4, 5, 7, 9, 10, 11, 14, 15, 16, 18, 20, 21, 22, 23):
        assert_empty(image, point, 0, theme)


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_long_opening_heads_diagonally_opposite(viewer: int | None) -> None:
    image = board(Position(LONG, LONG), "long", mover=1, viewer=viewer)
    bottom = 1 if viewer is None else viewer  # a spectator sees the board from the side to move
    assert_checker(image, 24, bottom, VISIBLE_STACK - 1, variant="long")
    assert_checker(image, other_frame(24, "long"), 1 - bottom, VISIBLE_STACK - 1, variant="long")
    geo = board_layout("long", WIDTH)
    assert geo.is_top(24) and not geo.is_top(12)
    assert geo.point_center_x(24) > geo.point_center_x(12)
    for point in range(1, 24):
        if point != 12:
            assert_empty(image, point, variant="long")


def test_long_midgame_points_map_to_the_viewer_frame() -> None:
    me = make_side({24: 13, 10: 2})
    opp = make_side({24: 14, 7: 1})
    for viewer in (0, 1):
        image = board(Position(me, opp), "long", mover=0, viewer=viewer)
        if viewer == 0:
            assert_checker(image, 10, 0, variant="long")
            assert_checker(image, other_frame(7, "long"), 1, variant="long")
        else:
            assert_checker(image, other_frame(10, "long"), 0, variant="long")
            assert_checker(image, 7, 1, variant="long")


def test_stack_of_fifteen_shows_its_count() -> None:
    me = make_side({6: 15})
    opp = make_side({1: 15})
    image = board(Position(me, opp), "short")
    geo = layout(WIDTH)
    top_checker = geo.checker_center(6, VISIBLE_STACK - 1)
    half = geo.checker // 4
    box = (top_checker[0] - half, top_checker[1] - half, top_checker[0] + half, top_checker[1] + half)
    # The count "15" is written on the top checker in the player's text colour.
    assert share_near(image, box, get_theme("classic").checkers[0].text, 60) > 0.08
    assert_checker(image, 6, 0, 0)


@pytest.mark.parametrize("viewer", [0, 1])
def test_dice_in_the_movers_half_with_used_dice_dimmed(viewer: int) -> None:
    theme = get_theme("classic")
    image = board(Position(SHORT, SHORT), "short", mover=0, viewer=viewer, dice=(6, 1), used_dice=(1,))
    geo = layout(WIDTH)
    mover_at_bottom = viewer == 0
    six, one = geo.dice_centers(2, right=mover_at_bottom)
    body = theme.checkers[0].body  # the roll in the mover's checker colour
    assert distance(pixel(image, six), body) <= 8  # a six has no centre pip
    faded = (one[0] + geo.die // 5, one[1] + geo.die // 5)  # off the pip and the strike: the used die is faded
    assert distance(pixel(image, faded), body) > 20
    strike = (one[0] - geo.die // 5, one[1] + geo.die // 5)  # on the diagonal, away from any pip
    unused = board(Position(SHORT, SHORT), "short", mover=0, viewer=viewer, dice=(6, 1))
    assert distance(pixel(image, strike), pixel(unused, strike)) > 40
    other_half = geo.dice_centers(2, right=not mover_at_bottom)[0]
    assert pixel(image, other_half) == pixel(background("classic", WIDTH), other_half)


def test_unused_die_shows_its_pip() -> None:
    theme = get_theme("classic")
    image = board(Position(SHORT, SHORT), "short", dice=(6, 1))
    _, one = layout(WIDTH).dice_centers(2, right=True)
    assert distance(pixel(image, one), theme.die_pip) <= 20


def test_double_shows_four_dice() -> None:
    theme = get_theme("classic")
    image = board(Position(SHORT, SHORT), "short", dice=(4, 4), used_dice=(4,))
    centres = layout(WIDTH).dice_centers(4, right=True)
    colours = [pixel(image, c) for c in centres]  # a four has no centre pip: body colour, or struck if used
    body = theme.checkers[0].body
    for colour in colours[1:]:
        assert distance(colour, body) <= 8
    assert distance(colours[0], theme.die_pip) <= 20  # the used four is struck through its middle


@pytest.mark.parametrize("viewer", [0, 1])
@pytest.mark.parametrize("owner", [None, 0, 1])
def test_cube_position(viewer: int, owner: int | None) -> None:
    theme = get_theme("classic")
    image = board(Position(SHORT, SHORT), "short", viewer=viewer, show_cube=True, cube_value=2, cube_owner=owner)
    geo = layout(WIDTH)
    owner_top = None if owner is None else owner != viewer
    x, y = geo.cube_center(owner_top)
    probe = (x - geo.cube // 20, y + int(geo.cube * 0.3))  # below the figure, inside the cube's front face
    assert distance(pixel(image, probe), theme.cube_body) <= 10
    for other in (None, True, False):
        if other != owner_top:
            ox, oy = geo.cube_center(other)
            assert pixel(image, (ox - geo.cube // 20, oy + int(geo.cube * 0.3))) != pixel(image, probe)


def test_no_cube_unless_shown() -> None:
    image = board(Position(SHORT, SHORT), "short")
    xy = layout(WIDTH).cube_center(None)
    assert pixel(image, xy) == pixel(background("classic", WIDTH), xy)


@pytest.mark.parametrize("viewer", [0, 1])
def test_bar_and_borne_off(viewer: int) -> None:
    theme = get_theme("classic")
    me = make_side({25: 2, 6: 5})  # 8 borne off
    opp = make_side({25: 1, 6: 10})  # 4 borne off
    image = board(Position(me, opp), "short", mover=0, viewer=viewer)
    geo = layout(WIDTH)
    mover_top = viewer != 0
    for index in (0, 1):
        colour = pixel(image, geo.bar_checker_center(mover_top, index))
        assert distance(colour, theme.checkers[0].body) <= TOLERANCE
    colour = pixel(image, geo.bar_checker_center(not mover_top, 0))
    assert distance(colour, theme.checkers[1].body) <= TOLERANCE
    assert pixel(image, geo.bar_checker_center(not mover_top, 1)) == pixel(
        background("classic", WIDTH), geo.bar_checker_center(not mover_top, 1)
    )
    for top, player, count in ((mover_top, 0, 8), (not mover_top, 1, 4)):
        left, upper, right, lower = geo.slab_box(top, count - 1)
        assert (
            distance(pixel(image, ((left + right) // 2, (upper + lower) // 2 + 1)), theme.checkers[player].body) <= 40
        )
        left, upper, right, lower = geo.slab_box(top, count)
        middle = ((left + right) // 2, (upper + lower) // 2)
        assert distance(pixel(image, middle), theme.tray) <= 30


@pytest.mark.parametrize("viewer", [0, 1])
def test_highlights_mark_the_turn_and_the_hit(viewer: int) -> None:
    theme = get_theme("classic")
    me = make_side({24: 2, 13: 4, 8: 3, 7: 1, 6: 5})
    opp = make_side({25: 1, 24: 2, 13: 5, 8: 2, 6: 3, 5: 2})
    plain = board(Position(me, opp), "short", viewer=viewer)
    image = board(
        Position(me, opp),
        "short",
        viewer=viewer,
        last_move=(Step(8, 5, 3), Step(6, 5, 1)),
        last_move_player=1,
        pending_steps=(Step(13, 7, 6, hit=True),),
    )
    geo = layout(WIDTH)

    def to_view(point: int, player: int) -> int:
        return point if player == viewer else 25 - point

    def badge_box(point: int) -> tuple[int, int, int, int]:
        x, y = geo.number_center(point)
        half = geo.frame_v // 3
        return (x - half, y - half, x + half, y + half)

    for point in (13, 7):
        assert share_near(image, badge_box(to_view(point, 0)), theme.pending) > 0.3
    for point in (8, 6, 5):
        assert share_near(image, badge_box(to_view(point, 1)), theme.last_move) > 0.3
    assert share_near(plain, badge_box(to_view(13, 0)), theme.pending) < 0.05

    def checker_box(centre: tuple[int, int]) -> tuple[int, int, int, int]:
        half = geo.checker // 2
        return (centre[0] - half, centre[1] - half, centre[0] + half, centre[1] + half)

    hitter = geo.checker_center(to_view(7, 0), 0)
    victim = geo.bar_checker_center(viewer == 0, 0)  # player 1's bar checker
    for hit in (hitter, victim):  # a ring in the hit colour and a white cross on the badge at the upper outer edge
        assert share_near(image, checker_box(hit), theme.hit) > share_near(plain, checker_box(hit), theme.hit) + 0.08
        shift = int(geo.checker * 0.36)
        assert distance(pixel(image, (hit[0] + shift, hit[1] - shift)), (255, 255, 255)) <= 40
    arrived = geo.checker_center(to_view(5, 1), 1)
    assert share_near(image, checker_box(arrived), theme.last_move) > 0.1
    ghost = geo.checker_center(to_view(13, 0), 4)  # where the checker that left 13 stood
    assert share_near(image, checker_box(ghost), theme.pending, 60) > 0.05


def _box(centre: tuple[int, int], half: int) -> tuple[int, int, int, int]:
    return (centre[0] - half, centre[1] - half, centre[0] + half, centre[1] + half)


@pytest.mark.parametrize("variant", ["long", "fevga", "gulbara"])
@pytest.mark.parametrize("theme_name", ["classic", "dark"])
def test_move_off_a_tall_stack_marks_its_top_checker(variant: str, theme_name: str) -> None:
    """A checker that leaves a stack still taller than the drawn five (every move off the head) marks the stack's
    top checker with the dashed origin ring, as the free slot is marked on a small stack; nothing is drawn beyond
    the five slots."""
    theme = get_theme(theme_name)
    geo = board_layout(variant, WIDTH)
    position = Position(make_side({24: 15}), make_side({24: 14, 18: 1}))
    marked = board(position, variant, viewer=0, last_move=(Step(24, 18, 6),), last_move_player=1, theme=theme_name)
    plain = board(position, variant, viewer=0, theme=theme_name)
    head = other_frame(24, "long")  # player 1's head in the viewer's frame (12)
    top = _box(geo.checker_center(head, VISIBLE_STACK - 1), geo.checker // 2)
    assert share_near(marked, top, theme.last_move, 50) > 0.08
    assert share_near(plain, top, theme.last_move, 50) < 0.01
    # The small-stack case keeps its ghost on the free slot.
    small = Position(make_side({24: 15}), make_side({24: 3, 18: 1}))
    image = board(small, variant, viewer=0, last_move=(Step(24, 18, 6),), last_move_player=1, theme=theme_name)
    assert share_near(image, _box(geo.checker_center(head, 3), geo.checker // 2), theme.last_move, 60) > 0.05
    # Beyond the fifth slot of a tall stack the felt stays as drawn without the mark.
    beyond = _box(geo.checker_center(head, VISIBLE_STACK), geo.checker // 3)
    assert share_near(marked, beyond, theme.last_move, 50) == share_near(plain, beyond, theme.last_move, 50)


@pytest.mark.parametrize("theme_name", ["classic", "dark"])
@pytest.mark.parametrize("viewer", [0, 1])
@pytest.mark.parametrize("owner", [0, 1])
def test_an_owned_cube_is_drawn_on_its_owners_side(owner: int, viewer: int, theme_name: str) -> None:
    """An owned cube is told from a centred one at a glance: drawn as a cube in the tray column, by its owner's tray
    (the top player's above the middle, the bottom player's below), while the centred cube sits in the middle (and
    that spot is bare once the cube is owned)."""
    theme = get_theme(theme_name)
    geo = layout(WIDTH)
    position = Position(SHORT, SHORT)
    owned = board(position, "short", viewer=viewer, show_cube=True, cube_value=2, cube_owner=owner, theme=theme_name)
    centred = board(position, "short", viewer=viewer, show_cube=True, theme=theme_name)
    owner_top = owner != viewer
    here, there, middle = (_box(geo.cube_center(side), geo.cube // 2 - 4) for side in (owner_top, not owner_top, None))
    assert (geo.cube_center(owner_top)[1] < geo.mid_y) == owner_top
    assert geo.tray_box(True)[3] < geo.cube_center(owner_top)[1] < geo.tray_box(False)[1]
    assert share_near(owned, here, theme.cube_body, 12) > 0.3
    assert share_near(owned, there, theme.cube_body, 12) < 0.02
    assert share_near(owned, middle, theme.cube_body, 12) < 0.02
    assert share_near(centred, middle, theme.cube_body, 12) > 0.3
    assert share_near(centred, here, theme.cube_body, 12) < 0.02


@pytest.mark.parametrize("theme_name", ["classic", "dark"])
@pytest.mark.parametrize("viewer", [0, 1])
@pytest.mark.parametrize("winner", [0, 1])
def test_finished_board_marks_the_winner(winner: int, viewer: int, theme_name: str) -> None:
    """A finished board with a winner lights the winner's strip and puts a crown and the caller's label in the
    accent colour there; the loser's strip and a finished board without a winner carry no such mark."""
    theme = get_theme(theme_name)
    geo = layout(WIDTH)
    position = Position(make_side({}), make_side({1: 3, 2: 2, 5: 4}))
    options: dict[str, object] = {"mover": 1, "viewer": viewer, "finished": True, "theme": theme_name}
    marked = board(position, "short", winner=winner, winner_label="Победа +2", **options)
    plain = board(position, "short", **options)
    winner_strip = geo.top_strip() if winner != viewer else geo.bottom_strip()
    loser_strip = geo.bottom_strip() if winner != viewer else geo.top_strip()
    # Left half of the strip: swatch, name, crown and label (the pips and score are at the right).
    left = (0, 0, WIDTH // 2, 0)

    def part(strip: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        return (left[0], strip[1] + 3, left[2], strip[3] - 3)

    assert share_near(marked, part(winner_strip), theme.accent, 30) > 0.04
    assert share_near(marked, part(winner_strip), theme.strip_active, 6) > 0.3  # the strip is lit
    assert share_near(marked, part(loser_strip), theme.accent, 30) < 0.005
    for strip in (winner_strip, loser_strip):
        assert share_near(plain, part(strip), theme.accent, 30) < 0.005


@pytest.mark.parametrize("variant", ["long", "fevga", "gulbara"])
@pytest.mark.parametrize("viewer", [0, 1])
def test_on_the_long_board_each_player_bears_off_by_its_own_home(variant: str, viewer: int) -> None:
    """The long board's homes lie in opposite corners (the bottom player's at the bottom right, the top player's at
    the top left), so the trays do too: the top player's borne-off checkers are drawn at the top left."""
    geo = board_layout(variant, WIDTH)
    top_tray, bottom_tray = geo.tray_box(True), geo.tray_box(False)
    assert top_tray[2] <= geo.left_half_x and bottom_tray[0] >= geo.right_half_x + 6 * geo.point_width
    home_of_top = geo.half_box(False)  # the top player's home, points 13..18 of the viewer's frame
    assert top_tray[1] == home_of_top[1]
    position = Position(make_side({1: 4}), make_side({2: 5}))  # 11 and 10 borne off
    image = board(position, variant, mover=0, viewer=viewer)
    empty = background("classic", WIDTH, split_trays=True)
    for top in (True, False):
        slab = geo.slab_box(top, 0)
        centre = ((slab[0] + slab[2]) // 2, (slab[1] + slab[3]) // 2)
        assert pixel(image, centre) != pixel(empty, centre)
    assert layout(WIDTH).tray_box(True)[0] == layout(WIDTH).tray_box(False)[0]  # the short board keeps one column
    # An owned cube stays by its owner's tray: the top player's under the top-left one.
    for owner_top in (True, False):
        x, y = geo.cube_center(owner_top)
        tray = geo.tray_box(owner_top)
        assert tray[0] <= x < tray[2]
        assert (y > tray[3]) if owner_top else (y < tray[1])
    cube = board(position, variant, mover=0, viewer=viewer, show_cube=True, cube_value=2, cube_owner=1 - viewer)
    centre = geo.cube_center(True)
    probe = (centre[0] - geo.cube // 20, centre[1] + int(geo.cube * 0.3))
    assert distance(pixel(cube, probe), get_theme("classic").cube_body) <= 10


@pytest.mark.parametrize("theme_name", ["classic", "dark"])
def test_an_arrow_follows_a_checker_whatever_the_order_of_its_steps(theme_name: str) -> None:
    """A checker moved on in the same turn ("13/8 8/5", or the same steps listed as "8/5 13/8", as the move
    generator may give them) is one path: one arrow from where it left to where it stands, drawn alike both ways."""
    theme = get_theme(theme_name)
    geo = layout(WIDTH)
    after = Position(make_side({24: 2, 13: 4, 8: 3, 6: 5, 5: 1}), make_side({24: 2, 13: 5, 8: 3, 6: 5}))
    options: dict[str, object] = {"mover": 1, "viewer": 0, "last_move_player": 0, "theme": theme_name}
    ordered = board(Position(after.opp, after.me), "short", last_move=(Step(13, 8, 5), Step(8, 5, 3)), **options)
    reversed_ = board(Position(after.opp, after.me), "short", last_move=(Step(8, 5, 3), Step(13, 8, 5)), **options)
    assert ordered.tobytes() == reversed_.tobytes()
    start, end = geo.checker_center(13, 4), geo.checker_center(5, 0)  # the freed slot on 13, the checker on 5
    middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    assert distance(pixel(ordered, middle), theme.last_move) <= 40
    plain = board(Position(after.opp, after.me), "short", mover=1, viewer=0, theme=theme_name)
    assert distance(pixel(plain, middle), theme.last_move) > 60
