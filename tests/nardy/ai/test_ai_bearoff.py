"""Short nardy's one-sided bear-off table (:mod:`nardy.ai.race`) and the hard player's use of it."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from nardy import Game, Position, legal_moves
from nardy.ai import HardPlayer
from nardy.ai.features import positions_array, swap
from nardy.ai.network import equity, shipped_network
from nardy.ai.race import RACE_VARIANTS, RaceTable, build_first_off, build_table, race_keys, race_table
from nardy.ai.search import ROLLS, candidate_states
from nardy.ai.train import train_game
from nardy.position import make_side
from nardy.variants import get_variant

SPEC = RACE_VARIANTS["short"]


def board(me: dict[int, int], opp: dict[int, int]) -> Position:
    return Position(make_side(me), make_side(opp))


def table() -> RaceTable:
    shipped = race_table("short")
    assert shipped is not None
    return shipped


def first_off() -> np.ndarray:
    chances = table().first_off
    assert chances is not None
    return chances


def home_side(rng: random.Random, low: int = 1) -> dict[int, int]:
    counts = [0] * 6
    for _ in range(rng.randint(low, 15)):
        counts[rng.randrange(6)] += 1
    return {point + 1: n for point, n in enumerate(counts) if n}


def means(chances: np.ndarray) -> np.ndarray:
    return np.asarray(chances @ np.arange(chances.shape[1]))


def test_the_shipped_table_is_what_the_builder_computes() -> None:
    t = table()
    assert t.turns.shape == first_off().shape == (len(race_keys(15, 6)), SPEC.max_turns) == (54_264, 32)
    assert np.allclose(t.turns.sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(first_off().sum(axis=1), 1.0, atol=1e-5)
    # the first rows (at most 24 pips; they depend only on each other), stored in float32
    rebuilt = build_table("short", max_pips=24)
    assert 1_000 < len(rebuilt) < 54_264
    assert np.allclose(t.turns[: len(rebuilt)], rebuilt, atol=1e-6)
    rebuilt_first_off = build_first_off("short", max_pips=24)
    assert np.allclose(first_off()[: len(rebuilt_first_off)], rebuilt_first_off, atol=1e-6)


@pytest.mark.parametrize("gammons", [False, True])
def test_every_sampled_row_follows_from_the_rows_after_it(gammons: bool) -> None:
    # one step of the recursion the builder solves, checked on random rows of the whole shipped table: the expected
    # turns are one more than the chance-weighted best successor's, and the distribution is that successor's shifted
    t = table()
    chances = first_off() if gammons else t.turns
    mean = means(chances)
    short = get_variant("short")
    keys = race_keys(15, 6)
    rng = random.Random(13)
    rows = [row for row in rng.sample(range(len(keys)), 400) if not (gammons and 0 in keys[row]) and any(keys[row])]
    assert len(rows) > 60
    for row in rows[:120]:
        position = board({p: keys[row].count(p) for p in set(keys[row]) if p}, {})
        expected_mean, expected = 1.0, np.zeros(SPEC.max_turns)
        for a, b, weight in ROLLS:
            states = candidate_states(short, position, (a, b), False)
            sides = np.frombuffer(b"".join(states), dtype=np.uint8).reshape(len(states), 50)[:, :25]
            if gammons and (sides[:, :6].sum(axis=1) < 15).any():
                expected[1] += weight
                continue
            successors = t.rows(sides)
            best = successors[np.argmin(mean[successors])]
            expected_mean += weight * mean[best]
            expected[1:] += weight * chances[best, :-1]
        assert mean[row] == pytest.approx(expected_mean, abs=1e-5)
        assert np.allclose(chances[row], expected, atol=1e-4)


def test_turns_and_first_off_of_known_bear_offs() -> None:
    t = table()
    rows = t.rows(positions_array([board({6: 2}, {}), board({6: 15}, {}), board({1: 1}, {})])[:, :25])
    # two checkers on 6 come off in one turn only with 3-3, 4-4, 5-5 or 6-6
    assert t.turns[rows[0], 1] == pytest.approx(4 / 36, abs=1e-6)
    # fifteen on 6: the first checker comes off at once with a 6 (11 rolls), 5-1 (6/1/off), 4-2 (6/2/off), 3-3
    # (6/3/off) or 2-2 (6/4/2/off); not with 4-4, 5-5, 1-1 or any other
    assert first_off()[rows[1], 1] == pytest.approx(17 / 36, abs=1e-6)
    assert t.turns[rows[2], 1] == pytest.approx(1.0)
    assert first_off()[rows[2], 0] == pytest.approx(1.0)  # already one off


def test_chances_of_bear_offs_and_where_the_table_does_not_apply() -> None:
    t = table()
    batch = positions_array(
        [
            board({1: 1}, {6: 15}),  # I finish now, the other side has none off: a gammon
            board({6: 5, 5: 5, 4: 5}, {1: 2}),  # the other side finishes next turn; only 1-2 leaves all 15 on
            board({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}),
            board({6: 14, 7: 1}, {6: 3}),  # a checker of mine is not home yet
            board({6: 3}, {6: 14, 24: 1}),  # contact
            board({6: 3, 25: 1}, {6: 3}),  # on the bar
        ]
    )
    chances = t.chances(batch)
    assert chances[0].tolist() == pytest.approx([1.0, 1.0, 0.0, 0.0, 0.0])
    assert chances[1].tolist() == pytest.approx([0.0, 0.0, 0.0, 2 / 36, 0.0], abs=1e-6)
    assert 0.55 < chances[2, 0] < 0.75  # the same bear-off for both: the side on roll is the favourite
    assert chances[2, 1:].tolist() == [0.0, 0.0, 0.0, 0.0]  # both sides have checkers off
    assert np.isnan(chances[3:]).all()
    assert np.array_equal(t.win_chances(batch), chances[:, 0], equal_nan=True)
    assert t.covers(batch).tolist() == [True, True, True, False, False, False]


def test_the_gammon_chances_match_a_direct_count() -> None:
    # fifteen on my 6 point against two on the other side's 1 point: I am gammoned unless my first roll bears off
    t = table()
    lose = t.chances(positions_array([board({6: 15}, {1: 2})]))[0]
    assert lose[3] == pytest.approx(1 - 17 / 36, abs=1e-6)
    # reversed: the other side has fifteen on its 6 point and rolls after my last checker is off
    win = t.chances(positions_array([board({1: 2}, {6: 15})]))[0]
    assert win[:2].tolist() == pytest.approx([1.0, 1.0])


def test_short_nackgammon_portes_and_long_bear_off_alike() -> None:
    # the table is shared, so the four variants' bear-off moves must be the same
    rng = random.Random(7)
    variants = [get_variant(name) for name in ("short", "nackgammon", "portes", "long")]
    for _ in range(40):
        position = board(home_side(rng), home_side(rng))
        for a, b, _ in ROLLS:
            first, *others = (set(candidate_states(v, position, (a, b), False)) for v in variants)
            assert all(other == first for other in others)


def test_hard_values_bear_offs_by_the_table_and_the_rest_by_the_network() -> None:
    hard = HardPlayer("short", 1)
    plain = HardPlayer("short", 1, exact_races=False)
    bear_off = board({6: 4, 5: 3, 2: 2}, {5: 6, 4: 4, 1: 1})
    exact = table().chances(positions_array([bear_off]))
    assert hard.position_equity(bear_off) == pytest.approx(float(equity("short", exact)[0]))
    assert plain.position_equity(bear_off) != pytest.approx(hard.position_equity(bear_off))
    start = get_variant("short").initial_position()
    assert hard.position_equity(start) == pytest.approx(plain.position_equity(start))
    assert HardPlayer("nackgammon", 1).race is table()


def test_long_nardy_values_its_bear_offs_by_the_table_as_win_and_mars() -> None:
    hard = HardPlayer("long", 1)
    plain = HardPlayer("long", 1, exact_races=False)
    assert hard.race is table()
    bear_off = board({6: 4, 5: 3, 2: 2}, {5: 6, 4: 4, 1: 1})
    batch = positions_array([bear_off])
    exact = table().chances(batch)[0]
    probs = hard.probabilities(batch)[0]
    assert probs.tolist() == pytest.approx([exact[0], exact[1], exact[3]])  # win, win марс, lose марс
    assert table().chances(batch, ("win", "win_mars", "lose_mars"))[0].tolist() == probs.tolist()
    assert hard.position_equity(bear_off) == pytest.approx(2 * exact[0] + exact[1] - exact[3] - 1)
    assert plain.position_equity(bear_off) != pytest.approx(hard.position_equity(bear_off))
    start = get_variant("long").initial_position()  # the heads: the network, with or without the table
    assert hard.position_equity(start) == pytest.approx(plain.position_equity(start))


def test_hard_at_0_ply_plays_the_bear_off_move_the_table_prefers() -> None:
    hard = HardPlayer("short", 1, lookahead=0)
    position = board({6: 3, 5: 2, 4: 3, 3: 1, 1: 1}, {6: 4, 5: 3, 4: 2})  # I have 5 off, the other side 6
    moves = legal_moves(get_variant("short"), position, (4, 1))
    values = hard.move_equities(moves, Game("short"))
    exact = -equity("short", table().chances(swap(positions_array([m.position for m in moves]))))
    assert np.allclose(values, exact)
    assert len(set(np.round(exact, 9))) > 1


def test_training_with_the_table_ends_at_the_first_bear_off_of_both_sides() -> None:
    short = get_variant("short")
    start = shipped_network("short")
    a, b = copy.deepcopy(start), copy.deepcopy(start)
    assert train_game(a, short, seed=3, lam=0.7, alpha=0.01, race=table()) == train_game(
        b, short, seed=3, lam=0.7, alpha=0.01, race=table()
    )
    assert np.array_equal(a.w1, b.w1)
    with_table = sum(train_game(copy.deepcopy(start), short, s, 0.7, 0.0, race=table()) for s in range(4))
    without = sum(train_game(copy.deepcopy(start), short, s, 0.7, 0.0) for s in range(4))
    assert with_table < without


def test_a_bear_off_table_needs_its_first_off_chances() -> None:
    turns = np.zeros((54_264, 32))
    with pytest.raises(ValueError, match="needs first-off chances of shape"):
        RaceTable("short", turns)
    with pytest.raises(ValueError, match="race table has shape"):
        RaceTable("short", np.zeros((3, 32)), first_off=turns)
