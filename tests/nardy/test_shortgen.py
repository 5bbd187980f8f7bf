"""The C generator of short nardy's board (nardy/_shortgen.c) against the Python one: the same end states, in the same
order, with the same step paths and the same number of dice used, on self-play positions of every variant it serves
and on arbitrary positions."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import get_variant, legal_moves, movegen
from nardy.move import Step
from nardy.position import Position
from nardy.variants import registered_variants
from nardy.variants.base import TurnContext, to_state
from nardy.variants.short import ShortNardy

NATIVE = movegen._NATIVE_TURNS
SHORT_BOARD = ("short", "hypergammon", "nackgammon", "portes", "misere")

needs_native = pytest.mark.skipif(NATIVE is None, reason="the C generator is built only with the compiled engine")


def test_the_c_generator_runs_with_the_compiled_build() -> None:
    """scripts/test.sh's compiled run must use it, its pure run must not."""
    expected = os.environ.get("NARDY_EXPECTED_BUILD")
    if expected is None:
        pytest.skip("NARDY_EXPECTED_BUILD is set by scripts/test.sh")
    assert (NATIVE is not None) == (expected == "compiled")


def test_it_serves_exactly_the_variants_that_move_as_short_nardy() -> None:
    served = {variant.name for variant in registered_variants() if movegen._on_short_board(variant)}
    assert served == set(SHORT_BOARD)

    try:

        class Sideways(ShortNardy):
            name = "sideways-test"

            def successors(self, state: bytes, die: int, ctx: TurnContext) -> list[tuple[int, int, bool, bytes]]:
                return super().successors(state, die, ctx)[:1]

        sideways = Sideways()
    except TypeError:  # the compiled build's classes cannot be subclassed by interpreted code
        return
    assert not movegen._on_short_board(sideways)


Turns = tuple[list[tuple[bytes, tuple[Step, ...]]], int]  # the end states with their paths, in order; dice used


def python_turns(position: Position, dice: tuple[int, int], count: int = 4) -> Turns:
    level, used = movegen._turns_in_context(get_variant("short"), to_state(position), dice, TurnContext(), count)
    return list(level.items()), used


def native_turns(position: Position, dice: tuple[int, int], count: int = 4) -> Turns:
    assert NATIVE is not None
    level, used = NATIVE(to_state(position), dice[0], dice[1], count, movegen._STEPS, movegen._new_step)
    return list(level.items()), used


def self_play_positions(variant_name: str, wanted: int, seed: int) -> list[Position]:
    """Return the positions of random self-play games (at least ``wanted`` of them, whole games)."""
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    seen: list[Position] = []
    while len(seen) < wanted:
        position = variant.initial_position()
        for _ply in range(400):
            seen.append(position)
            moves = legal_moves(variant, position, (rng.randint(1, 6), rng.randint(1, 6)))
            if not moves:
                position = position.swapped()
                continue
            after = rng.choice(moves).position
            if variant.borne_off(after.me) == variant.checkers:
                break
            position = after.swapped()
    return seen


ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


@needs_native
@pytest.mark.parametrize("variant_name", SHORT_BOARD)
def test_same_turns_as_python_on_self_play_positions(variant_name: str) -> None:
    positions = self_play_positions(variant_name, wanted=1500, seed=len(variant_name))
    compared = 0
    for index, position in enumerate(positions):
        for dice in ALL_ROLLS[index % 6 :: 6]:
            assert native_turns(position, dice) == python_turns(position, dice), (position.key(), dice)
            compared += 1
    assert compared >= 6 * len(positions)


@needs_native
@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_shortened_double_as_python(count: int) -> None:
    for position in self_play_positions("short", wanted=300, seed=count)[::3]:
        for die in range(1, 7):
            assert native_turns(position, (die, die), count) == python_turns(position, (die, die), count)


