"""The public interface: formats, sizes, variants given by name or object, option validation, frame mapping."""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pytest
from PIL import Image, ImageChops

from nardy.move import Step
from nardy.position import Position, make_side
from nardy.variants import get_variant
from rendering import render_board, render_board_image, theme_names
from rendering.board import BoardLabels
from rendering.frames import checker_count, other_frame, variant_name
from rendering.layout import layout
from rendering.scenes import RU_BOARD_LABELS, SCENES

SHORT = make_side({24: 2, 13: 5, 8: 3, 6: 5})
OPENING = Position(SHORT, SHORT)


@dataclass(frozen=True)
class FakeVariant:
    name: str


def test_default_is_a_phone_sized_jpeg_under_200_kb() -> None:
    data = render_board(OPENING, "short", dice=(3, 1), show_cube=True, names=("Анна", "Boris"))
    assert data[:3] == b"\xff\xd8\xff"
    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG"
    assert image.width == 1280
    assert image.size == (layout(1280).width, layout(1280).height)
    assert len(data) < 200 * 1024


@pytest.mark.parametrize("theme", theme_names())
@pytest.mark.parametrize("scene", sorted(SCENES))
def test_every_gallery_scene_is_a_small_jpeg(scene: str, theme: str) -> None:
    data = SCENES[scene](theme, 1280, "jpeg")
    assert len(data) < 200 * 1024
    assert Image.open(io.BytesIO(data)).format == "JPEG"


def test_png_on_request_and_other_widths() -> None:
    data = render_board(OPENING, "short", fmt="png", width=640)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.size == (640, layout(640).height)


def test_variant_object_with_a_name() -> None:
    by_name = render_board_image(Position(make_side({24: 15}), make_side({24: 15})), "long", width=480)
    by_object = render_board_image(Position(make_side({24: 15}), make_side({24: 15})), FakeVariant("long"), width=480)
    assert by_name.tobytes() == by_object.tobytes()


def test_engine_variant_objects_are_accepted() -> None:
    variants = pytest.importorskip("nardy.variants")
    assert variant_name(variants.get_variant("long")) == "long"
    assert variant_name(variants.get_variant("short")) == "short"


def test_variants_on_the_short_board() -> None:
    """The opposite variants of docs/rules.md §6 are drawn on the short-nardy board, the parallel ones on the long-nardy
    board; Hypergammon has 3 checkers; a variant's board differs from the main game's only by its title."""
    for name in ("hypergammon", "гипергаммон", "nackgammon", "portes", "поддавки", "misere"):
        assert variant_name(name) == "short"
    for name in ("plakoto", "плакото", "acey_deucey", "dutch"):
        assert variant_name(name) == "short"
    for name in ("fevga", "февга", "gulbara", "гюльбара"):
        assert variant_name(name) == "long"
    assert [checker_count(n) for n in ("short", "long", "hypergammon", "portes")] == [15, 15, 3, 15]
    assert checker_count(FakeVariant("long")) == 15
    with pytest.raises(ValueError, match="unknown nardy variant"):
        variant_name("chess")
    hyper = Position(make_side({24: 1, 23: 1, 22: 1}), make_side({24: 1, 23: 1, 22: 1}))
    as_hyper = render_board_image(hyper, "hypergammon", width=480)
    as_short = render_board_image(hyper, "short", width=480)  # the same checkers, but 12 a side borne off
    assert as_hyper.size == as_short.size and as_hyper.tobytes() != as_short.tobytes()
    nack = Position(make_side({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}), make_side({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}))
    as_nack = render_board_image(nack, "nackgammon", width=480)
    as_short = render_board_image(nack, "short", width=480)
    changed = ImageChops.difference(as_nack, as_short).getbbox()
    title = layout(480).title_box(False)  # the mover at the bottom: the title in the left half
    assert changed is not None, "Nackgammon's board carries its title"
    assert title[0] <= changed[0] and title[1] <= changed[1] and changed[2] <= title[2] and changed[3] <= title[3]
    with pytest.raises(ValueError, match="at most 3"):
        render_board_image(Position(make_side({24: 4}), make_side({24: 3})), "hypergammon", width=480)


def test_frame_mapping() -> None:
    assert other_frame(24, "long") == 12
    assert other_frame(12, "long") == 24
    assert other_frame(1, "long") == 13
    assert other_frame(24, "short") == 1
    for variant in ("short", "long"):
        assert all(other_frame(other_frame(p, variant), variant) == p for p in range(1, 25))  # type: ignore[arg-type]


