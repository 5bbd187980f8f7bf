"""Player names: any Unicode a Telegram user can choose draws on one line, and never makes a board fail."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy.position import Position, make_side
from rendering import render_board_image, theme_names
from rendering.names import MAX_NAME_LENGTH, PLACEHOLDER, drawable_name
from rendering.sprites import text
from rendering.text_fonts import covers, table
from rendering.text_layout import raqm_available

SHORT_START = Position(make_side({24: 2, 13: 5, 8: 3, 6: 5}), make_side({24: 2, 13: 5, 8: 3, 6: 5}))
LONG_START = Position(make_side({24: 15}), make_side({24: 15}))

# Characters the shaper refused before names were cleaned: "raqm_layout() failed".
SHAPER_KILLERS = ["\n", "\r", "\x1c", "\x1d", "\x1e", "\x85", "\u2029"]
ANY_NAME = st.text(st.characters(exclude_categories=["Cs"]), max_size=80)


@pytest.mark.skipif(not raqm_available(), reason="only the raqm shaper refuses them")
@pytest.mark.parametrize("char", SHAPER_KILLERS)
def test_the_raw_shaper_refuses_these_characters(char: str) -> None:
    """The defect: drawn as they are, these names make the renderer raise."""
    with pytest.raises(RuntimeError):
        text(f"Eve{char}x", 20, (0, 0, 0), bold=True)


@pytest.mark.parametrize("char", SHAPER_KILLERS)
@pytest.mark.parametrize("variant", ["short", "long"])
def test_a_board_with_such_a_name_renders(char: str, variant: str) -> None:
    position = SHORT_START if variant == "short" else LONG_START
    image = render_board_image(position, variant, names=(f"Eve{char}x", "Bob"), width=320)
    assert image.size[0] == 320


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Eve\nAdams", "Eve Adams"),
        ("Eve\r\n\u2029Adams", "Eve Adams"),
        ("\x1c\x1d\x1e", PLACEHOLDER),
        ("  ", PLACEHOLDER),
        ("A\u200bB\u202eC\ufeff", "ABC"),  # zero-width space, right-to-left override, BOM: format characters
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # the zero-width joiner of an emoji sequence stays
        ("Анна\u00a0Б.", "Анна Б."),
        ("x" * 100, "x" * (MAX_NAME_LENGTH - 1) + "…"),
    ],
)
def test_drawable_name(name: str, expected: str) -> None:
    assert drawable_name(name) == expected


@given(ANY_NAME)
def test_drawable_names_are_one_short_clean_line(name: str) -> None:
    shown = drawable_name(name)
    assert 1 <= len(shown) <= MAX_NAME_LENGTH
    assert shown == shown.strip() and "  " not in shown
    for index, char in enumerate(shown):
        category = unicodedata.category(char)
        assert category not in ("Cc", "Cs", "Co", "Zl", "Zp"), repr(char)
        # unassigned to this Python's Unicode tables: only a newer emoji the shipped emoji font draws
        assert category != "Cn" or covers(table().emoji, char), repr(char)
        # format characters: the joiners, and tag characters that spell a subdivision flag after 🏴
        tag = 0xE0020 <= ord(char) <= 0xE007F and "\U0001f3f4" in shown[max(0, index - 8) : index]
        assert category != "Cf" or char in "\u200c\u200d" or tag, repr(char)


@settings(max_examples=40, deadline=None)
@given(
    names=st.tuples(ANY_NAME, ANY_NAME),
    theme=st.sampled_from(theme_names()),
    variant=st.sampled_from(["short", "long"]),
    finished=st.booleans(),
)
def test_any_names_render_in_both_themes_and_variants(
    names: tuple[str, str], theme: str, variant: str, finished: bool
) -> None:
    position = SHORT_START if variant == "short" else LONG_START
    image = render_board_image(position, variant, names=names, theme=theme, width=320, finished=finished)
    assert image.size[0] == 320


def test_a_finished_board_marks_nobody_to_move() -> None:
    """In a symmetric position the only difference between mover 0 and mover 1 (seen by player 0) is which strip is
    lit "to move"; once the game is finished, neither is, so the two images are the same."""
    playing = [render_board_image(SHORT_START, "short", mover=m, viewer=0, width=480) for m in (0, 1)]
    over = [render_board_image(SHORT_START, "short", mover=m, viewer=0, width=480, finished=True) for m in (0, 1)]
    assert playing[0].tobytes() != playing[1].tobytes()
    assert over[0].tobytes() == over[1].tobytes()