def sides() -> st.SearchStrategy[tuple[list[int], list[int]]]:
    """Two sides with up to 15 checkers each, never both on one point (the opponent's q is the mover's 25 - q)."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[list[int], list[int]]:
        me, opp = [0] * 25, [0] * 25
        owner = draw(st.lists(st.sampled_from(["me", "opp", None]), min_size=24, max_size=24))
        for side, name in ((me, "me"), (opp, "opp")):
            slots = [i for i in range(24) if owner[i] == name]
            left = 15
            for slot in draw(st.lists(st.sampled_from([*slots, 24, None]), max_size=15)) if slots else []:
                if slot is None or left == 0:
                    continue
                side[slot if name == "me" else (23 - slot if slot < 24 else 24)] += 1
                left -= 1
        return me, opp

    return build()


@needs_native
@settings(max_examples=400, deadline=None)
@given(sides(), st.sampled_from(ALL_ROLLS))
def test_same_turns_as_python_on_arbitrary_positions(board: tuple[list[int], list[int]], dice: tuple[int, int]) -> None:
    position = Position(tuple(board[0]), tuple(board[1]))
    get_variant("short").validate(position)
    assert native_turns(position, dice) == python_turns(position, dice)


@needs_native
def test_malformed_input_is_refused_with_value_error() -> None:
    assert NATIVE is not None
    start = to_state(get_variant("short").initial_position())
    with pytest.raises(ValueError, match="50 bytes"):
        NATIVE(start[:-1], 3, 1, 4, movegen._STEPS, movegen._new_step)
    with pytest.raises(ValueError, match="byte 3"):
        NATIVE(start[:3] + b"\x10" + start[4:], 3, 1, 4, movegen._STEPS, movegen._new_step)
    with pytest.raises(ValueError, match="not a roll"):
        NATIVE(start, 7, 1, 4, movegen._STEPS, movegen._new_step)
    with pytest.raises(ValueError, match="step table"):
        NATIVE(start, 3, 1, 4, [], movegen._new_step)
    with pytest.raises(TypeError):
        NATIVE("x" * 50, 3, 1, 4, movegen._STEPS, movegen._new_step)  # type: ignore[arg-type]


@needs_native
def test_missing_steps_come_from_the_factory_and_its_errors_propagate() -> None:
    assert NATIVE is not None
    start = to_state(get_variant("short").initial_position())
    table: list[Step | None] = [None] * len(movegen._STEPS)
    made: list[tuple[int, int, int, int, bool]] = []

    def new_step(index: int, src: int, dst: int, die: int, hit: bool) -> Step:
        made.append((index, src, dst, die, hit))
        step = table[index] = Step(src, dst, die, hit)
        return step

    level, used = NATIVE(start, 6, 5, 4, table, new_step)
    assert used == 2 and len(level) == len(legal_moves("short", get_variant("short").initial_position(), (6, 5)))
    assert {(src, dst, die) for _, src, dst, die, _ in made} >= {(24, 18, 6), (18, 13, 5), (13, 7, 6)}
    assert all(index == (src * 27 + dst) * 14 + die * 2 + hit for index, src, dst, die, hit in made)

    def broken(index: int, src: int, dst: int, die: int, hit: bool) -> Step:
        raise RuntimeError("no step")

    with pytest.raises(RuntimeError, match="no step"):
        NATIVE(start, 6, 5, 4, [None] * len(movegen._STEPS), broken)


@needs_native
def test_sides_split_a_state_as_the_position_holds_it() -> None:
    from nardy import _shortgen

    for position in self_play_positions("nackgammon", wanted=200, seed=5):
        assert _shortgen.sides(to_state(position)) == (position.me, position.opp)
    with pytest.raises(ValueError, match="50 bytes"):
        _shortgen.sides(b"\x00" * 49)
    with pytest.raises(ValueError, match="byte 30"):
        _shortgen.sides(b"\x00" * 30 + b"\x20" + b"\x00" * 19)


def python_listing(
    variant_name: str, position: Position, dice: tuple[int, int], count: int = 4
) -> tuple[list[tuple[Step, ...]], list[bytes]]:
    """The Python generator's legal turns as (step paths, end states), empty when the roll is forfeited."""
    variant = get_variant(variant_name)
    ctx = variant.turn_contexts(position, dice, False, movegen.DEFAULT_OPTIONS)[0]
    level, used = movegen._turns_in_context(variant, to_state(position), dice, ctx, count)
    return (list(level.values()), list(level)) if used else ([], [])


