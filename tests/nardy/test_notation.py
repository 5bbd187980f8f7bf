"""Move notation (docs/rules.md §5): canonical output, forgiving input, and the typed errors of match_move."""

from __future__ import annotations

import pytest
from nardy_testkit import LONG, SHORT, game_turns, pos

from nardy import (
    AmbiguousMoveError,
    IllegalMoveError,
    IncompleteMoveError,
    InvalidMoveError,
    Position,
    Step,
    TurnPlan,
    format_steps,
    legal_moves,
    match_move,
    parse_segments,
)
from nardy.notation import MAX_TEXT

START = SHORT.initial_position()
BAR_POSITION = pos({25: 1, 13: 14}, {19: 15})
BEAR_POSITION = pos({6: 2, 5: 2}, {19: 15})
# an opponent blot on our 7 (its 18), our 12 empty: 13/6 with 6-1 may or may not hit on the way
BLOT_POSITION = pos({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 18: 1, 11: 4, 9: 3, 6: 5})


def typed(position: Position, dice: tuple[int, int], text: str, variant: object = SHORT, first_turn: bool = False):
    return match_move(TurnPlan(variant, position, dice, first_turn=first_turn), text)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------------------
# canonical output


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ((Step(13, 7, 6), Step(8, 7, 1)), "13/7 8/7"),
        ((Step(8, 7, 1), Step(13, 7, 6)), "13/7 8/7"),
        ((Step(8, 5, 3), Step(6, 5, 1)), "8/5 6/5"),
        ((Step(25, 22, 3),), "bar/22"),
        ((Step(25, 22, 3, True), Step(13, 12, 1)), "bar/22* 13/12"),
        ((Step(6, 0, 6),), "6/off"),
        ((Step(3, 0, 6), Step(2, 0, 5)), "3/off 2/off"),
        ((Step(24, 18, 6, True),), "24/18*"),
        ((Step(24, 18, 6), Step(18, 13, 5)), "24/18/13"),
        ((Step(24, 18, 6, True), Step(18, 13, 5)), "24/18*/13"),
        ((Step(13, 7, 6), Step(13, 7, 6)), "13/7(2)"),
        ((Step(13, 7, 6), Step(24, 18, 6), Step(13, 7, 6), Step(24, 18, 6)), "24/18(2) 13/7(2)"),
        ((Step(24, 18, 6), Step(18, 12, 6), Step(24, 18, 6), Step(18, 12, 6)), "24/18/12(2)"),
        ((Step(6, 4, 2), Step(4, 2, 2), Step(2, 0, 2), Step(6, 4, 2)), "6/4 6/4/2/off"),
        ((), ""),
    ],
)
def test_format_steps(steps: tuple[Step, ...], text: str) -> None:
    assert format_steps(steps) == text


def test_rules_examples_are_listed_canonically() -> None:
    assert "13/7 8/7" in {m.notation for m in legal_moves(SHORT, START, (6, 1))}
    assert "8/5 6/5" in {m.notation for m in legal_moves(SHORT, START, (3, 1))}
    assert {m.notation for m in legal_moves(SHORT, START, (6, 6))} >= {"24/18(2) 13/7(2)", "13/7(4)"}
    assert {m.notation for m in legal_moves(SHORT, START, (6, 5))} >= {"24/18/13", "24/18 13/8"}
    assert {m.notation for m in legal_moves(SHORT, BEAR_POSITION, (6, 5))} == {"6/off 5/off", "6/1 6/off"}


def test_move_str_is_its_notation() -> None:
    for move in legal_moves(SHORT, START, (4, 2)):
        assert str(move) == move.notation
        assert move.notation == format_steps(move.steps)


# ---------------------------------------------------------------------------------------------------------------
# forgiving input


