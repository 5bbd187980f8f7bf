"""Digits of every Unicode kind in typed moves: decimal digits of any script (category Nd: Arabic-Indic
``٣``, fullwidth ``５``, Devanagari ``४``) are read as their digit; other number characters that ``str.isdigit``
accepts (superscripts ``²``, subscripts, circled ``①``, Ethiopic ``፪``) are refused with
``InvalidMoveError(code="not_a_digit")``; nothing a player types raises anything but the engine's typed errors."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nardy_testkit import LONG, SHORT

from nardy import InvalidMoveError, NardyError, TurnPlan, match_move, parse_segments
from nardy.errors import ILLEGAL_MOVE_CODES
from nardy.notation import MAX_TEXT

START = SHORT.initial_position()
NOT_DECIMAL = ["²", "①", "₃", "፪", "⑬", "Ⅻ", "¹³", "1²", "²⁴"]
"""Number characters (and words of them) that are not decimal digits: ``int()`` refuses every one, and ``str.isdigit``
accepts most (``²``, ``①``, ``₃``, ``፪``)."""


def typed(text: str, dice: tuple[int, int] = (5, 1)) -> str:
    return match_move(TurnPlan(SHORT, START, dice), text).notation


def test_superscript_point_is_refused_with_a_typed_reason() -> None:
    """The report: ``13/² 8/7`` raised a plain ValueError from ``int('²')`` (``'²'.isdigit()`` is True)."""
    with pytest.raises(InvalidMoveError) as info:
        typed("13/² 8/7")
    assert info.value.code == "not_a_digit"
    assert "not_a_digit" in ILLEGAL_MOVE_CODES
    assert "'²'" in str(info.value) and "decimal digit" in str(info.value)


@pytest.mark.parametrize("word", NOT_DECIMAL)
def test_other_number_characters_are_refused(word: str) -> None:
    assert any(unicodedata.category(c) in ("No", "Nl") for c in word)
    with pytest.raises(InvalidMoveError) as info:
        parse_segments(f"13/{word}")
    assert info.value.code == "not_a_digit"
    with pytest.raises(InvalidMoveError) as info:
        parse_segments(f"{word}/7")
    assert info.value.code == "not_a_digit"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("١٣/٨ ٦/٥", "13/8 6/5"),  # Arabic-Indic
        ("۱۳/۸ ۶/۵", "13/8 6/5"),  # Extended Arabic-Indic (Persian)
        ("१३/८ ६/५", "13/8 6/5"),  # Devanagari
        ("１３/８ ６/５", "13/8 6/5"),  # fullwidth
        ("1٣/8 6/5", "13/8 6/5"),  # mixed scripts in one number
        ("𝟏𝟑/𝟖 𝟔/𝟓", "13/8 6/5"),  # mathematical bold digits
    ],
)
def test_decimal_digits_of_any_script_are_read(text: str, expected: str) -> None:
    assert typed(text) == expected


def test_repeat_counts_in_other_scripts() -> None:
    assert match_move(TurnPlan(SHORT, START, (6, 6)), "24/18(٢) 13/7(２)").notation == "24/18(2) 13/7(2)"
    with pytest.raises(InvalidMoveError):
        parse_segments("13/7(²)")


def test_points_out_of_range_in_other_scripts_are_refused() -> None:
    for text in (
        "٢٥٠/7",
        "13/٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٢٥",
        "１３/７(９)",
        "13/７(٠)",
        "13/7(x)",
    ):
        with pytest.raises(InvalidMoveError):
            parse_segments(text)


# ---------------------------------------------------------------------------------------------------------------
# properties: nothing typed raises anything but the engine's typed errors

DIGITS = st.sampled_from(
    [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Nd", "No", "Nl") and c % 7 == 0]
    + list("0123456789²①٣５۳४₃⑬")
)
WORDS = st.sampled_from(["bar", "бар", "off", "борт", "in", "вв", "res", "x", "o", "b", "*", "(2)", "(٢)", "(²)"])
SEPARATORS = st.sampled_from(["/", "-", "–", "—", ">", "→", ":", " ", ",", ";", "(", ")", "*", "  /  "])
MOVE_LIKE = st.lists(
    st.one_of(st.text(DIGITS, min_size=1, max_size=3), WORDS, SEPARATORS, st.text(st.characters(), max_size=2)),
    max_size=14,
).map("".join)
ANY_TEXT = st.one_of(st.text(st.characters()), MOVE_LIKE)


@settings(max_examples=400, deadline=None)
@given(ANY_TEXT)
def test_parse_segments_raises_only_invalid_move_error(text: str) -> None:
    try:
        segments = parse_segments(text)
    except InvalidMoveError as error:
        assert error.code in ILLEGAL_MOVE_CODES
        return
    for segment in segments:
        assert all(0 <= p <= 26 for p in segment.points)
        assert 1 <= segment.count <= 4


@settings(max_examples=300, deadline=None)
@given(MOVE_LIKE, st.sampled_from([(6, 1), (5, 5), (3, 1), (4, 2)]), st.booleans())
def test_match_move_raises_only_nardy_errors(text: str, dice: tuple[int, int], long: bool) -> None:
    variant = LONG if long else SHORT
    plan = TurnPlan(variant, variant.initial_position(), dice, first_turn=long)
    try:
        move = match_move(plan, text)
    except NardyError:
        return
    assert move.position in {m.position for m in plan.moves()}


def test_too_long_text_is_refused_before_reading_digits() -> None:
    with pytest.raises(InvalidMoveError, match="too long"):
        parse_segments("٣" * (MAX_TEXT + 1))
