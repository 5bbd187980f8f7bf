"""Hypergammon and Nackgammon against GNU Backgammon's own move generator (PyPI ``gnubg-nn``, GPL: an oracle only).

The same machinery as ``test_gnubg_differential.py`` (short nardy): seeded self-play games of each variant (random and
greedy "run home" players, :func:`nardy_testkit.game_turns`), and at every ply the set of positions gnubg allows
(``gnubg_nn.moves`` on the board ``[opp, me]``) must equal ours. gnubg's generator reads the checkers on the board and
works for any number of them, so 3-checker Hypergammon positions go through it unchanged.
"""

from __future__ import annotations

import pytest
from nardy_testkit import Turn, game_turns

from nardy import Position, get_variant, legal_moves

gnubg_nn = pytest.importorskip("gnubg_nn")

HYPERGAMMON = get_variant("hypergammon")
NACKGAMMON = get_variant("nackgammon")
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


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


CORPORA = {
    "hypergammon": list(game_turns(HYPERGAMMON, range(120))),
    "nackgammon": list(game_turns(NACKGAMMON, range(20))),
}


def test_openings() -> None:
    for variant in (HYPERGAMMON, NACKGAMMON):
        start = variant.initial_position()
        for dice in ROLLS:
            assert {m.position for m in legal_moves(variant, start, dice)} == gnubg_results(start, dice), dice


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_corpus_is_varied(name: str) -> None:
    corpus = CORPORA[name]
    assert len(corpus) >= 2000
    assert sum(t.position.me[24] > 0 for t in corpus) >= 200  # checkers on the bar
    assert sum(not any(t.position.me[6:25]) for t in corpus) >= 100  # bearing off
    assert sum(t.dice[0] == t.dice[1] for t in corpus) >= 250
    assert sum(any(s.hit for m in t.moves() for s in m.steps) for t in corpus) >= 300
    assert len({t.position for t in corpus}) >= 0.8 * len(corpus)
    for turn in corpus:
        sides = turn.position.me, turn.position.opp
        assert all(sum(side) <= turn.variant.checkers for side in sides)


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_same_results_as_gnubg(name: str) -> None:
    mismatches = [turn for turn in CORPORA[name] if our_results(turn) != gnubg_results(turn.position, turn.dice)]
    assert not mismatches, mismatches[:3]


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_same_results_as_gnubg_for_every_roll(name: str) -> None:
    """Every one of the 21 rolls in a sample of the corpus positions (more doubles, more forfeits)."""
    corpus = CORPORA[name]
    step = max(1, len(corpus) // 200)
    compared = forfeits = 0
    for turn in corpus[::step]:
        for dice in ROLLS:
            other = turn.with_dice(dice)
            ours = our_results(other)
            assert ours == gnubg_results(turn.position, dice), other
            compared += 1
            forfeits += not ours
    assert compared >= 4000
    assert forfeits >= (10 if name == "nackgammon" else 1)  # 3 checkers make one closed point at most