def check_listings(variant_name: str, position: Position, dice: tuple[int, int], count: int = 4) -> None:
    """moves, states and count of the C module against the Python generator, and legal_moves' Move objects."""
    from nardy import _shortgen

    paths, states = python_listing(variant_name, position, dice, count)
    d1, d2 = dice
    listed = _shortgen.moves(position.me, position.opp, d1, d2, count, movegen._STEPS, movegen._new_step)
    assert listed is not None
    got_paths, mes, opps = listed
    assert got_paths == paths
    assert [me + opp for me, opp in zip(mes, opps, strict=True)] == [tuple(state) for state in states]
    assert all(type(side) is tuple and all(type(n) is int for n in side) for side in (*mes, *opps))
    assert all(
        opp is position.opp for opp, state in zip(opps, states, strict=True) if state[25:] == bytes(position.opp)
    )
    assert _shortgen.states(position.me, position.opp, d1, d2, count) == states
    assert _shortgen.count(position.me, position.opp, d1, d2, count) == len(states)
    if count == 4:
        moves = legal_moves(variant_name, position, dice)
        assert [(m.steps, to_state(m.position)) for m in moves] == list(zip(paths, states, strict=True))
        assert movegen.legal_states(get_variant(variant_name), position, dice) == states
        assert movegen.count_legal_moves(variant_name, position, dice) == len(states)


@needs_native
@pytest.mark.parametrize("variant_name", SHORT_BOARD)
def test_listing_entry_points_as_python_on_self_play_positions(variant_name: str) -> None:
    for index, position in enumerate(self_play_positions(variant_name, wanted=600, seed=len(variant_name) + 1)):
        for dice in ALL_ROLLS[index % 4 :: 4]:
            check_listings(variant_name, position, dice)
        die = index % 6 + 1
        check_listings(variant_name, position, (die, die), index % 4 + 1)


@needs_native
@settings(max_examples=300, deadline=None)
@given(sides(), st.sampled_from(ALL_ROLLS))
def test_listing_entry_points_as_python_on_arbitrary_positions(
    board: tuple[list[int], list[int]], dice: tuple[int, int]
) -> None:
    position = Position(tuple(board[0]), tuple(board[1]))
    get_variant("short").validate(position)
    check_listings("short", position, dice)


@needs_native
def test_sides_that_are_not_plain_counts_are_left_to_the_python_generator() -> None:
    from nardy import _shortgen

    start = get_variant("short").initial_position()
    split = (*start.me[:22], True, 1, 0)  # the two checkers of point 24 on 23 and 24, one of them counted by a bool
    odd = [
        (split, start.opp),  # a bool where a count should be
        (start.me, (*start.opp, 0)),  # 26 counts
        ((*start.me[:-1], 2**70), start.opp),  # not a small int
        (list(start.me), start.opp),  # not a tuple
    ]
    for me, opp in odd:
        assert _shortgen.moves(me, opp, 3, 1, 4, movegen._STEPS, movegen._new_step) is None  # type: ignore[arg-type]
        assert _shortgen.states(me, opp, 3, 1, 4) is None  # type: ignore[arg-type]
        assert _shortgen.count(me, opp, 3, 1, 4) is None  # type: ignore[arg-type]
    position = Position(*odd[0])  # type: ignore[arg-type]
    expected = [(path, state) for path, state in zip(*python_listing("short", position, (3, 1)), strict=True)]
    assert [(m.steps, to_state(m.position)) for m in legal_moves("short", position, (3, 1))] == expected
    assert movegen.count_legal_moves("short", position, (3, 1)) == len(expected)


@needs_native
def test_listing_entry_points_refuse_a_malformed_call() -> None:
    from nardy import _shortgen

    start = get_variant("short").initial_position()
    me, opp = start.me, start.opp
    with pytest.raises(ValueError, match="not a roll"):
        _shortgen.moves(me, opp, 7, 1, 4, movegen._STEPS, movegen._new_step)
    with pytest.raises(ValueError, match="not a roll"):
        _shortgen.states(me, opp, 3, 0, 4)
    with pytest.raises(ValueError, match="not a roll"):
        _shortgen.count(me, opp, 3, 3, 5)
    with pytest.raises(ValueError, match="step table"):
        _shortgen.moves(me, opp, 3, 1, 4, [], movegen._new_step)
    with pytest.raises(TypeError):
        _shortgen.moves(me, opp, 3, 1, 4, (), movegen._new_step)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _shortgen.states(me, opp, 3, 1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _shortgen.count(me, opp, 3.0, 1, 4)  # type: ignore[arg-type]