@pytest.mark.parametrize(
    ("position", "dice", "text", "expected"),
    [
        (START, (6, 1), "13/7 8/7", "13/7 8/7"),
        (START, (6, 1), "8/7 13/7", "13/7 8/7"),
        (START, (6, 1), "13-7 8-7", "13/7 8/7"),
        (START, (6, 1), "13 7 8 7", "13/7 8/7"),
        (START, (6, 1), "13-7, 8-7", "13/7 8/7"),
        (START, (6, 1), "  13 / 7    8 / 7  ", "13/7 8/7"),
        (START, (6, 1), "13–7 8—7", "13/7 8/7"),
        (START, (3, 1), "8/5 6/5", "8/5 6/5"),
        (START, (3, 1), "6/5 8/5", "8/5 6/5"),
        (START, (3, 1), "8/4", "8/5/4"),
        (START, (6, 6), "24/18(2) 13/7(2)", "24/18(2) 13/7(2)"),
        (START, (6, 6), "13/7(2) 24/18 24/18", "24/18(2) 13/7(2)"),
        (BAR_POSITION, (3, 1), "bar/22 13/12", "bar/22 13/12"),
        (BAR_POSITION, (3, 1), "BAR/22 13/12", "bar/22 13/12"),
        (BAR_POSITION, (3, 1), "Bar-22 13-12", "bar/22 13/12"),
        (BAR_POSITION, (3, 1), "бар/22 13/12", "bar/22 13/12"),
        (BAR_POSITION, (3, 1), "БАР/22 13/12", "bar/22 13/12"),
        (BAR_POSITION, (3, 1), "25/22 13/12", "bar/22 13/12"),
        (BAR_POSITION, (3, 1), "25 22 13 12", "bar/22 13/12"),
        (BAR_POSITION, (3, 1), "bаr/22 13/12", "bar/22 13/12"),  # Cyrillic а
        (BAR_POSITION, (3, 1), "ВАR/22 13/12", "bar/22 13/12"),  # Cyrillic В and А
        (BAR_POSITION, (3, 1), "bar/21", "bar/22/21"),
        (BEAR_POSITION, (6, 5), "6/off 5/off", "6/off 5/off"),
        (BEAR_POSITION, (6, 5), "6/OFF 5/Off", "6/off 5/off"),
        (BEAR_POSITION, (6, 5), "6/0 5/0", "6/off 5/off"),
        (BEAR_POSITION, (6, 5), "6 0 5 0", "6/off 5/off"),
        (BEAR_POSITION, (6, 5), "6 off 5 off", "6/off 5/off"),
        (BEAR_POSITION, (6, 5), "6/борт 5/борт", "6/off 5/off"),
        (BEAR_POSITION, (6, 5), "6/БОРТ 5/Борт", "6/off 5/off"),
        (BEAR_POSITION, (6, 5), "6/оff 5/оff", "6/off 5/off"),  # Cyrillic о
        (BEAR_POSITION, (6, 5), "6/ОFF 5/OFF", "6/off 5/off"),  # Cyrillic О
        (BLOT_POSITION, (6, 1), "13/7*/6", "13/7*/6"),
        (BLOT_POSITION, (6, 1), "13/7/6", "13/7*/6"),  # the hit mark may be left out when only a hit fits
        (BLOT_POSITION, (6, 1), "13/12/6", "13/12/6"),
        (BLOT_POSITION, (6, 1), "13/7 7/6", "13/7*/6"),
        (BLOT_POSITION, (6, 1), "13/7* 8/7", "13/7* 8/7"),
    ],
)
def test_forgiving_input(position: Position, dice: tuple[int, int], text: str, expected: str) -> None:
    move = typed(position, dice, text)
    assert move.notation == expected
    assert move.position in {m.position for m in legal_moves(SHORT, position, dice)}


def test_long_nardy_input() -> None:
    start = LONG.initial_position()
    assert typed(start, (6, 6), "24/18(2)", LONG, True).notation == "24/18(2)"
    assert typed(start, (6, 6), "24/18 24/18", LONG, True).notation == "24/18(2)"
    assert typed(start, (6, 5), "24/13", LONG, True).notation == "24/18/13"
    assert typed(start, (6, 5), "24 13", LONG, True).notation == "24/18/13"
    assert typed(start, (3, 3), "24/15 24/21", LONG, True).notation == "24/21 24/21/18/15"
    assert typed(start, (3, 3), "24/18(2)", LONG, True).notation == "24/21/18(2)"


def test_parse_segments() -> None:
    (seg,) = parse_segments("24/18*/13")
    assert seg.points == (24, 18, 13)
    assert seg.hits == frozenset({18})
    assert seg.count == 1
    assert [s.points for s in parse_segments("13 7 8 7")] == [(13, 7), (8, 7)]
    (seg,) = parse_segments("13/7(2)")
    assert seg.count == 2
    assert [s.points for s in parse_segments("бар/22 6/борт")] == [(25, 22), (6, 0)]


# ---------------------------------------------------------------------------------------------------------------
# partial turns


def test_partial_but_forced_is_accepted() -> None:
    """One checker can move; after 24/18 the 5 is forced (18/13): the partial text is the whole turn."""
    position = pos({24: 1, 1: 14}, {19: 15})
    assert typed(position, (6, 5), "24/18").notation == "24/18/13"
    assert typed(position, (6, 5), "24/19").notation == "24/19/13"
    assert typed(position, (6, 5), "24/19").position == typed(position, (6, 5), "24/18").position
    start = LONG.initial_position()
    assert typed(start, (6, 6), "24/18", LONG, True).notation == "24/18(2)"  # the second head checker is forced


