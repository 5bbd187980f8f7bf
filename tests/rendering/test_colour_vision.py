"""Colour alone never carries meaning on the board: its markers and points stay apart for players with protanopia,
deuteranopia and tritanopia (measured as a colour distance on simulated colours, not judged by eye), and each
marker has a shape of its own (tested with the pixels in test_render_pixels)."""

from __future__ import annotations

from itertools import combinations

import pytest
from PIL import Image
from render_helpers import decode

from nardy.move import Step
from nardy.position import Position, make_side
from rendering import render_board
from rendering.colour_vision import DEFICIENCIES, RGB, contrast, distance, simulate, simulate_image
from rendering.layout import layout
from rendering.theme import get_theme, theme_names

MARKERS_APART = 40.0
"""The least ΔE between two markers' colours, in normal vision and under each deficiency (10 is plainly different)."""
POINTS_APART = 20.0
POINT_CONTRAST = 1.8


def seen_apart(first: RGB, second: RGB) -> float:
    """Return the least distance between two colours as anyone sees them (normal vision and each deficiency)."""
    return min([distance(first, second)] + [distance(simulate(first, d), simulate(second, d)) for d in DEFICIENCIES])


def test_the_simulation_keeps_greys_and_merges_red_and_green_for_the_red_green_blind() -> None:
    for grey in ((0, 0, 0), (128, 128, 128), (255, 255, 255)):
        for deficiency in DEFICIENCIES:
            assert distance(simulate(grey, deficiency), grey) < 3
    red, green = (200, 60, 40), (90, 130, 40)
    assert distance(red, green) > 50
    assert distance(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < 15
    yellow, pink = (255, 255, 0), (250, 230, 230)
    assert distance(yellow, pink) > 90
    assert distance(simulate(yellow, "tritanopia"), simulate(pink, "tritanopia")) < 15
    with pytest.raises(ValueError, match="unknown colour-vision deficiency"):
        simulate(red, "achromatopsia")  # type: ignore[arg-type]


@pytest.mark.parametrize("theme_name", theme_names())
def test_the_markers_colours_stay_apart_for_every_player(theme_name: str) -> None:
    theme = get_theme(theme_name)
    markers = {"last move": theme.last_move, "steps in progress": theme.pending, "hit": theme.hit}
    for (a, first), (b, second) in combinations(markers.items(), 2):
        assert seen_apart(first, second) >= MARKERS_APART, f"{theme_name}: {a} and {b}"


@pytest.mark.parametrize("theme_name", theme_names())
def test_the_two_point_colours_differ_in_lightness_too(theme_name: str) -> None:
    theme = get_theme(theme_name)
    assert seen_apart(theme.point_a, theme.point_b) >= POINTS_APART
    assert contrast(theme.point_a, theme.point_b) >= POINT_CONTRAST


def nearest(image: Image.Image, box: tuple[int, int, int, int], colour: RGB) -> tuple[int, int]:
    """Return the pixel of ``box`` nearest in colour to ``colour``."""
    return min(
        ((x, y) for x in range(box[0], box[2]) for y in range(box[1], box[3])),
        key=lambda xy: distance(image.getpixel(xy), colour),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("theme_name", theme_names())
def test_drawn_rings_of_a_hit_and_of_the_last_move_stay_apart_through_the_simulation(theme_name: str) -> None:
    """The drawn board (antialiased, over checkers) is simulated as a whole; the ring of a hit and the ring of a
    plain last move, found where they are drawn, keep their distance under protanopia and deuteranopia."""
    theme = get_theme(theme_name)
    width = 960
    geo = layout(width)
    half = geo.checker // 2

    def ring_pixel(image: Image.Image, centre: tuple[int, int], colour: RGB) -> tuple[int, int]:
        box = (centre[0] - half, centre[1] - half, centre[0] + half, centre[1] + half)
        found = nearest(image, box, colour)
        assert distance(image.getpixel(found), colour) < 25  # type: ignore[arg-type]
        return found

    # Player 0 hits on its 7 with 13/7* (a step in progress); elsewhere player 0's last move 13/8 lands on a stack.
    hitting = Position(make_side({24: 2, 13: 4, 8: 3, 7: 1, 6: 5}), make_side({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}))
    hit = decode(
        render_board(
            hitting,
            "short",
            mover=0,
            viewer=0,
            pending_steps=(Step(13, 7, 6, hit=True),),
            theme=theme_name,
            width=width,
            fmt="png",
        )
    )
    landed = Position(make_side({24: 2, 13: 5, 8: 3, 6: 5}), make_side({24: 2, 13: 4, 8: 4, 6: 5}))
    last = decode(
        render_board(
            landed,
            "short",
            mover=1,
            viewer=0,
            last_move=(Step(13, 8, 5),),
            last_move_player=0,
            theme=theme_name,
            width=width,
            fmt="png",
        )
    )
    hit_at = ring_pixel(hit, geo.checker_center(7, 0), theme.hit)
    ring_at = ring_pixel(last, geo.checker_center(8, 3), theme.last_move)
    for deficiency in ("protanopia", "deuteranopia"):
        hit_seen = simulate_image(hit, deficiency).getpixel(hit_at)
        ring_seen = simulate_image(last, deficiency).getpixel(ring_at)
        assert distance(hit_seen, ring_seen) >= MARKERS_APART * 0.75, deficiency  # type: ignore[arg-type]
