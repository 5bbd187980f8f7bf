"""Plakoto (docs/rules.md §6.2): pinning instead of hitting, the mother rule, bear-off with pinned checkers.

A plain reference generator written straight from §6.2 (every order of the dice, every checker, the must-play rules
of §1 on the whole set of results; no code shared with the engine's successors) is compared with the engine on
thousands of positions from seeded self-play. Then worked examples written from §6.2, games through
:class:`nardy.Game` with scripted dice (results, save/load, replay), ids, typed moves, the text board, and hypothesis
properties (checker conservation, valid positions, every random game ends).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

import pytest
from class_docs import class_docstring
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy import (
    FixedDice,
    Game,
    IllegalMoveError,
    InvalidPositionError,
    Move,
    Options,
    Phase,
    Position,
    SeededDice,
    TurnPlan,
    get_variant,
    legal_moves,
    match_move,
    position_from_any_id,
    variant_position_id,
)
from nardy.errors import ILLEGAL_MOVE_CODES
from nardy.game_record import replay
from nardy.movegen import all_step_sequences
from nardy.textboard import draw_position
from nardy.variants import GameValue

PLAKOTO = get_variant("plakoto")
PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def side(free: dict[int, int], pinned: set[int] | frozenset[int] = frozenset()) -> tuple[int, ...]:
    """Return a 49-entry Plakoto side from ``{point: free checkers}`` and the points where one of its checkers is
    pinned (the side's own frame), written out by hand from the layout of nardy/position.py."""
    entries = [0] * 49
    for point, count in free.items():
        entries[point - 1] = count
    for point in pinned:
        entries[25 + point - 1] = 1
    return tuple(entries)


def ppos(
    me: dict[int, int],
    opp: dict[int, int],
    me_pinned: set[int] | frozenset[int] = frozenset(),
    opp_pinned: set[int] | frozenset[int] = frozenset(),
) -> Position:
    """Return a Plakoto position (each side in its own frame) and check that it is valid."""
    position = Position(side(me, me_pinned), side(opp, opp_pinned))
    PLAKOTO.validate(position)
    return position


def moves_of(position: Position, dice: tuple[int, int]) -> set[str]:
    return {m.notation for m in legal_moves(PLAKOTO, position, dice)}


def only_move(position: Position, dice: tuple[int, int], text: str) -> Move:
    """Return the legal turn ``text`` names (typed as a user would)."""
    return match_move(TurnPlan(PLAKOTO, position, dice), text)


# ---------------------------------------------------------------------------------------------------------------
# the reference generator: a board of 24 points in the mover's frame


@dataclass(frozen=True)
class Board:
    """The mover's view: free checkers of each side on points 1..24 and who (if anyone) is pinned there."""

    mine: tuple[int, ...]  # mine[t - 1]: the mover's free checkers on its point t
    theirs: tuple[int, ...]  # theirs[t - 1]: the opponent's free checkers on the mover's point t
    pinned: tuple[str, ...]  # pinned[t - 1]: "me", "opp" or "" (whose checker lies pinned on the mover's point t)


def board_of(position: Position) -> Board:
    """Read a position into a Board (the opponent's point q is the mover's 25 - q)."""
    me, opp = position.me, position.opp
    mine = tuple(me[t - 1] for t in range(1, 25))
    theirs = tuple(opp[25 - t - 1] for t in range(1, 25))
    pinned = tuple("me" if me[25 + t - 1] else "opp" if opp[25 + (25 - t) - 1] else "" for t in range(1, 25))
    return Board(mine, theirs, pinned)


def position_of(board: Board) -> Position:
    """Write a Board back as a position of 49-entry sides."""
    me = side({t: board.mine[t - 1] for t in range(1, 25)}, {t for t in range(1, 25) if board.pinned[t - 1] == "me"})
    opp = side(
        {25 - t: board.theirs[t - 1] for t in range(1, 25)},
        {25 - t for t in range(1, 25) if board.pinned[t - 1] == "opp"},
    )
    return Position(me, opp)


def ref_step(board: Board, src: int, die: int) -> Board | None:
    """Return the board after moving one of the mover's checkers from ``src`` by ``die``, or None when §6.2 (and
    §1 for bearing off) forbids it."""
    mine, theirs, pinned = list(board.mine), list(board.theirs), list(board.pinned)
    if mine[src - 1] == 0:  # no free checker there (a pinned one cannot move)
        return None
    dst = src - die
    if dst >= 1:
        if theirs[dst - 1] >= 2:  # two or more opposing checkers close the point
            return None
        if pinned[dst - 1] == "me":  # a pinned point is closed to the pinned side
            return None
        if theirs[dst - 1] == 1:  # a lone opposing checker is pinned
            theirs[dst - 1] = 0
            pinned[dst - 1] = "opp"
        mine[dst - 1] += 1
    else:
        all_home = sum(mine[6:]) == 0 and "me" not in pinned
        if not all_home:
            return None
        if dst < 0 and any(mine[src:]):  # a higher checker must be moved first
            return None
    mine[src - 1] -= 1
    if mine[src - 1] == 0 and pinned[src - 1] == "opp":  # the last pinner left: the pinned checker is free
        pinned[src - 1] = ""
        theirs[src - 1] = 1
    return Board(tuple(mine), tuple(theirs), tuple(pinned))


@cache
def ref_turns(board: Board, dice: tuple[int, int]) -> dict[int, set[tuple[int, Board]]]:
    """Return ``{dice used: {(first die played, end board)}}`` over every order of the dice and every checker."""
    pool = (dice[0],) * 4 if dice[0] == dice[1] else dice
    out: dict[int, set[tuple[int, Board]]] = {}
    seen: set[tuple[Board, tuple[int, ...], int]] = set()

    def walk(now: Board, left: tuple[int, ...], used: int, first: int) -> None:
        if (now, left, first) in seen:
            return
        seen.add((now, left, first))
        out.setdefault(used, set()).add((first, now))
        for index, die in enumerate(left):
            rest = left[:index] + left[index + 1 :]
            for src in range(1, 25):
                new = ref_step(now, src, die)
                if new is not None:
                    walk(new, rest, used + 1, first or die)

    walk(board, tuple(pool), 0, 0)
    return out


def ref_legal(position: Position, dice: tuple[int, int]) -> tuple[int, set[Position]]:
    """Return the dice the turn must use and its legal end positions (empty: the roll is forfeited): as many dice
    as possible, and when only one of two different dice can be played, the larger if it can."""
    found = ref_turns(board_of(position), dice)
    most = max(found)
    if most == 0:
        return 0, set()
    ends = found[most]
    if dice[0] != dice[1] and most == 1:
        for die in sorted(dice, reverse=True):
            chosen = {board for first, board in ends if first == die}
            if chosen:
                return 1, {position_of(b) for b in chosen}
    return most, {position_of(board) for _, board in ends}


def test_reference_reads_and_writes_positions_faithfully() -> None:
    position = ppos({24: 10, 13: 2, 5: 1}, {24: 12, 19: 1, 2: 1}, opp_pinned={20}, me_pinned={1})
    board = board_of(position)
    assert board.pinned[5 - 1] == "opp" and board.pinned[1 - 1] == "me" and board.pinned.count("") == 22
    assert board.theirs[6 - 1] == 1 and board.theirs[23 - 1] == 1 and board.theirs[1 - 1] == 12
    assert board.mine[24 - 1] == 10 and board.mine[5 - 1] == 1
    assert position_of(board) == position


# ---------------------------------------------------------------------------------------------------------------
# the corpus: seeded self-play, stopped by a bear-off or the mother rule


@dataclass(frozen=True)
class Ply:
    position: Position
    dice: tuple[int, int]
    seed: int
    ply: int


def _score(move: Move, style: str) -> int:
    me = move.position.me
    if style == "pinner":  # pin whatever can be pinned, and keep the mother at home
        return 10 * move.hits + me[23]
    return -sum(me[i] * (i + 1) for i in range(24))  # runner: race home


def self_play(seed: int, max_plies: int = 400) -> list[Ply]:
    """Return the plies of one seeded game with random or greedy legal moves."""
    rng = random.Random(f"plakoto-{seed}")
    style = rng.choice(("random", "random", "pinner", "runner"))
    greed = 0.0 if style == "random" else rng.choice((0.5, 0.9))
    position = PLAKOTO.initial_position()
    out: list[Ply] = []
    for ply in range(max_plies):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append(Ply(position, dice, seed, ply))
        moves = legal_moves(PLAKOTO, position, dice)
        if moves:
            if rng.random() < greed:
                best = max(_score(m, style) for m in moves)
                moves = [m for m in moves if _score(m, style) == best]
            position = rng.choice(moves).position
            if sum(position.me) == 0 or PLAKOTO.sudden_result(position, Options()) is not None:
                break
        position = position.swapped()
    return out


def _corpus() -> list[Ply]:
    plies = [p for seed in range(50) for p in self_play(seed)]
    rng = random.Random(5)
    # the same positions again with another roll, doubles favoured
    again = []
    for p in plies[::2]:
        d = rng.randint(1, 6)
        dice = (d, d) if rng.random() < 0.4 else (rng.randint(1, 6), rng.randint(1, 6))
        again.append(Ply(p.position, dice, p.seed, -p.ply))
    return plies + again


CORPUS = _corpus()


def test_corpus_is_varied() -> None:
    positions = {p.position for p in CORPUS}
    assert len(CORPUS) > 5000 and len(positions) > 3000
    pins = [p for p in CORPUS if any(p.position.me[25:]) or any(p.position.opp[25:])]
    assert len(pins) > 1000
    pinned_mover = [p for p in CORPUS if any(p.position.me[25:])]
    assert len(pinned_mover) > 300
    bearing = [p for p in CORPUS if not any(p.position.me[6:24])]
    assert len(bearing) > 100
    assert sum(1 for p in bearing if any(p.position.me[25:])) > 10  # bear-off stopped by a pinned checker
    assert sum(p.dice[0] == p.dice[1] for p in CORPUS) > 800
    mothers = [p for p in CORPUS if p.position.opp[48] or p.position.me[48]]
    assert len(mothers) > 20  # play going on with a pinned mother


def test_corpus_exercises_the_must_play_rules() -> None:
    larger = smaller_only = partial_doubles = 0
    for p in CORPUS:
        found = ref_turns(board_of(p.position), p.dice)
        if p.dice[0] == p.dice[1]:
            partial_doubles += 0 < max(found) < 4
        elif max(found) == 1:
            firsts = {first for first, _ in found[1]}
            larger += len(firsts) == 2  # either die alone: the larger must be played
            smaller_only += firsts == {min(p.dice)}
    assert larger >= 5 and smaller_only >= 20 and partial_doubles >= 20


@pytest.mark.parametrize("chunk", range(6))
def test_engine_matches_reference(chunk: int) -> None:
    for p in CORPUS[chunk::6]:
        plan = TurnPlan(PLAKOTO, p.position, p.dice)
        ours = {m.position for m in plan.moves()}
        used, expected = ref_legal(p.position, p.dice)
        assert ours == expected, p
        assert plan.length == used, p
        assert plan.forfeited == (used == 0), p


def test_every_corpus_position_is_valid_and_conserves_checkers() -> None:
    for p in CORPUS:
        PLAKOTO.validate(p.position)
        for position_side in (p.position.me, p.position.opp):
            assert len(position_side) == 49 and sum(position_side) <= 15


def test_step_sequences_agree_with_the_turns_on_a_sample() -> None:
    """The step-wise API (button UIs) reaches exactly the legal turns, through single legal steps."""
    for p in CORPUS[::80]:
        plan = TurnPlan(PLAKOTO, p.position, p.dice)
        ends = {plan.position_after(seq) for seq in all_step_sequences(plan)}
        assert ends == ({m.position for m in plan.moves()} if not plan.forfeited else {p.position}), p


# ---------------------------------------------------------------------------------------------------------------
# the registry, setup, defaults


def test_registered_with_its_names_and_defaults() -> None:
    assert get_variant("плакото") is PLAKOTO and get_variant("PLAKOTO") is PLAKOTO
    assert PLAKOTO.name == "plakoto" and PLAKOTO.titles == {"en": "Plakoto", "ru": "плакото"}
    assert PLAKOTO.id_prefix == "P1" and PLAKOTO.side_length == 49
    assert PLAKOTO.geometry == "opposite" and not PLAKOTO.has_bar
    assert not PLAKOTO.cube_enabled(Options()) and PLAKOTO.cube_enabled(Options(cube=True))
    assert PLAKOTO.opening_rerolls and PLAKOTO.resign_levels == ("single", "gammon")
    assert "docs/rules.md §6.2" in class_docstring(type(PLAKOTO))
    assert {"pinned", "bear_off_pinned"} <= set(ILLEGAL_MOVE_CODES)


def test_setup_is_all_fifteen_on_the_mother() -> None:
    start = PLAKOTO.initial_side()
    assert len(start) == 49 and start[23] == 15 and sum(start) == 15
    position = PLAKOTO.initial_position()
    assert position.pips() == (360, 360)
    assert moves_of(position, (6, 4)) == {"24/18/14", "24/20 24/18"}
    # four sixes from the mother: no checker may bear off, so none goes further than 6
    assert moves_of(position, (6, 6)) == {"24/18(4)", "24/18(2) 24/18/12", "24/18/12(2)", "24/18 24/18/12/6"}


# ---------------------------------------------------------------------------------------------------------------
# worked examples of §6.2


def test_pinning_a_lone_checker() -> None:
    # the opponent has one checker on its 6, the mover's 19
    position = ppos({24: 14, 13: 1}, {24: 12, 6: 1, 8: 2})
    move = only_move(position, (5, 2), "24/19* 13/11")
    assert move.notation == "24/19* 13/11" and move.hits == 1 and move.steps[0].hit
    after = move.position
    assert after.me[19 - 1] == 1 and after.opp[6 - 1] == 0 and after.opp[25 + 6 - 1] == 1
    assert sum(after.opp) == 15  # a pinned checker is not removed from play
    assert only_move(position, (5, 2), "24/19 13/11") == move  # the star may be left out
    # two opposing checkers close a point: the opponent's 8 is the mover's 17 (24/17 via 22 or 19 is not played)
    assert not any(step.dst == 17 for m in legal_moves(PLAKOTO, position, (5, 2)) for step in m.steps)


def test_the_pinner_may_stack_on_the_pinned_point() -> None:
    position = ppos({24: 13, 19: 1, 13: 1}, {24: 14}, opp_pinned={6})
    move = only_move(position, (5, 6), "24/19 19/13")
    assert move.position.me[19 - 1] == 1 and move.position.opp[25 + 6 - 1] == 1
    stacked = only_move(position, (5, 5), "24/19(3) 13/8")
    assert stacked.position.me[19 - 1] == 4 and stacked.position.opp[25 + 6 - 1] == 1


def test_a_pinned_point_is_closed_to_the_pinned_side_and_the_pinned_checker_stays() -> None:
    # the mover's checker on 6 is pinned under one opposing checker (on the opponent's 19)
    position = ppos({24: 12, 8: 2}, {24: 14, 19: 1}, me_pinned={6})
    found = legal_moves(PLAKOTO, position, (2, 1))
    assert found
    for move in found:
        assert all(step.src != 6 and step.dst != 6 for step in move.steps)
        assert move.position.me[25 + 6 - 1] == 1
    with pytest.raises(IllegalMoveError) as caught:
        only_move(position, (2, 1), "8/6 8/7")
    assert caught.value.code == "blocked" and "pinned" in str(caught.value)
    with pytest.raises(IllegalMoveError) as caught:
        only_move(position, (2, 1), "6/4 8/7")
    assert caught.value.code == "pinned"


def test_the_pinned_checker_is_freed_when_the_last_pinner_leaves() -> None:
    position = ppos({24: 13, 19: 2}, {24: 14}, opp_pinned={6})
    one_left = only_move(position, (6, 1), "19/13 24/23").position
    assert one_left.opp[25 + 6 - 1] == 1  # one pinner is enough
    still = only_move(position, (6, 4), "19/13 19/15").position
    assert still.opp[25 + 6 - 1] == 0 and still.opp[6 - 1] == 1  # free again, on its own point 6
    PLAKOTO.validate(still)
    # and it moves again at the opponent's next turn (from its own point 6)
    assert any(step.src == 6 for m in legal_moves(PLAKOTO, still.swapped(), (5, 1)) for step in m.steps)


def test_a_pinned_checker_stops_the_bear_off() -> None:
    # 14 at home and one pinned on 3 under the opponent's lone checker on its 22
    position = ppos({6: 3, 5: 3, 4: 4, 2: 4}, {1: 14, 22: 1}, me_pinned={3})
    assert moves_of(position, (6, 5)) == {"6/1"}  # the 6 cannot bear off and nothing else moves 6
    with pytest.raises(IllegalMoveError) as caught:
        only_move(position, (6, 5), "6/off 6/1")
    assert caught.value.code == "bear_off_pinned"
    # once the pinner has gone, the bear-off goes on
    freed = ppos({6: 3, 5: 3, 4: 4, 3: 1, 2: 4}, {1: 14, 18: 1})
    assert moves_of(freed, (6, 5)) == {"6/1 6/off", "6/off 5/off"}


def test_a_checker_pinned_during_the_bear_off() -> None:
    # the opponent (to move here) has a runner on its 21; the mover-to-be bears off with a blot on its 5 (the
    # opponent's 20) and two on its 3
    runner = ppos({21: 1, 7: 2, 1: 12}, {5: 1, 3: 2})
    assert moves_of(runner, (2, 1)) == {"21/20* 7/5", "21/19 7/6", "21/19/18", "7/5/4", "7/6 7/5"}
    bearing = only_move(runner, (2, 1), "21/20* 7/5").position.swapped()
    assert bearing.me[25 + 5 - 1] == 1
    assert legal_moves(PLAKOTO, bearing, (6, 5)) == []  # no bear-off while pinned: the roll is forfeited
    assert moves_of(bearing, (2, 1)) == {"3/2 3/1"}
    with pytest.raises(IllegalMoveError) as caught:
        only_move(bearing, (6, 5), "3/off 3/off")
    assert "no move is possible" in str(caught.value)
    with pytest.raises(IllegalMoveError) as caught:
        only_move(bearing, (3, 1), "3/off 3/2")
    assert caught.value.code == "bear_off_pinned" and "point 5" in str(caught.value)
    # the pinner moves on: the blot is free and the bear-off resumes
    freed = only_move(bearing.swapped(), (6, 5), "20/14 7/2").position.swapped()
    assert freed.me[5 - 1] == 1 and not any(freed.me[25:])
    assert moves_of(freed, (6, 5)) == {"5/off 3/off"}


def test_the_mother_pinned_while_the_pinners_mother_is_exposed() -> None:
    # the opponent's last checker on its 24 is the mover's point 1; the mover pins it with 3/1 but still has
    # checkers on its own 24, so play goes on
    position = ppos({24: 2, 13: 10, 3: 1, 6: 2}, {24: 1, 11: 14})
    move = only_move(position, (2, 1), "3/1* 6/5")
    assert move.position.opp[25 + 24 - 1] == 1
    assert PLAKOTO.sudden_result(move.position, Options()) is None
    # the pinner's last checkers then leave its 24: the pinned side loses 2
    later = ppos({24: 2, 13: 10, 5: 1, 6: 1, 1: 1}, {11: 14}, opp_pinned={24})
    gone = only_move(later, (6, 5), "24/18 24/19").position
    assert PLAKOTO.sudden_result(gone, Options()) == (0, GameValue("gammon", 2), "mother")
    half = only_move(later, (6, 5), "24/18/13").position
    assert PLAKOTO.sudden_result(half, Options()) is None  # one checker still on 24


def test_the_immediate_mother_loss() -> None:
    position = ppos({13: 10, 3: 1, 6: 4}, {24: 1, 11: 14})
    move = only_move(position, (2, 1), "3/1* 6/5")
    assert PLAKOTO.sudden_result(move.position, Options()) == (0, GameValue("gammon", 2), "mother")
    # seen from the other side, the same position is the mover's own loss
    assert PLAKOTO.sudden_result(move.position.swapped(), Options()) == (1, GameValue("gammon", 2), "mother")


def test_the_draw_when_both_mothers_are_pinned() -> None:
    # the mover's mother is pinned (by the opponent, whose own 24 still holds one checker): the mover pins it too
    position = ppos({13: 10, 3: 1, 6: 3}, {24: 1, 11: 13, 1: 1}, me_pinned={24})
    move = only_move(position, (2, 1), "3/1* 6/5")
    assert PLAKOTO.sudden_result(move.position, Options()) == (None, GameValue("draw", 0), "mother")


def test_no_mother_rule_without_a_pinned_mother() -> None:
    assert PLAKOTO.sudden_result(PLAKOTO.initial_position(), Options()) is None
    position = ppos({13: 10, 3: 1, 6: 4}, {24: 2, 11: 13})
    assert PLAKOTO.sudden_result(position, Options()) is None


# ---------------------------------------------------------------------------------------------------------------
# validation


@pytest.mark.parametrize(
    ("me", "opp", "message"),
    [
        (side({24: 15}), side({24: 15})[:25], "counters"),
        (side({24: 16}), side({24: 15}), "more than 15"),
        (side({24: 14, 25: 1}), side({24: 15}), "bar"),
        (side({24: 14, 1: 1}), side({24: 15}), "both colours"),  # the mover's 1 is the opponent's 24
        (side({24: 14}, {6: 1}), side({24: 15}), "no opposing checker"),
        (side({24: 13, 6: 1}, {6: 1}), side({24: 15}), "beside free ones"),
        (side({24: 14}, {6: 1}), side({24: 13, 19: 1}, {19: 1}), "both sides"),
        (tuple(2 if i == 30 else c for i, c in enumerate(side({24: 13}))), side({24: 14, 19: 1}), "0 or 1"),
    ],
)
def test_validate_refuses_impossible_positions(me: tuple[int, ...], opp: tuple[int, ...], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        PLAKOTO.validate(Position(me, opp))


def test_validate_accepts_pins_of_either_side() -> None:
    PLAKOTO.validate(ppos({24: 13, 19: 1}, {24: 14}, opp_pinned={6}))
    PLAKOTO.validate(ppos({24: 14}, {24: 12, 6: 2}, me_pinned={19}))
    PLAKOTO.validate(ppos({13: 13, 1: 1}, {11: 13, 1: 1}, me_pinned={24}, opp_pinned={24}))


# ---------------------------------------------------------------------------------------------------------------
# typed moves, notation, ids, the text board


def test_typed_moves() -> None:
    start = PLAKOTO.initial_position()
    assert only_move(start, (6, 4), "24/18 24/20").notation == "24/20 24/18"
    assert only_move(start, (6, 4), "24-18-14").notation == "24/18/14"
    position = ppos({24: 14, 13: 1}, {24: 13, 18: 1, 8: 1})  # the opponent's 18 is the mover's 7
    for text in ("13/7* 24/21", "13/7 24/21", "13 7 24 21", "13-7* 24-21", "24/21 13/7*"):
        move = only_move(position, (6, 3), text)
        assert move.notation == "24/21 13/7*" and move.hits == 1
    with pytest.raises(IllegalMoveError, match="no blot"):
        only_move(position, (6, 3), "24/21* 13/7")  # nothing to pin on 21


def test_position_ids_round_trip() -> None:
    seen = 0
    for p in CORPUS[::25]:
        text = variant_position_id("plakoto", p.position)
        assert text.startswith("P1") and len(text) == 24
        assert position_from_any_id(text) == ("plakoto", p.position)
        seen += any(p.position.me[25:]) or any(p.position.opp[25:])
    assert seen > 10
    assert TurnPlan(PLAKOTO, CORPUS[0].position, (3, 1)).position_id == variant_position_id(
        "plakoto", CORPUS[0].position
    )


def test_text_board_shows_pins() -> None:
    position = ppos({24: 12, 19: 2}, {24: 13, 20: 1}, opp_pinned={6}, me_pinned={5})
    text = draw_position(position, PLAKOTO, dice=(3, 1))
    assert "X2o" in text  # the mover's two on 19 pin the opponent's checker
    assert "O1x" in text  # the opponent's checker on the mover's 5 pins the mover's
    assert "O13" in text and "X12" in text
    assert "pips" in text and "dice: 3-1" in text


# ---------------------------------------------------------------------------------------------------------------
# games through nardy.Game


def scripted(sides: tuple[tuple[int, ...], tuple[int, ...]], dice: list[int], **kw: object) -> Game:
    """Return a Plakoto game at player 0's roll with the given sides (each in its own frame)."""
    PLAKOTO.validate(Position(sides[0], sides[1]))
    game = Game("plakoto", dice=FixedDice(dice), **kw)  # type: ignore[arg-type]
    game.sides = [sides[0], sides[1]]
    game.phase, game.roller, game.turn, game.first_player, game.moves_played = Phase.ROLL, 0, 0, 0, 1
    return game


def test_a_game_from_the_opening() -> None:
    game = Game("plakoto", dice=FixedDice([5, 3, 6, 4, 3, 1]))
    game.roll()  # the opening roll: player 0 wins it and rolls both dice afresh
    assert game.phase is Phase.ROLL and game.roller == 0
    assert game.roll() == (6, 4)
    assert game.position_id().startswith("P1")
    game.play("24/18 24/20")
    assert game.roller == 1 and game.roll() == (3, 1)
    game.play("24/21 24/23")
    assert game.sides[1][20] == 1 and game.sides[1][22] == 1
    restored = Game.from_dict(game.to_dict(), verify=True)
    assert restored.sides == game.sides and restored.phase is Phase.ROLL


def test_game_mother_exposed_then_the_pinner_leaves_its_mother() -> None:
    start = (side({24: 2, 13: 10, 3: 1, 6: 2}), side({24: 1, 11: 14}))
    # player 0: 2-1 pins the mother; player 1: 6-5 elsewhere; player 0: 6-5 leaves its own 24 (pinning again)
    game = scripted(start, [2, 1, 6, 5, 6, 5])
    game.roll()
    game.play("3/1* 6/5")
    assert game.phase is Phase.ROLL and game.roller == 1 and game.sides[1][48] == 1 and game.result is None
    game.roll()
    game.play("11/5 11/6")
    assert game.phase is Phase.ROLL and game.result is None
    game.roll()
    game.play("24/18 24/19*")
    assert game.phase is Phase.OVER and game.result is not None
    assert (game.result.winner, game.result.kind, game.result.value, game.result.points, game.result.reason) == (
        0,
        "gammon",
        2,
        2.0,
        "mother",
    )
    again = Game.from_dict(game.to_dict())  # restored from its snapshot (the sides were set by hand)
    assert again.result == game.result and again.sides == game.sides


def test_game_immediate_mother_loss_with_the_cube() -> None:
    start = (side({13: 10, 3: 1, 6: 4}), side({24: 1, 11: 14}))
    game = scripted(start, [2, 1], options=Options(cube=True))
    game.cube_value = 2
    game.roll()
    game.play("3/1* 6/5")
    assert game.result is not None
    assert (game.result.winner, game.result.kind, game.result.points, game.result.reason) == (
        0,
        "gammon",
        4.0,
        "mother",
    )


def test_game_draw_when_both_mothers_are_pinned() -> None:
    start = (side({13: 10, 3: 1, 6: 3}, {24}), side({24: 1, 11: 13, 1: 1}))
    game = scripted(start, [2, 1])
    game.roll()
    game.play("3/1 6/5")
    assert game.result is not None
    assert (game.result.winner, game.result.kind, game.result.value, game.result.points, game.result.reason) == (
        None,
        "draw",
        0,
        0.0,
        "mother",
    )
    assert Game.from_dict(game.to_dict()).result == game.result


def play_random(game: Game, rng: random.Random, max_actions: int = 5000) -> None:
    """Play ``game`` to its end with random legal moves, checking the position after every move."""
    for _ in range(max_actions):
        if game.phase is Phase.OVER:
            return
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        else:
            assert game.phase is Phase.MOVE
            game.play(rng.choice(game.legal_moves()))
            PLAKOTO.validate(game.position)
            assert all(len(s) == 49 and sum(s) <= 15 for s in game.sides)
    raise AssertionError("the game did not end")


def _finished_games() -> dict[str, Game]:
    """Return the first seeded random game to end in each way: bear-off, a mother loss, a mother draw."""
    found: dict[str, Game] = {}
    for seed in range(200):
        game = Game("plakoto", dice=SeededDice(seed))
        play_random(game, random.Random(seed))
        assert game.result is not None
        found.setdefault("draw" if game.result.winner is None else game.result.reason, game)
        if len(found) == 3:
            break
    return found


def test_seeded_games_end_in_every_way_and_round_trip() -> None:
    games = _finished_games()
    assert set(games) == {"bearoff", "mother", "draw"}
    assert games["mother"].result is not None and games["mother"].result.points == 2
    assert games["draw"].result is not None and games["draw"].result.points == 0
    assert games["draw"].result.reason == "mother" and games["draw"].result.kind == "draw"
    for game in games.values():
        data = game.to_dict()
        assert Game.from_dict(data, verify=True).result == game.result
        compact = Game.from_dict(game.to_dict(compact=True))
        assert compact.result == game.result and compact.sides == game.sides
        states = replay(data)
        assert states[-1].result == game.result and len(states) == len(game.history) + 1
        assert all(PLAKOTO.validate(Position(g.sides[0], g.sides[1])) is None for g in states)


def test_a_game_in_progress_round_trips() -> None:
    game = Game("plakoto", dice=SeededDice(11))
    rng = random.Random(11)
    while game.moves_played < 30:
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        else:
            game.play(rng.choice(game.legal_moves()))
    assert game.phase is not Phase.OVER
    if game.phase is not Phase.MOVE:
        game.roll()
    data = game.to_dict()
    again = Game.from_dict(data, verify=True, dice=SeededDice(11))
    assert again.snapshot() == game.snapshot()
    assert {m.position for m in again.legal_moves()} == {m.position for m in game.legal_moves()}
    assert replay(data)[-1].snapshot() == game.snapshot()


def test_game_bear_off_single_and_gammon() -> None:
    single = scripted((side({1: 1}), side({20: 14})), [1, 2])
    single.roll()
    single.play("1/off")
    assert single.result is not None and (single.result.kind, single.result.points) == ("single", 1)
    gammon = scripted((side({1: 1}), side({20: 14, 23: 1})), [1, 2])
    gammon.roll()
    gammon.play("1/off")
    assert gammon.result is not None and (gammon.result.kind, gammon.result.points, gammon.result.reason) == (
        "gammon",
        2,
        "bearoff",
    )


def test_game_forfeit_while_pinned() -> None:
    # the mover's only free checkers stand on its 1 and it cannot bear off (one pinned on 3): every roll passes
    start = (side({1: 14}, {3}), side({22: 1, 11: 14}))
    game = scripted(start, [6, 5, 1, 1])
    game.roll()
    assert game.phase is Phase.ROLL and game.roller == 1 and game.history[-1] == {"t": "pass"}


def test_resignation_levels() -> None:
    game = scripted((side({1: 1}), side({20: 15})), [1, 2])
    assert game.resign_levels() == ("single", "gammon")
    game.resign(0, "gammon")
    game.accept_resignation()
    assert game.result is not None and game.result.points == 2


# ---------------------------------------------------------------------------------------------------------------
# properties


@st.composite
def corpus_turns(draw: st.DrawFn) -> tuple[Position, tuple[int, int]]:
    p = draw(st.sampled_from(CORPUS))
    dice = draw(st.one_of(st.tuples(st.integers(1, 6), st.integers(1, 6)), st.integers(1, 6).map(lambda d: (d, d))))
    return p.position, dice


@PROPERTY_SETTINGS
@given(corpus_turns())
def test_moves_conserve_checkers_and_keep_positions_valid(turn: tuple[Position, tuple[int, int]]) -> None:
    position, dice = turn
    for move in legal_moves(PLAKOTO, position, dice):
        PLAKOTO.validate(move.position)
        off = sum(step.dst == 0 for step in move.steps)
        assert sum(move.position.me) == sum(position.me) - off
        assert sum(move.position.opp) == sum(position.opp)  # pinned checkers stay in play
        # step by step, a step pins exactly when it lands on a lone opposing checker (read by the reference)
        board: Board | None = board_of(position)
        for step in move.steps:
            assert board is not None
            assert step.hit == (step.dst >= 1 and board.theirs[step.dst - 1] == 1), move
            board = ref_step(board, step.src, step.die)
        assert board is not None and position_of(board) == move.position
        assert all(step.src != 25 and step.dst != 25 for step in move.steps)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_every_random_game_ends(seed: int) -> None:
    game = Game("plakoto", dice=SeededDice(seed))
    play_random(game, random.Random(seed))
    assert game.phase is Phase.OVER and game.result is not None
    assert game.result.reason in ("bearoff", "mother")
    if game.result.reason == "bearoff":
        assert game.result.kind in ("single", "gammon")
    else:
        assert game.result.kind in ("gammon", "draw")