def test_partial_not_forced_is_incomplete() -> None:
    with pytest.raises(IncompleteMoveError) as info:
        typed(START, (3, 1), "8/5")
    message = str(info.value)
    assert "1 of 2 dice" in message
    assert "dice 3-1" in message
    assert "4HPwATDgc/ABMA" in message  # the position (gnubg Position ID of the opening)
    assert info.value.steps == (Step(8, 5, 3),)
    with pytest.raises(IncompleteMoveError) as info:
        typed(START, (6, 6), "13/7(2)")
    assert "2 of 4 dice" in str(info.value)
    assert len(info.value.steps) == 2


# ---------------------------------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    "text",
    ["xyz", "13/", "/7", "13/xyz", "13/7/7", "7/13", "26/20", "off/6", "6/bar", "13/7(9)", "13/7(0)", "13/7(2",
     "", "   ", "13 7 8", "ерунда", "13/7 " * 60],
)  # fmt: skip
def test_gibberish_is_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        typed(START, (6, 1), text)
    assert "position 4HPwATDgc/ABMA" in str(info.value) or len(text) > MAX_TEXT


def test_invalid_messages_say_what_was_wrong() -> None:
    with pytest.raises(InvalidMoveError, match="xyz"):
        typed(START, (6, 1), "13/xyz")
    with pytest.raises(InvalidMoveError, match="towards home"):
        typed(START, (6, 1), "7/13")
    with pytest.raises(InvalidMoveError, match="too long"):
        typed(START, (6, 1), "13/7 " * 60)
    with pytest.raises(InvalidMoveError, match="empty"):
        typed(START, (6, 1), "")


@pytest.mark.parametrize(
    ("position", "dice", "text", "reason"),
    [
        (START, (6, 1), "13/8 8/7", "no die of the roll 6-1 moves 5 points"),
        (START, (6, 1), "13/7 13/7", "no die left of the roll 6-1 moves 6 points"),
        (START, (6, 1), "24/18/17 13/7", "point 17 is held by the opponent"),
        (START, (6, 1), "20/14 8/7", "no checker of yours on point 20"),
        (START, (6, 6), "24/18*(2) 13/7(2)", "no blot to hit on point 18"),
        (START, (6, 1), "13/7 8/7 6/5", "no die left of the roll 6-1 moves 1 point"),
        (START, (6, 1), "6/off 8/7", "bear off only when all your checkers are in your home board"),
        (BAR_POSITION, (3, 1), "13/10 13/12", "bar must enter first"),
        (BEAR_POSITION, (6, 5), "5/off 5/off", "a 6 bears off from point 5 only when no checker of yours stands"),
        (pos({25: 1, 13: 14}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 5}), (6, 5), "bar/19", "no move is possible"),
    ],
)
def test_illegal(position: Position, dice: tuple[int, int], text: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        typed(position, dice, text)
    assert type(info.value) is IllegalMoveError  # not the IncompleteMoveError subclass
    message = str(info.value)
    assert reason in message
    assert f"dice {dice[0]}-{dice[1]}" in message
    assert "position " in message


def test_long_nardy_illegal_reason_for_a_chained_move() -> None:
    """The intermediate point of 24/18/12 needs no checker of its own: the reason is the dice, not point 18."""
    with pytest.raises(IllegalMoveError) as info:
        typed(LONG.initial_position(), (6, 6), "24/18/12", LONG, True)
    assert "point 18" not in str(info.value)
    assert "L1" in str(info.value)  # the long-nardy position id


def test_ambiguous_hit_or_not() -> None:
    """13/6 with 6-1: over our 7 (hitting the blot) or over our 12: two different turns."""
    for text in ("13/6", "13-6", "13 6"):
        with pytest.raises(AmbiguousMoveError) as info:
            typed(BLOT_POSITION, (6, 1), text)
        message = str(info.value)
        assert "13/12/6" in message
        assert "13/7*/6" in message
        assert "dice 6-1" in message
        assert "position " in message


def test_every_legal_notation_parses_back_on_a_corpus() -> None:
    for variant in (SHORT, LONG):
        for turn in list(game_turns(variant, range(200, 202)))[::3]:
            plan = turn.plan()
            for move in turn.moves():
                assert match_move(plan, move.notation).position == move.position, (turn, move)


def test_one_turn_has_one_canonical_notation() -> None:
    plan = TurnPlan(SHORT, START, (5, 2))
    one, other = match_move(plan, "13/8 8/6"), match_move(plan, "13/11/6")
    assert one.position == other.position
    assert one.notation == other.notation
    for dice in ((6, 1), (5, 2), (4, 4)):
        plan = TurnPlan(SHORT, START, dice)
        for move in plan.moves():
            assert match_move(plan, move.notation).notation == move.notation
