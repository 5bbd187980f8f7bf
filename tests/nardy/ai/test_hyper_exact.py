"""Hypergammon's solver (nardy/ai/hyper_exact.c): its move generator against the engine's, its values against a
plain recursion over the engine's moves, and the Python side's indexing."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from nardy.ai import hyper_exact as exact
from nardy.ai.features import positions_array, swap
from nardy.movegen import turn_context_and_turns
from nardy.options import Options
from nardy.position import Position
from nardy.variants import get_variant

RULES = get_variant("hypergammon")
OPTIONS = Options()
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


@pytest.fixture(scope="module")
def solver() -> object:
    try:
        return exact.load_solver()
    except exact.SolverUnavailableError as error:
        pytest.skip(str(error))


def engine_ends(position: Position, dice: tuple[int, int]) -> set[tuple[int, int]]:
    """The engine's legal ends of a turn as side-index pairs (the position itself when nothing can be played)."""
    _, level, _ = turn_context_and_turns(RULES, position, dice, False, OPTIONS)
    if not level:
        return {
            (
                int(exact.side_indices(positions_array([position])[:, :25])[0]),
                int(exact.side_indices(positions_array([position])[:, 25:])[0]),
            )
        }
    batch = np.frombuffer(b"".join(level), dtype=np.uint8).reshape(len(level), 50)
    return set(zip(exact.side_indices(batch[:, :25]).tolist(), exact.side_indices(batch[:, 25:]).tolist(), strict=True))


def test_side_indices_follow_the_c_numbering() -> None:
    triples = exact.side_triples()
    assert len(triples) == exact.SIDES == 3276
    sides = np.array([exact.side_array(i) for i in range(exact.SIDES)], dtype=np.uint8)
    assert exact.side_indices(sides).tolist() == list(range(exact.SIDES))
    assert exact.side_array(0) == (0,) * 25  # all borne off
    assert exact.side_array(exact.SIDES - 1)[24] == 3  # all on the bar


def test_the_generator_lists_the_engines_ends(solver: object) -> None:
    order = exact.sweep_order()
    rng = np.random.default_rng(2026)
    compared = 0
    for index in rng.choice(order, 1500, replace=False):
        me, opp = divmod(int(index), exact.SIDES)
        position = Position(exact.side_array(me), exact.side_array(opp))
        for dice in ROLLS:
            assert exact.solver_ends(solver, me, opp, dice) == engine_ends(position, dice), (position, dice)  # type: ignore[arg-type]
            compared += 1
    assert compared == 1500 * 21


def test_the_sweep_order_holds_every_live_position_once(solver: object) -> None:
    order = exact.sweep_order()
    assert len(set(order.tolist())) == len(order)
    sample = random.Random(1).sample(range(exact.SIDES**2), 20_000)
    live = set(order.tolist())
    for index in sample:
        assert (index in live) == bool(solver.hyper_live(*divmod(index, exact.SIDES)))  # type: ignore[attr-defined]


def plain_race_value(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    """The win chance of the side on roll in a race, by recursion over the engine's moves (no table)."""

    @functools.cache
    def value(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
        if sum(theirs) == 0:
            return 0.0
        total = 0.0
        for a, b in ROLLS:
            _, level, _ = turn_context_and_turns(RULES, Position(mine, theirs), (a, b), False, OPTIONS)
            best = max(1.0 if not any(s[:25]) else 1.0 - value(tuple(s[25:]), tuple(s[:25])) for s in level)
            total += best * (1 if a == b else 2) / 36
        return total

    return value(me, opp)


def test_one_sweep_values_low_races_exactly(solver: object) -> None:
    # races of at most 10 pips a side only lead to lower races: one sweep, lowest pips first, makes them exact
    triples = exact.side_triples()
    low = [i for i, t in enumerate(triples) if 0 < sum(t) <= 10 and max(t) <= 6]
    order = np.array(
        sorted(
            (m * exact.SIDES + o for m in low for o in low),
            key=lambda k: sum(triples[k // exact.SIDES]) + sum(triples[k % exact.SIDES]),
        ),
        dtype=np.int32,
    )
    table = np.empty(exact.SIDES**2, dtype=np.float32)
    solver.hyper_initialise(table.ctypes.data)  # type: ignore[attr-defined]
    solver.hyper_sweep(table.ctypes.data, order.ctypes.data, len(order))  # type: ignore[attr-defined]
    solved = exact.ExactTable(table)
    rng = random.Random(3)
    for _ in range(60):
        me, opp = rng.choice(low), rng.choice(low)
        position = Position(exact.side_array(me), exact.side_array(opp))
        expected = plain_race_value(position.me, position.opp)
        assert solved.win_chances(positions_array([position]))[0] == pytest.approx(expected, abs=1e-6)
        # and the C side's value of each roll agrees with the table it filled
        by_rolls = sum(
            solver.hyper_roll_value(table.ctypes.data, me, opp, a, b) * (1 if a == b else 2) / 36  # type: ignore[attr-defined]
            for a, b in ROLLS
        )
        assert by_rolls == pytest.approx(expected, abs=1e-6)


def test_win_chances_of_finished_sides() -> None:
    table = exact.ExactTable(np.full(exact.SIDES**2, 0.5, dtype=np.float32))
    home = Position(exact.side_array(5), exact.side_array(0))
    assert table.win_chances(positions_array([home]))[0] == 0.0
    assert table.win_chances(swap(positions_array([home])))[0] == 1.0


def test_game_positions_and_distillation_run_on_any_table() -> None:
    rng = np.random.default_rng(0)
    table = exact.ExactTable(rng.random(exact.SIDES**2).astype(np.float32))
    positions = exact.game_positions(table, games=5, seed=1)
    assert positions.shape[1] == 50 and len(positions) > 20
    # every position holds 3 checkers a side (on the board, on the bar or borne off: at most 3 in play)
    assert (positions[:, :25].sum(axis=1) <= 3).all() and (positions[:, 25:].sum(axis=1) <= 3).all()
    from nardy.ai.network import Network

    network = Network.random("hypergammon", 8, seed=1)
    errors: list[float] = []
    trained = exact.distill(table, network, positions, epochs=3, rate=0.01, progress=lambda _, e: errors.append(e))
    assert len(errors) == 3 and errors[-1] < errors[0]
    assert trained.w1.shape == network.w1.shape
