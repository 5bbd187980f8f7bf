"""Properties of the move generator over random positions from self-play games of every variant (hypothesis)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nardy_testkit import LONG, SHORT, Turn, apply_step, cached_game, pip_drop, pos, sides_ok, turns

from nardy import IllegalMoveError, Options, count_legal_moves, get_variant, legal_moves, match_move
from nardy.position import CHECKERS

PROPERTY_SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHORT_SETTINGS = settings(PROPERTY_SETTINGS, max_examples=60)  # short doubles have hundreds of moves to read back


def check_moves(turn: Turn) -> None:
    variant, before = turn.variant, turn.position
    moves = turn.moves()
    plan = turn.plan()
    sides_ok(variant, before)
    assert count_legal_moves(variant, before, turn.dice, first_turn=turn.first_turn, options=turn.options) == len(moves)
    assert len({m.position for m in moves}) == len(moves)  # one move per resulting position
    assert len({len(m.steps) for m in moves}) <= 1  # every legal turn uses the same number of dice
    pool = [turn.dice[0]] * 4 if turn.dice[0] == turn.dice[1] else list(turn.dice)
    for move in moves:
        after = move.position
        # never two colours on a point, and the shape of each side
        sides_ok(variant, after)
        # 15 checkers per side: none appears or vanishes; only bear-offs leave the board, hit checkers go to the bar
        borne_off = sum(1 for s in move.steps if s.dst == 0)
        assert sum(after.me) == sum(before.me) - borne_off
        assert sum(after.opp) == sum(before.opp)
        assert after.me_off == before.me_off + borne_off <= CHECKERS
        # the steps are the dice, and the pip count falls by exactly the pips moved
        used = Counter(s.die for s in move.steps)
        assert all(used[d] <= pool.count(d) for d in used)
        for step in move.steps:
            assert step.src - step.dst == pip_drop(step)
            if step.dst == 0 and step.die > step.src:
                assert not any(c for c in apply_until(turn, move, step).me[step.src : 24])  # from the highest point
        assert before.pips()[0] - after.pips()[0] == sum(pip_drop(s) for s in move.steps)
        # the opponent's pips grow only by hits: a checker hit on our point p was on its 25 - p, and goes to 25
        assert after.pips()[1] - before.pips()[1] == sum(s.dst for s in move.steps if s.hit)
        if variant is LONG:
            assert after.opp == before.opp
            assert not move.hits
        # the steps replayed on the counters give the same position
        replayed = before
        for step in move.steps:
            replayed = apply_step(variant, replayed, step)
        assert replayed == after
        # the canonical notation reads back as the same move
        assert match_move(plan, move.notation).position == after, move.notation
    if not moves:
        assert plan.forfeited


def apply_until(turn: Turn, move: object, step: object) -> object:
    """Return the position just before ``step`` of ``move``."""
    position = turn.position
    for s in move.steps:  # type: ignore[attr-defined]
        if s is step:
            return position
        position = apply_step(turn.variant, position, s)
    raise AssertionError("step not in move")


@SHORT_SETTINGS
@given(turns("short"))
def test_short_properties(turn: Turn) -> None:
    check_moves(turn)


@PROPERTY_SETTINGS
@given(turns("long"))
def test_long_properties(turn: Turn) -> None:
    check_moves(turn)


SIX_VARIANTS = ["short", "long", "hypergammon", "nackgammon", "portes", "misere"]
"""Short and long nardy, and the variants of docs/rules.md §6 registered so far (all on the short-nardy board)."""


@SHORT_SETTINGS
@pytest.mark.parametrize("variant", SIX_VARIANTS[2:])
@given(data=st.data())
def test_variant_properties(variant: str, data: st.DataObject) -> None:
    """Checker conservation, one colour per point, at most the variant's checkers a side, pips and notation."""
    turn = data.draw(turns(variant))
    check_moves(turn)
    for move in turn.moves():
        assert sum(move.position.me) <= turn.variant.checkers and sum(move.position.opp) <= turn.variant.checkers


@pytest.mark.parametrize("variant", SIX_VARIANTS)
def test_properties_over_whole_games(variant: str) -> None:
    """Every ply of a few cached games, with the roll the game had."""
    for seed in range(3):
        game = cached_game(variant, seed)
        for turn in game[::2]:
            check_moves(turn)


@pytest.mark.parametrize("variant", SIX_VARIANTS)
def test_games_keep_the_invariants(variant: str) -> None:
    """Along a game: the borne-off count of each player never falls, and every position is valid."""
    var = get_variant(variant)
    for seed in range(6):
        game = cached_game(variant, seed)
        off = [0, 0]  # borne off by the mover of even and odd plies
        for turn in game:
            sides_ok(var, turn.position)
            mover = turn.ply % 2
            assert turn.position.me_off >= off[mover]
            assert turn.position.opp_off >= off[1 - mover]
            off[mover], off[1 - mover] = turn.position.me_off, turn.position.opp_off


def test_dice_are_checked() -> None:
    start = SHORT.initial_position()
    for dice in [(0, 3), (7, 1), (3,), (1, 2, 3), (True, 2), (1.0, 2)]:
        with pytest.raises(IllegalMoveError):
            legal_moves(SHORT, start, dice)  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError):
            count_legal_moves(SHORT, start, dice)  # type: ignore[arg-type]


def test_variant_by_name() -> None:
    start = SHORT.initial_position()
    assert len(legal_moves("short", start, (3, 1))) == len(legal_moves("backgammon", start, [3, 1])) == 16
    assert count_legal_moves("длинные", LONG.initial_position(), (6, 6), first_turn=True) == 1


@pytest.mark.parametrize(
    ("dice", "count"),
    [((2, 1), 15), ((3, 1), 16), ((4, 1), 14), ((5, 1), 8), ((6, 1), 10), ((3, 2), 17), ((4, 2), 18)],
)
def test_short_opening_counts(dice: tuple[int, int], count: int) -> None:
    assert count_legal_moves(SHORT, SHORT.initial_position(), dice) == count


def test_doubles_play_four() -> None:
    for d in range(1, 7):
        for move in legal_moves(SHORT, SHORT.initial_position(), (d, d)):
            assert len(move.steps) == 4


def test_end_of_turn_block_check_option_is_used() -> None:
    position = pos({24: 10, 23: 1, 22: 1, 3: 1, 1: 1, 8: 1}, {24: 14, 19: 1})
    per_move = count_legal_moves(LONG, position, (6, 1))
    end_of_turn = count_legal_moves(LONG, position, (6, 1), options=Options(block_check="end_of_turn"))
    assert end_of_turn == per_move + 1