def test_themes() -> None:
    assert theme_names()[0] == "classic"
    assert len(theme_names()) >= 2
    classic = render_board_image(OPENING, "short", width=480, theme="classic")
    dark = render_board_image(OPENING, "short", width=480, theme="dark")
    assert classic.tobytes() != dark.tobytes()


def test_spectator_sees_the_side_to_move_at_the_bottom() -> None:
    me = make_side({24: 13, 10: 2})
    opp = make_side({24: 14, 7: 1})
    spectator = render_board_image(Position(me, opp), "long", mover=1, width=480)
    player1 = render_board_image(Position(me, opp), "long", mover=1, viewer=1, width=480)
    assert spectator.tobytes() == player1.tobytes()


@pytest.mark.parametrize(
    "options",
    [
        {"mover": 2},
        {"viewer": -1},
        {"dice": (0, 3)},
        {"dice": (3, 1), "used_dice": (5,)},
        {"dice": (3, 1), "used_dice": (3, 3)},
        {"used_dice": (3,)},
        {"cube_value": 0},
        {"cube_owner": 3},
        {"theme": "neon"},
        {"width": 100},
        {"fmt": "gif"},
        {"quality": 0},
        {"pending_steps": (Step(30, 3, 1),)},
        {"winner": 2},
        {"winner_label": "Winner +1"},
    ],
)
def test_bad_options_raise_value_error(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        render_board(OPENING, "short", **options)  # type: ignore[arg-type]


def test_bad_positions_raise_value_error() -> None:
    with pytest.raises(ValueError):
        render_board(OPENING, "backgammon-ish")
    with pytest.raises(ValueError):
        render_board(Position(SHORT[:24], SHORT), "short")
    with pytest.raises(ValueError):  # both players on the mover's point 6 (the opponent's 19)
        render_board(Position(make_side({6: 15}), make_side({19: 15})), "short")


def test_names_may_be_long_or_empty() -> None:
    image = render_board_image(OPENING, "short", names=("Ж" * 200, ""), width=480)
    assert image.width == 480


def test_the_board_draws_the_callers_words() -> None:
    """The captions and a variant's title come from the caller (the bot's catalogue); the defaults are English."""
    english = render_board_image(OPENING, "short", width=480)
    assert render_board_image(OPENING, "short", width=480, labels=BoardLabels()).tobytes() == english.tobytes()
    russian = render_board_image(OPENING, "short", width=480, labels=RU_BOARD_LABELS)
    assert russian.tobytes() != english.tobytes()
    plakoto = get_variant("plakoto").initial_position()
    default = render_board_image(plakoto, "plakoto", width=480)
    assert render_board_image(plakoto, "plakoto", width=480, title="Plakoto").tobytes() == default.tobytes()
    assert render_board_image(plakoto, "plakoto", width=480, title="Плакото").tobytes() != default.tobytes()
    # the two main games show no title, whatever the caller passes
    assert render_board_image(OPENING, "short", width=480, title="Короткие").tobytes() == english.tobytes()


@pytest.mark.parametrize("theme", theme_names())
def test_default_board_jpeg_is_small_and_close_to_the_drawing(theme: str) -> None:
    """Board photos: at 1280 px one was 130-165 KB (libjpeg quality 85). The board's own tables make a busy
    board (long names, marks, cube, score) at least 28 % smaller than quality 85, with the decoded image still
    within 3 levels per channel on average of the drawing and no more than 0.5 % of its pixels off by over 48 (0.6 %
    in the dark theme since the last move's arrows: their dark contours on the dark felt are what JPEG blurs most;
    measured 0.54 % there, 0.06 % in the classic theme)."""
    before = SCENES["encoding_before_q85"](theme, 1280, "jpeg")
    after = SCENES["encoding_after"](theme, 1280, "jpeg")
    assert len(after) <= 0.72 * len(before), (len(after), len(before))
    drawn = np.asarray(Image.open(io.BytesIO(SCENES["encoding_after"](theme, 1280, "png"))).convert("RGB"), np.int16)
    decoded = np.asarray(Image.open(io.BytesIO(after)).convert("RGB"), dtype=np.int16)
    diff = np.abs(drawn - decoded)
    assert float(diff.mean()) <= 3.0
    assert float((diff.max(axis=2) > 48).mean()) <= (0.006 if theme == "dark" else 0.005)
    assert len(render_board(OPENING, "short", dice=(3, 1), show_cube=True, theme=theme)) <= 100 * 1024
