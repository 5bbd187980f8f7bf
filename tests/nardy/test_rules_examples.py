"""The worked examples of docs/rules.md §7, one test each, plus the §1/§3 rules they illustrate."""

from __future__ import annotations

import pytest
from nardy_testkit import LONG, SHORT, notations, pos

from nardy import Options, Step, TurnPlan, legal_moves
from nardy.variants import GameValue

SHORT_START = SHORT.initial_position()
LONG_START = LONG.initial_position()


# ---------------------------------------------------------------------------------------------------------------
# short nardy


def test_short_setup() -> None:
    """2 on 24, 5 on 13, 3 on 8, 5 on 6, for both sides in their own frames; 167 pips each."""
    assert SHORT_START.me == SHORT_START.opp
    assert {i + 1: c for i, c in enumerate(SHORT_START.me) if c} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert SHORT_START.pips() == (167, 167)
    SHORT.validate(SHORT_START)


def test_short_opening_3_1() -> None:
    """Roll 3-1: 16 distinct legal plays, among them 8/5 6/5."""
    moves = legal_moves(SHORT, SHORT_START, (3, 1))
    assert len(moves) == 16
    assert "8/5 6/5" in notations(moves)
    assert notations(legal_moves(SHORT, SHORT_START, (1, 3))) == notations(moves)  # dice order does not matter


def test_short_bar_only_the_6_enters() -> None:
    """Two on the bar, only the 6 can enter, roll 6-5: the only play is bar/19 (the 5 is lost)."""
    position = pos({25: 2, 13: 13}, {5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 5})  # our 20..24 closed, 19 open
    moves = legal_moves(SHORT, position, (6, 5))
    assert notations(moves) == {"bar/19"}
    assert moves[0].position.me[24] == 1


def test_short_bear_off_opponent_holds_1_and_4() -> None:
    """Checkers on 6 and 5, opponent holds points 1 and 4, roll 5-2: the only play is 5/off."""
    position = pos({6: 1, 5: 1}, {24: 2, 21: 2, 1: 11})  # the opponent's 24 and 21 are our 1 and 4
    assert notations(legal_moves(SHORT, position, (5, 2))) == {"5/off"}


def test_short_bear_off_higher_dice() -> None:
    """Checkers only on 3 and 2, roll 6-5: 3/off 2/off."""
    position = pos({3: 1, 2: 1}, {19: 15})
    assert notations(legal_moves(SHORT, position, (6, 5))) == {"3/off 2/off"}


def test_short_bar_must_enter_before_anything_else() -> None:
    position = pos({25: 1, 13: 14}, {19: 15})
    for move in legal_moves(SHORT, position, (6, 2)):
        assert move.steps[0].src == 25


def test_short_closed_board_forfeits() -> None:
    position = pos({25: 1, 13: 14}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 5})
    assert legal_moves(SHORT, position, (6, 6)) == []
    assert TurnPlan(SHORT, position, (6, 6)).forfeited


def test_short_larger_die_when_only_one_can_be_played() -> None:
    """One checker can move (the rest are not home, so cannot bear off): only one die playable."""
    position = pos({24: 1, 1: 14}, {7: 2, 12: 2, 2: 11})  # opponent's 7 = our 18 closed, 12 = our 13 closed
    # 24/18 closed, 24/19 open then 19/13 closed: only the 5 can be played
    assert notations(legal_moves(SHORT, position, (6, 5))) == {"24/19"}
    position = pos({24: 1, 1: 14}, {12: 2, 2: 13})  # 24/18 and 24/19 open, both then land on 13 (closed)
    assert notations(legal_moves(SHORT, position, (6, 5))) == {"24/18"}


def test_short_hit_sends_to_the_bar() -> None:
    position = pos({24: 2, 13: 13}, {7: 1, 19: 14})  # the opponent's 7 is our 18: a blot
    (move,) = [m for m in legal_moves(SHORT, position, (6, 5)) if m.notation == "24/19 24/18*"]
    assert move.position.opp[24] == 1
    assert move.position.opp[6] == 0
    assert move.hits == 1


