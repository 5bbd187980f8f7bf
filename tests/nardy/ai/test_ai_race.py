"""Hypergammon's race table, the hard player's use of it, and the trainer's race ends and Misère's last-roll draw.

Short nardy's bear-off table is tested in ``test_ai_bearoff.py``."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from nardy import Game, Position, legal_moves
from nardy.ai import HardPlayer
from nardy.ai.features import positions_array
from nardy.ai.network import shipped_network
from nardy.ai.race import MAX_TURNS, RaceTable, build_first_off, build_table, contact, race_keys, race_table
from nardy.ai.train import last_roll_draw_chance, outcome, train_game
from nardy.position import make_side
from nardy.variants import get_variant
from nardy.variants.base import to_state


def race(me: dict[int, int], opp: dict[int, int]) -> Position:
    return Position(make_side(me), make_side(opp))


def table() -> RaceTable:
    shipped = race_table("hypergammon")
    assert shipped is not None
    return shipped


def test_the_shipped_table_is_what_the_builder_computes() -> None:
    # every race position of at most 20 pips (the rows they fill depend only on each other)
    rebuilt = build_table("hypergammon", max_pips=20)
    assert 100 < len(rebuilt) < len(race_keys(3)) == 2925
    assert np.allclose(table().turns[: len(rebuilt)], rebuilt, atol=1e-12)
    assert table().turns.shape == (2925, MAX_TURNS)
    assert np.allclose(table().turns.sum(axis=1), 1.0)


def test_turn_chances_of_simple_races() -> None:
    t = table()
    rows = t.rows(positions_array([race({2: 1}, {}), race({}, {}), race({6: 2, 1: 1}, {})])[:, :25])
    assert t.turns[rows[0], 1] == pytest.approx(1.0)  # one checker on point 2: off in one turn whatever the roll
    assert t.turns[rows[1], 0] == pytest.approx(1.0)  # all off: no turn needed
    # 6-6 is the only roll that bears off 6, 6 and 1 at once (three checkers need a double; 5-5 leaves 1, 1, 1)
    assert t.turns[rows[2], 1] == pytest.approx(1 / 36)


def test_race_win_chances() -> None:
    t = table()
    batch = positions_array(
        [
            race({1: 1}, {1: 3}),  # I am on roll and finish now
            race({8: 3}, {1: 1}),  # I need two turns at least, the other side finishes on its first
            race({6: 3}, {6: 3}),  # the same race for both: the side on roll is the favourite
            race({24: 1}, {24: 1}),  # contact: the checkers must pass each other
            race({3: 1, 25: 1}, {3: 1}),  # contact: a checker on the bar
        ]
    )
    wins = t.win_chances(batch)
    assert wins[0] == pytest.approx(1.0)
    assert wins[1] == pytest.approx(0.0)
    assert 0.6 < wins[2] < 0.8
    assert np.isnan(wins[3:]).all()
    assert contact(batch).tolist() == [False, False, False, True, True]


def test_which_variants_have_a_table() -> None:
    assert race_table("misere") is None  # its aim is reversed: the short table's values do not hold
    assert race_table("fevga") is None
    assert race_table("nackgammon") is race_table("portes") is race_table("long") is race_table("short") is not None
    with pytest.raises(ValueError, match="no race table for variant 'long'"):
        build_table("long")
    with pytest.raises(ValueError, match="no first-off chances"):
        build_first_off("hypergammon")


def test_hard_values_races_by_the_table_and_contact_by_the_network() -> None:
    hard = HardPlayer("hypergammon", 1)
    plain = HardPlayer("hypergammon", 1, exact_races=False)
    in_race = race({6: 3}, {6: 3})
    exact = float(table().win_chances(positions_array([in_race]))[0])
    assert hard.position_equity(in_race) == pytest.approx(2 * exact - 1)
    assert plain.position_equity(in_race) != pytest.approx(2 * exact - 1)
    start = get_variant("hypergammon").initial_position()
    assert hard.position_equity(start) == pytest.approx(plain.position_equity(start))
    assert HardPlayer("fevga", 1).race is None


def test_hard_at_0_ply_plays_the_race_move_the_table_prefers() -> None:
    hard = HardPlayer("hypergammon", 1, lookahead=0)
    position = race({8: 1, 7: 1, 3: 1}, {6: 2, 5: 1})
    moves = legal_moves(get_variant("hypergammon"), position, (6, 5))
    values = hard.move_equities(moves, Game("hypergammon"))
    exact = 2.0 * (1.0 - table().win_chances(positions_array([m.position.swapped() for m in moves]))) - 1.0
    assert np.allclose(values, exact)
    assert len(set(np.round(exact, 9))) > 1


def test_training_with_race_ends_is_reproducible_and_ends_at_the_first_race() -> None:
    variant = get_variant("hypergammon")
    a = copy.deepcopy(shipped_network("hypergammon"))
    b = copy.deepcopy(a)
    plain = copy.deepcopy(a)
    plies_a = train_game(a, variant, seed=5, lam=0.7, alpha=0.01, race=table())
    plies_b = train_game(b, variant, seed=5, lam=0.7, alpha=0.01, race=table())
    assert plies_a == plies_b
    assert np.array_equal(a.w1, b.w1)
    assert not np.array_equal(a.w1, shipped_network("hypergammon").w1)
    # over a few games the race ends shorten self-play (the same dice, the same network at the start)
    with_race = sum(
        train_game(copy.deepcopy(plain), variant, seed=s, lam=0.7, alpha=0.0, race=table()) for s in range(8)
    )
    without = sum(train_game(copy.deepcopy(plain), variant, seed=s, lam=0.7, alpha=0.0) for s in range(8))
    assert with_race < without


def test_misere_last_roll_draw_chance() -> None:
    misere = get_variant("misere")
    # I (the first player) have just borne off all; the other side's last roll must bear off all to draw
    assert last_roll_draw_chance(misere, to_state(race({}, {1: 2}))) == pytest.approx(1.0)
    # one checker on 6: every roll of 6 pips or more bears it off (1-1 and 1-2, 1-3, 1-4, 2-3 do not)
    assert last_roll_draw_chance(misere, to_state(race({}, {6: 1}))) == pytest.approx(27 / 36)
    # a roll with a 1 (not 1-1) can leave one checker on: 2/1, then 1 off
    assert last_roll_draw_chance(misere, to_state(race({}, {2: 1, 1: 1}))) == pytest.approx(26 / 36)
    assert last_roll_draw_chance(get_variant("short"), to_state(race({}, {1: 1}))) == 0.0
    values = outcome(misere, to_state(race({}, {1: 1})), 0.5)
    assert values.tolist() == [0.25, 0.0, 0.0, 0.0, 0.0]


def test_a_race_table_rejects_a_wrong_shape() -> None:
    with pytest.raises(ValueError, match="race table has shape"):
        RaceTable("hypergammon", np.zeros((3, MAX_TURNS)))
