"""Benchmark of the move generator (figures, never pass/fail): ``python benchmarks/movegen.py [--positions N]``.

Builds a fixed corpus per variant from seeded random self-play (each position with the roll it had; doubles come up
as they fall, one roll in six), then times listing every legal move with ``legal_moves`` (full Move objects) and
counting them with ``count_legal_moves`` over the corpus, repeated a few times (best and median are printed). It
times whichever build of the engine is installed and says which (``NARDY_PURE=1`` times the pure-Python one).

Yardsticks on the same short-nardy corpus in the same run, each printed as the ratio of our listing rate to theirs:

- ``gnubg_nn.moves`` (PyPI gnubg-nn, GNU Backgammon's C generator; GPL, used here only as a yardstick), target
  >= 1/10;
- gym-backgammon's ``get_valid_plays`` (the pure-Python peer, ``pip install -e '.[bench]'``), target >= 3; its
  answers are first checked against ours, position by position (the set of positions its plays reach).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gym_peer

from nardy import Position, compiled_engine, count_legal_moves, get_variant, legal_moves
from nardy.variants import Variant

Entry = tuple[Position, tuple[int, int], bool]  # position, roll, first turn


def build_corpus(variant: Variant, size: int, seed: int) -> list[Entry]:
    """Return ``size`` positions from seeded random self-play games of ``variant``, each with its roll."""
    rng = random.Random(f"{variant.name}-{seed}")
    corpus: list[Entry] = []
    while len(corpus) < size:
        position = variant.initial_position()
        for ply in range(400):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            first = variant.name == "long" and ply < 2
            corpus.append((position, dice, first))
            moves = legal_moves(variant, position, dice, first_turn=first)
            after = rng.choice(moves).position if moves else position
            if not any(after.me) or len(corpus) >= size:
                break
            position = after.swapped()
    return corpus


def timed(run: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Return the best and median wall time of ``repeats`` calls of ``run``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def report(label: str, count: int, best: float, median: float) -> float:
    rate = count / best
    print(f"  {label:<34} {rate:>10,.0f} positions/s (best; median {count / median:,.0f}/s)")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=3000, help="corpus size per variant (default 3000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed passes over the corpus (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    try:
        import gnubg_nn  # GPL: a yardstick only, never imported by nardy/
    except ImportError:
        gnubg_nn = None

    print(f"engine build: {'compiled (mypyc)' if compiled_engine() else 'pure Python'}")
    for name in ("short", "long"):
        variant = get_variant(name)
        corpus = build_corpus(variant, args.positions, args.seed)
        doubles = sum(d1 == d2 for _, (d1, d2), _ in corpus)
        total_moves = sum(len(legal_moves(variant, p, d, first_turn=f)) for p, d, f in corpus)
        print(
            f"{name} nardy: {len(corpus)} positions ({doubles} with doubles), "
            f"{total_moves / len(corpus):.1f} legal moves per position on average"
        )

        def list_all(variant: Variant = variant, corpus: list[Entry] = corpus) -> None:
            for position, dice, first in corpus:
                legal_moves(variant, position, dice, first_turn=first)

        def count_all(variant: Variant = variant, corpus: list[Entry] = corpus) -> None:
            for position, dice, first in corpus:
                count_legal_moves(variant, position, dice, first_turn=first)

        ours = report("legal_moves (Move objects)", len(corpus), *timed(list_all, args.repeats))
        report("count_legal_moves", len(corpus), *timed(count_all, args.repeats))
        if name == "short" and gnubg_nn is not None:
            boards = [([list(p.opp), list(p.me)], d1, d2) for p, (d1, d2), _ in corpus]

            def gnubg_all(boards: list[tuple[list[list[int]], int, int]] = boards, moves=gnubg_nn.moves) -> None:
                for board, d1, d2 in boards:
                    moves(board, d1, d2)

            theirs = report("gnubg_nn.moves (position keys)", len(corpus), *timed(gnubg_all, args.repeats))
            ratio = ours / theirs
            verdict = "meets" if ratio >= 1 / 10 else "misses"
            print(f"  ours/gnubg = {ratio:.3f} (1/{1 / ratio:.1f}); {verdict} the target of 1/10")
        elif name == "short":
            print("  gnubg_nn is not importable: no comparison")
        if name == "short":
            compare_with_gym(variant, corpus, ours, args.repeats)


def compare_with_gym(variant: Variant, corpus: list[Entry], ours: float, repeats: int) -> None:
    """Check gym-backgammon's answers against ours on the corpus, then time its ``get_valid_plays`` there."""
    backgammon = gym_peer.load()
    if backgammon is None:
        print("  gym-backgammon is not installed (pip install -e '.[bench]'): no comparison")
        return
    games = [(gym_peer.game_at(backgammon, p), (-d1, -d2)) for p, (d1, d2), _ in corpus]
    agree = sum(
        gym_peer.positions_after(p, gym_peer.plays(game, d)) == {m.position for m in legal_moves(variant, p, d)}
        for (game, _), (p, d, _) in zip(games, corpus, strict=True)
    )
    print(f"  gym-backgammon agrees with us on {agree} of {len(corpus)} positions ({agree / len(corpus):.1%})")

    def gym_all() -> None:
        for game, dice in games:
            game.get_valid_plays(gym_peer.WHITE, dice)

    theirs = report("gym-backgammon get_valid_plays", len(corpus), *timed(gym_all, repeats))
    verdict = "meets" if ours / theirs >= 3 else "misses"
    print(f"  ours/gym-backgammon = {ours / theirs:.2f}; {verdict} the target of 3")


if __name__ == "__main__":
    main()