@pytest.mark.parametrize(
    ("opp", "value"),
    [
        ({6: 14}, GameValue("single", 1)),
        ({6: 15}, GameValue("gammon", 2)),
        ({20: 1, 6: 14}, GameValue("backgammon", 3)),
        ({25: 1, 6: 14}, GameValue("backgammon", 3)),
        ({18: 1, 6: 14}, GameValue("gammon", 2)),
    ],
)
def test_short_game_value(opp: dict[int, int], value: GameValue) -> None:
    """Single, gammon (none borne off), backgammon (none off and one on the bar or in the winner's home)."""
    assert SHORT.game_value(pos({}, opp), Options()) == value


# ---------------------------------------------------------------------------------------------------------------
# long nardy


def test_long_setup() -> None:
    assert {i + 1: c for i, c in enumerate(LONG_START.me) if c} == {24: 15}
    LONG.validate(LONG_START)
    assert LONG.to_mover_point(24) == 12
    assert LONG.to_mover_point(1) == 13
    assert LONG.to_mover_point(12) == 24


def test_long_first_mover_6_6() -> None:
    """6-6 on the first turn: only 24/18(2); the other two sixes are lost."""
    moves = legal_moves(LONG, LONG_START, (6, 6), first_turn=True)
    assert notations(moves) == {"24/18(2)"}
    assert len(moves[0].steps) == 2


def test_long_first_mover_3_3() -> None:
    """3-3: four threes with two checkers off the head."""
    moves = legal_moves(LONG, LONG_START, (3, 3), first_turn=True)
    assert moves
    for move in moves:
        assert len(move.steps) == 4
        assert move.position.me[23] == 13


def test_long_first_mover_5_5() -> None:
    """5-5: one checker 24/4 is legal (the head rule lets only one checker leave)."""
    moves = legal_moves(LONG, LONG_START, (5, 5), first_turn=True)
    assert notations(moves) == {"24/19/14/9/4"}
    assert moves[0].position.me[3] == 1
    assert moves[0].position.me[23] == 14


def test_long_later_turn_6_5() -> None:
    """A later turn, 6-5, the head still holds checkers and no other checker can move: one head checker plays both."""
    position = pos({24: 14, 2: 1}, {24: 15})
    moves = legal_moves(LONG, position, (6, 5))
    assert notations(moves) == {"24/18/13"}
    assert moves[0].position.me[23] == 13  # a second head checker may not leave


def test_long_bear_off_2_then_1() -> None:
    """Home holds checkers only on 1 and 2, roll 5-3: take off from 2, then from 1."""
    position = pos({2: 1, 1: 1}, {24: 15})
    moves = legal_moves(LONG, position, (5, 3))
    assert notations(moves) == {"2/off 1/off"}
    assert moves[0].position.me_off == 15


def test_long_block_across_the_corner() -> None:
    """Mover 24:10 23:1 22:1 4:1 3:1 2:1, all 15 opponent checkers on their head, roll 6-3:
    24/18 4/1 is illegal (22, 23, 24, 1, 2, 3 with every opponent checker behind), 24/15 is legal."""
    position = pos({24: 10, 23: 1, 22: 1, 4: 1, 3: 1, 2: 1}, {24: 15})
    found = notations(legal_moves(LONG, position, (6, 3)))
    assert "24/18 4/1" not in found
    assert "24/18/15" in found
    plan = TurnPlan(LONG, position, (6, 3))
    assert Step(4, 1, 3) not in plan.next_steps((Step(24, 18, 6),))
    assert Step(4, 1, 3) not in plan.next_steps()


def test_long_no_hitting() -> None:
    """A single opponent checker closes a point in long nardy."""
    position = pos({24: 14, 20: 1}, {24: 14, 2: 1})  # the opponent's 2 is our 14
    found = notations(legal_moves(LONG, position, (6, 6)))
    assert not any("/14" in m for m in found)
    assert "20/14" not in found
