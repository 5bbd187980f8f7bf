"""The variants of docs/rules.md §6 on the board: reserves, pinned checkers, titles, boards by geometry, a scene and a
golden for each. Coordinates come from :mod:`rendering.layout`, colours from :mod:`rendering.theme`."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops
from render_helpers import decode, distance, drawn_boards, pixel, share_near
from test_render_golden import CASES

from nardy.move import RESERVE_POINT, Step
from nardy.position import Position, make_side
from nardy.variants import get_variant, registered_variants
from rendering import render_board, render_board_image
from rendering.background import background
from rendering.board import board_layout
from rendering.frames import variant_info
from rendering.layout import RESERVE_STEP, layout
from rendering.scenes import pinned_side, reserve_side
from rendering.theme import get_theme

WIDTH = 960
TOLERANCE = 14
Box = tuple[int, int, int, int]


def board(position: Position, variant: str, **options: Any) -> Image.Image:
    options.setdefault("width", WIDTH)
    return decode(render_board(position, variant, fmt="png", **options))


def around(centre: tuple[int, int], half: int) -> Box:
    return (centre[0] - half, centre[1] - half, centre[0] + half, centre[1] + half)


def inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def scene_variants() -> dict[str, list[tuple[Position, str]]]:
    """Return, per scene, the positions and variants it renders."""
    found: dict[str, list[tuple[Position, str]]] = {}
    for drawn in drawn_boards():
        found.setdefault(drawn.scene, []).append((drawn.position, drawn.variant))
    return found


# -- scenes and goldens ----------------------------------------------------------------------------------------------


def test_every_variant_has_a_scene_with_a_legal_position_and_a_golden() -> None:
    used = scene_variants()
    by_variant: dict[str, set[str]] = {}
    for scene, renders in used.items():
        for position, variant in renders:
            engine = get_variant(variant)
            engine.validate(position)  # every scene shows a position the engine accepts
            by_variant.setdefault(engine.name, set()).add(scene)
    golden_scenes = {scene for _, scene in CASES}
    for variant in registered_variants():
        assert by_variant.get(variant.name), f"no scene draws {variant.name}"
        assert by_variant[variant.name] & golden_scenes, f"no golden image of {variant.name}"


def test_the_goldens_cover_pins_the_mother_reserves_and_the_bar_with_a_reserve() -> None:
    golden_scenes = {scene for _, scene in CASES}
    used = scene_variants()
    pinned = mother = reserve = bar_and_reserve = False
    for scene in golden_scenes:
        for position, variant in used.get(scene, []):
            info = variant_info(variant)
            for side in (position.me, position.opp):
                if info.layout == "pinned" and any(side[25:]):
                    pinned = True
                    mother = mother or bool(side[25 + 23])
                if info.layout == "reserve" and side[25]:
                    reserve = True
                    bar_and_reserve = bar_and_reserve or bool(side[24])
    assert pinned and mother and reserve and bar_and_reserve


# -- boards and titles -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "board_name", "checkers", "side_length"),
    [
        ("short", "short", 15, 25),
        ("long", "long", 15, 25),
        ("hypergammon", "short", 3, 25),
        ("nackgammon", "short", 15, 25),
        ("portes", "short", 15, 25),
        ("misere", "short", 15, 25),
        ("plakoto", "short", 15, 49),
        ("acey_deucey", "short", 15, 26),
        ("dutch", "short", 15, 26),
        ("fevga", "long", 15, 25),
        ("gulbara", "long", 15, 25),
    ],
)
def test_variant_info(name: str, board_name: str, checkers: int, side_length: int) -> None:
    info = variant_info(name)
    assert (info.board, info.checkers, info.side_length) == (board_name, checkers, side_length)
    engine = get_variant(name)
    if name in ("short", "long"):
        assert info.title("en") == info.title("ru") == ""
    else:
        english, russian = info.title("en"), info.title("ru")
        assert english.casefold() == engine.titles["en"].casefold() and english[0].isupper()
        assert russian.casefold() == engine.titles["ru"].casefold() and russian[0].isupper()
        assert info.title("de") == english


@pytest.mark.parametrize("viewer", [0, 1])
def test_title_on_the_felt_opposite_the_dice(viewer: int) -> None:
    """The variant's name is printed in the middle of the half on the mover's left; the main games carry none."""
    start = make_side({24: 2, 13: 5, 8: 3, 6: 5})
    position = Position(start, start)
    geo = layout(WIDTH)
    mover_top = viewer != 0
    plain = board(position, "short", viewer=viewer, dice=(3, 1))
    portes = board(position, "portes", viewer=viewer, dice=(3, 1))
    title = geo.title_box(mover_top)
    changed = ImageChops.difference(plain, portes).getbbox()
    assert changed is not None and inside(changed, title)
    text = get_theme("classic").felt_text
    assert share_near(portes, title, text, 60) > 0.01
    assert plain.crop(title).tobytes() == background("classic", WIDTH).crop(title).tobytes()


def test_parallel_variants_draw_on_the_long_board() -> None:
    me = make_side({24: 13, 18: 1, 11: 1})
    opp = make_side({24: 14, 16: 1})
    for name in ("fevga", "gulbara"):
        image = board(Position(me, opp), name)
        long_image = board(Position(me, opp), "long")
        changed = ImageChops.difference(image, long_image).getbbox()
        assert changed is not None and inside(changed, board_layout("long", WIDTH).title_box(False)), name


def test_hypergammon_trays_count_three_checkers() -> None:
    theme = get_theme("classic")
    image = board(Position(make_side({5: 1}), make_side({25: 1, 21: 1, 9: 1})), "hypergammon")
    geo = layout(WIDTH)
    for index in (0, 1):  # two of the mover's three are off; the opponent has none off
        left, upper, right, lower = geo.slab_box(False, index)
        assert distance(pixel(image, ((left + right) // 2, (upper + lower) // 2 + 1)), theme.checkers[0].body) <= 40
    left, upper, right, lower = geo.slab_box(False, 2)
    assert distance(pixel(image, ((left + right) // 2, (upper + lower) // 2)), theme.tray) <= 30
    left, upper, right, lower = geo.slab_box(True, 0)
    assert distance(pixel(image, ((left + right) // 2, (upper + lower) // 2)), theme.tray) <= 30


# -- reserves --------------------------------------------------------------------------------------------------------


def test_reserve_layout_keeps_the_width_and_adds_trays_at_the_left() -> None:
    plain, reserve = layout(WIDTH), layout(WIDTH, True)
    assert plain.reserve_x is None and reserve.reserve_x is not None
    assert reserve.width == WIDTH and reserve.point_width < plain.point_width
    left, right = reserve.reserve_x
    assert 0 <= left < right < reserve.left_half_x
    assert reserve.tray_x[1] <= WIDTH
    for top in (True, False):
        box = reserve.reserve_box(top)
        assert box[3] - box[1] == reserve.tray_height
        first = reserve.reserve_checker_center(top, 0)
        last = reserve.reserve_checker_center(top, 14)
        for x, y in (first, last):  # a full pile of 15 stays in its tray
            assert box[0] <= x - reserve.checker // 2 and x + reserve.checker // 2 <= box[2]
            assert box[1] <= y - reserve.checker // 2 and y + reserve.checker // 2 <= box[3]
    with pytest.raises(ValueError, match="no reserve"):
        plain.reserve_box(True)


@pytest.mark.parametrize("variant", ["acey_deucey", "dutch"])
@pytest.mark.parametrize("viewer", [0, 1])
def test_reserves_are_piles_with_their_counts(variant: str, viewer: int) -> None:
    theme = get_theme("classic")
    me = reserve_side({25: 1, 22: 2, 13: 3}, 9)
    opp = reserve_side({20: 1}, 14)
    image = board(Position(me, opp), variant, mover=0, viewer=viewer)
    geo = layout(WIDTH, True)
    empty = background("classic", WIDTH, True)
    assert image.size == (WIDTH, geo.height)
    for player, count in ((0, 9), (1, 14)):
        top = player != viewer
        body = theme.checkers[player].body
        first = geo.reserve_checker_center(top, 0)
        assert distance(pixel(image, first), body) <= 40
        last = geo.reserve_checker_center(top, count - 1)
        # the count is written on the outermost checker of the pile, in the player's text colour
        assert share_near(image, around(last, geo.checker // 4), theme.checkers[player].text, 60) > 0.08
        beyond = geo.reserve_checker_center(top, count - 1 + round(0.75 / RESERVE_STEP))
        assert pixel(image, beyond) == pixel(empty, beyond)
        for index in (0, 5, 14):  # the bear-off tray is untouched: nothing borne off
            slab = geo.slab_box(top, index)
            centre = ((slab[0] + slab[2]) // 2, (slab[1] + slab[3]) // 2)
            assert pixel(image, centre) == pixel(empty, centre)
    mover_top = viewer != 0
    assert distance(pixel(image, geo.bar_checker_center(mover_top, 0)), theme.checkers[0].body) <= TOLERANCE


def test_empty_reserve_trays_stay_empty() -> None:
    image = board(Position(reserve_side({6: 15}, 0), reserve_side({6: 15}, 0)), "acey_deucey")
    geo = layout(WIDTH, True)
    empty = background("classic", WIDTH, True)
    for top in (True, False):
        box = geo.reserve_box(top)
        assert image.crop(box).tobytes() == empty.crop(box).tobytes()


def test_entering_from_the_reserve_outlines_it_and_rings_the_entered_checker() -> None:
    theme = get_theme("classic")
    me = reserve_side({22: 1}, 14)
    opp = reserve_side({}, 15)
    plain = board(Position(me, opp), "acey_deucey", dice=(3, 1), used_dice=(3,))
    image = board(
        Position(me, opp), "acey_deucey", dice=(3, 1), used_dice=(3,), pending_steps=(Step(RESERVE_POINT, 22, 3),)
    )
    geo = layout(WIDTH, True)
    box = geo.reserve_box(False)
    assert share_near(image, box, theme.pending, 30) > share_near(plain, box, theme.pending, 30) + 0.01
    arrived = around(geo.checker_center(22, 0), geo.checker // 2)
    assert share_near(image, arrived, theme.pending) > 0.1
    with pytest.raises(ValueError, match=r"outside 0\.\.25"):
        render_board(Position(make_side({6: 15}), make_side({6: 15})), "short", pending_steps=(Step(26, 22, 3),))


def test_reserve_sides_must_have_the_variant_length() -> None:
    with pytest.raises(ValueError, match="26 non-negative counts"):
        render_board(Position(make_side({6: 15}), make_side({6: 15})), "dutch")
    with pytest.raises(ValueError, match="25 non-negative counts"):
        render_board(Position(reserve_side({}, 15), reserve_side({}, 15)), "short")
    with pytest.raises(ValueError, match="at most 15"):
        render_board(Position(reserve_side({6: 1}, 15), reserve_side({}, 15)), "acey_deucey")


# -- Plakoto's pinned checkers ---------------------------------------------------------------------------------------


def pinned_position() -> Position:
    """The mover's checker pinned on its 8 under one opponent checker; two of the mover's over the opponent's
    pinned on the mover's 19 (the opponent's 6)."""
    me = pinned_side({24: 10, 19: 2, 13: 2}, pinned=(8,))
    opp = pinned_side({24: 12, 17: 1, 11: 1}, pinned=(6,))
    return Position(me, opp)


@pytest.mark.parametrize("viewer", [0, 1])
def test_pinned_checker_lies_under_its_pinners_with_a_padlock(viewer: int) -> None:
    theme = get_theme("classic")
    image = board(pinned_position(), "plakoto", mover=0, viewer=viewer)
    geo = layout(WIDTH)

    def view(point: int, player: int) -> int:
        return point if player == viewer else 25 - point

    for point, pinned, pinner, pinners in ((view(8, 0), 0, 1, 1), (view(19, 0), 1, 0, 2)):
        base = geo.checker_center(point, 0)
        toward_centre = 1 if geo.is_top(point) else -1
        beside = (base[0] + geo.checker // 5, base[1])  # the part of the pinned checker its pinner leaves bare
        assert distance(pixel(image, beside), theme.checkers[pinned].body) <= 40, (point, pinned)
        for index in range(1, pinners + 1):
            centre = geo.checker_center(point, index, pinned=True)
            assert distance(pixel(image, centre), theme.checkers[pinner].body) <= TOLERANCE, (point, index)
        first = geo.checker_center(point, 1, pinned=True)
        assert 0 < (first[1] - base[1]) * toward_centre < geo.checker  # the pinner overlaps the pinned checker
        above = geo.checker_center(point, pinners + 1, pinned=True)
        assert pixel(image, above) == pixel(background("classic", WIDTH), above)
        badge = (base[0], base[1] - toward_centre * geo.checker // 4)
        assert share_near(image, around(badge, geo.checker // 6), theme.hit, 50) > 0.25


def test_a_pinned_stack_counts_the_pinners_only() -> None:
    theme = get_theme("classic")
    me = pinned_side({24: 8, 19: 7})
    opp = pinned_side({24: 14}, pinned=(6,))
    image = board(Position(me, opp), "plakoto")
    geo = layout(WIDTH)
    top = geo.checker_center(19, 4, pinned=True)  # pinned + 4 pinners shown, then "7" on the top one
    assert share_near(image, around(top, geo.checker // 4), theme.checkers[0].text, 60) > 0.08


def test_a_pin_rings_the_pinner_and_not_the_bar() -> None:
    theme = get_theme("classic")
    position = pinned_position()
    plain = board(position, "plakoto", last_move=(Step(23, 17, 6, hit=True),), last_move_player=1)
    geo = layout(WIDTH)
    pinner = geo.checker_center(8, 1, pinned=True)
    assert share_near(plain, around(pinner, geo.checker // 2), theme.hit) > 0.1
    bar = around(geo.bar_checker_center(False, 0), geo.checker // 2)
    assert plain.crop(bar).tobytes() == background("classic", WIDTH).crop(bar).tobytes()


@pytest.mark.parametrize(
    ("me", "opp", "message"),
    [
        (pinned_side({24: 14}, pinned=(8,)), pinned_side({24: 15}), "no pinner"),
        (pinned_side({24: 13, 8: 1}, pinned=(8,)), pinned_side({24: 14, 17: 1}), "also free checkers"),
        (pinned_side({24: 13, 8: 2}), pinned_side({24: 14, 17: 1}), "both players"),
        ((*make_side({24: 13}), *([0] * 7), 2, *([0] * 16)), pinned_side({24: 15}), "pinned flag"),
        (make_side({24: 15}), make_side({24: 15}), "49 non-negative counts"),
    ],
)
def test_malformed_plakoto_positions_raise(me: tuple[int, ...], opp: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_board_image(Position(me, opp), "plakoto", width=480)


# -- dice ------------------------------------------------------------------------------------------------------------


def test_dice_count_draws_fewer_dice_of_a_double() -> None:
    """A Gul bara hand-over may pass fewer than four moves of a double: as many dice are drawn."""
    theme = get_theme("classic")
    start = make_side({24: 15})
    image = board(Position(start, start), "gulbara", dice=(5, 5), dice_count=2, used_dice=(5,))
    geo = board_layout("gulbara", WIDTH)
    two = geo.dice_centers(2, right=True)
    four = geo.dice_centers(4, right=True)
    assert distance(pixel(image, two[1]), theme.die_pip) <= 20  # a five's centre pip, unused
    assert pixel(image, four[0]) == pixel(background("classic", WIDTH, split_trays=True), four[0])
    for options in ({"dice": (5, 5), "dice_count": 5}, {"dice": (5, 3), "dice_count": 1}, {"dice_count": 2}):
        with pytest.raises(ValueError, match="dice_count"):
            render_board(Position(start, start), "gulbara", **options)  # type: ignore[arg-type]
