"""Short nardy against GNU Backgammon's own move generator (PyPI ``gnubg-nn``, GPL: used here only as an oracle).

Our ``Position(me, opp)`` is the gnubg board ``[opp, me]`` (board[1] is the player on roll, both sides in their own
frame); ``gnubg_nn.moves(board, d1, d2)`` returns the position keys of every distinct resulting position, decoded by
``gnubg_nn.boardfromkey`` into the same ``(opp, me)`` order, not swapped. A roll with no legal move gives ``()``.
"""

from __future__ import annotations

import pytest
from nardy_testkit import SHORT, Turn, game_turns, pos

from nardy import Position, legal_moves

gnubg_nn = pytest.importorskip("gnubg_nn")

SEEDS = range(30)


def gnubg_results(position: Position, dice: tuple[int, int]) -> set[Position]:
    """Return the positions gnubg allows after ``dice`` (mover's frame, not swapped)."""
    board = [list(position.opp), list(position.me)]
    out = set()
    for key in gnubg_nn.moves(board, dice[0], dice[1]):
        opp, me = gnubg_nn.boardfromkey(key)
        out.add(Position(tuple(me), tuple(opp)))
    return out


def our_results(turn: Turn) -> set[Position]:
    return {m.position for m in turn.moves()}


CORPUS = list(game_turns(SHORT, SEEDS))


def test_board_convention() -> None:
    """The convention above, checked on the opening 3-1, a closed board and checkers on the bar."""
    start = SHORT.initial_position()
    assert gnubg_results(start, (3, 1)) == {m.position for m in legal_moves(SHORT, start, (3, 1))}
    assert len(gnubg_results(start, (3, 1))) == 16
    barred = pos({25: 1, 13: 14}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 5})
    assert gnubg_results(barred, (6, 5)) == set()  # closed board: forfeited in both
    assert legal_moves(SHORT, barred, (6, 5)) == []
    entering = pos({25: 2, 13: 13}, {5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 5})  # only the 6 enters: bar/19
    (only,) = gnubg_results(entering, (6, 5))
    assert only == pos({25: 1, 19: 1, 13: 13}, {5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 5})
    assert {m.position for m in legal_moves(SHORT, entering, (6, 5))} == {only}


def test_corpus_is_varied() -> None:
    assert len(CORPUS) >= 2000
    assert sum(t.position.me[24] > 0 for t in CORPUS) >= 200  # checkers on the bar
    assert sum(not any(t.position.me[6:25]) for t in CORPUS) >= 200  # bearing off
    assert sum(t.dice[0] == t.dice[1] for t in CORPUS) >= 250
    assert sum(not t.moves() for t in CORPUS) >= 20  # forfeited rolls
    assert sum(any(s.hit for m in t.moves() for s in m.steps) for t in CORPUS) >= 300
    assert len({t.position for t in CORPUS}) >= 0.9 * len(CORPUS)


@pytest.mark.parametrize("chunk", range(4))
def test_same_results_as_gnubg(chunk: int) -> None:
    for turn in CORPUS[chunk::4]:
        assert our_results(turn) == gnubg_results(turn.position, turn.dice), turn


@pytest.mark.parametrize("chunk", range(4))
def test_same_results_as_gnubg_for_every_roll(chunk: int) -> None:
    """Every one of the 21 rolls in a sample of the corpus positions (more doubles, more forfeits)."""
    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    for turn in CORPUS[chunk::40]:
        for dice in rolls:
            other = turn.with_dice(dice)
            assert our_results(other) == gnubg_results(turn.position, dice), other
