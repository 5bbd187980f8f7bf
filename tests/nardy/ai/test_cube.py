"""Janowski's cubeful equities: money (nardy.ai.cube: the classical take points, worked examples, the right cube
actions) and match play (nardy.ai.match_cube with the table of nardy.ai.met: money-like far from the end, the known
cube actions near it)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.ai.cube import CubeEquities, cube_efficiency, cube_equities, cubeful_equity
from nardy.ai.cube_decisions import in_contact
from nardy.ai.match_cube import MatchScore, match_cube_equities
from nardy.ai.met import match_winning_chance
from nardy.position import Position, make_side
from nardy.variants import get_variant

SINGLES = (0.5, 0.0, 0.0, 0.0, 0.0)


def chances(win: float) -> tuple[float, float, float, float, float]:
    return (win, 0.0, 0.0, 0.0, 0.0)


def take_point(efficiency: float) -> float:
    """The win chance of the doubler at which double/take equals double/pass (found by bisection)."""
    low, high = 0.5, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        if cube_equities(chances(mid), "centre", efficiency).double_take < 1.0:
            low = mid
        else:
            high = mid
    return 1.0 - (low + high) / 2


def test_without_gammons_the_take_point_is_25_percent_dead_and_20_percent_live() -> None:
    assert math.isclose(take_point(0.0), 0.25, abs_tol=1e-9)
    assert math.isclose(take_point(1.0), 0.20, abs_tol=1e-9)
    assert 0.20 < take_point(0.68) < 0.25


def test_an_even_game_is_no_double_and_worth_nothing_with_a_centred_cube() -> None:
    even = cube_equities(SINGLES, "centre", 0.68)
    assert math.isclose(even.no_double, 0.0, abs_tol=1e-12)
    # the cube turned over at 50 %: live -1 + 0.5 * 2.5 ... = -0.25, dead 0; times 2
    assert math.isclose(even.double_take, 2 * 0.68 * -0.25)
    assert even.proper == "no_double"
    assert math.isclose(even.double_error(doubled=True), even.no_double - even.double_take)
    assert even.double_error(doubled=False) == 0.0


def test_a_worked_double_pass() -> None:
    # 80 % without gammons: at the cash point; no double 0.68 * 1 + 0.32 * 0.6, double/take 2 (0.68 * 0.5 + 0.32 * 0.6)
    strong = cube_equities(chances(0.8), "centre", 0.68)
    assert math.isclose(strong.no_double, 0.872)
    assert math.isclose(strong.double_take, 1.064)
    assert strong.proper == "double_pass"
    assert math.isclose(strong.double_error(doubled=False), 1.0 - 0.872)
    assert strong.take_error(took=False) == 0.0
    assert math.isclose(strong.take_error(took=True), 0.064)


def test_a_gammonish_position_is_too_good_to_double() -> None:
    gammonish = cube_equities((0.9, 0.6, 0.05, 0.0, 0.0), "centre", 0.68)
    assert gammonish.no_double > 1.0 and gammonish.double_take > 1.0
    assert gammonish.proper == "too_good"
    assert gammonish.double_error(doubled=True) == pytest.approx(gammonish.no_double - 1.0)


def test_owning_the_cube_is_worth_more_than_a_centred_one_and_the_opponents_less() -> None:
    for win in (0.3, 0.5, 0.7):
        mine = cubeful_equity(chances(win), "mine", 0.68)
        centre = cubeful_equity(chances(win), "centre", 0.68)
        theirs = cubeful_equity(chances(win), "theirs", 0.68)
        assert mine > centre > theirs


def test_jacoby_counts_gammons_single_while_the_cube_is_centred() -> None:
    gammons = (0.6, 0.3, 0.0, 0.1, 0.0)
    plain, jacoby = cube_equities(gammons, "centre", 0.68), cube_equities(gammons, "centre", 0.68, jacoby=True)
    assert jacoby.no_double < plain.no_double and jacoby.double_take == plain.double_take
    single = cube_equities(gammons, "centre", 0.68, gammons=False)
    assert math.isclose(single.no_double, jacoby.no_double)


def test_an_arithmetic_cube_multiplies_the_take_by_its_own_factor() -> None:
    two, three_halves = cube_equities(SINGLES, "mine", 0.68), cube_equities(SINGLES, "mine", 0.68, factor=1.5)
    assert math.isclose(three_halves.double_take, two.double_take * 0.75)


def test_no_decision_with_the_opponents_cube_or_without_five_chances() -> None:
    with pytest.raises(ValueError, match="belongs to the opponent"):
        cube_equities(SINGLES, "theirs", 0.68)
    with pytest.raises(ValueError, match="five chances"):
        cube_equities((0.5, 0.1, 0.0), "centre", 0.68)


def test_cube_efficiency_in_contact_and_by_race_length() -> None:
    assert cube_efficiency(True, 20) == 0.68
    assert cube_efficiency(False, 10) == 0.6
    assert math.isclose(cube_efficiency(False, 100), 0.675)
    assert cube_efficiency(False, 300) == 0.7


@given(
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.sampled_from(["centre", "mine"]),
    st.floats(0.6, 0.7),
)
def test_the_right_action_loses_nothing_and_every_error_is_non_negative(
    win: float, gammon_share: float, lose_gammon_share: float, backgammon_share: float, owner: str, x: float
) -> None:
    win_g = win * gammon_share
    lose_g = (1 - win) * lose_gammon_share
    equities = cube_equities(
        (win, win_g, win_g * backgammon_share, lose_g, lose_g * backgammon_share),
        "centre" if owner == "centre" else "mine",
        x,
    )
    assert isinstance(equities, CubeEquities)
    right_double = equities.proper in ("double_take", "double_pass")
    assert equities.double_error(right_double) == pytest.approx(0.0, abs=1e-12)
    assert equities.double_error(not right_double) >= 0.0
    right_take = equities.double_take <= equities.double_pass
    assert equities.take_error(right_take) == pytest.approx(0.0, abs=1e-12)
    assert equities.take_error(not right_take) >= 0.0
    assert -3.0 <= equities.no_double <= 3.0


def test_far_from_the_end_a_match_cube_is_a_money_cube() -> None:
    for chances_ in (SINGLES, (0.7, 0.2, 0.01, 0.05, 0.0), (0.8, 0.0, 0.0, 0.0, 0.0), (0.3, 0.05, 0.0, 0.25, 0.02)):
        money = cube_equities(chances_, "centre", 0.68)
        match = match_cube_equities(chances_, "centre", 0.68, MatchScore(25, 25), 1)
        assert match.no_double == pytest.approx(money.no_double, abs=0.01)
        assert match.double_take == pytest.approx(money.double_take, abs=0.02)
        assert match.proper == money.proper


def test_at_two_away_two_away_a_favourite_doubles_at_once() -> None:
    # the taker, needing 2 with the cube on 2, can never redouble usefully: the doubler loses nothing by doubling
    assert match_cube_equities(chances(0.55), "centre", 0.68, MatchScore(2, 2), 1).proper == "double_take"
    assert match_cube_equities(chances(0.45), "centre", 0.68, MatchScore(2, 2), 1).proper == "no_double"
    # money: 55 % is far from a double
    assert cube_equities(chances(0.55), "centre", 0.68).proper == "no_double"


def test_after_the_crawford_game_the_trailer_doubles_even_as_an_underdog() -> None:
    trailer = match_cube_equities(chances(0.3), "centre", 0.68, MatchScore(4, 1, post_crawford=True), 1)
    assert trailer.proper == "double_take"
    assert trailer.double_error(doubled=False) > 0.05


def test_a_match_cube_of_the_opponent_is_no_decision() -> None:
    with pytest.raises(ValueError, match="belongs to the opponent"):
        match_cube_equities(SINGLES, "theirs", 0.68, MatchScore(5, 5), 1)


def test_the_match_equity_table() -> None:
    assert match_winning_chance(1, 1) == 0.5 and match_winning_chance(0, 3) == 1.0 and match_winning_chance(3, 0) == 0
    for i in range(1, 26):
        for j in range(1, 26):
            assert match_winning_chance(i, j) + match_winning_chance(j, i) == pytest.approx(1.0, abs=1e-4)
            if j > 1:
                assert match_winning_chance(i, j) >= match_winning_chance(i, j - 1)
    assert match_winning_chance(2, 1, post_crawford=True) == pytest.approx(0.488, abs=1e-3)
    assert match_winning_chance(1, 2, post_crawford=True) == pytest.approx(0.512, abs=1e-3)
    with pytest.raises(ValueError, match="beyond 25"):
        match_winning_chance(26, 3)


def test_contact_counts_the_bar_and_the_reserve() -> None:
    start = get_variant("short").initial_position()
    assert in_contact(start)
    race = Position(make_side({6: 5, 5: 5, 4: 5}), make_side({6: 5, 5: 5, 4: 5}))
    assert not in_contact(race)
    assert in_contact(Position((*race.me[:24], 1), race.opp))  # a checker on the bar
    dutch = get_variant("dutch").initial_position()  # every checker still in the reserve
    assert len(dutch.me) == 26 and in_contact(dutch)
