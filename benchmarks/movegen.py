"""Benchmark of the move generator (figures, never pass/fail): ``python benchmarks/movegen.py [--positions N]``.

Builds a fixed corpus per variant from seeded random self-play (each position with the roll it had; doubles come up
as they fall, one roll in six), then times listing every legal move with ``legal_moves`` (full Move objects) and
counting them with ``count_legal_moves`` over the corpus, repeated a few times (best and median are printed). When
``gnubg_nn`` (PyPI gnubg-nn, GPL: used here only as a yardstick) is importable, it times ``gnubg_nn.moves`` on the
same short-nardy corpus in the same run and prints the ratio ours/gnubg of positions per second (target >= 1/25).
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

from nardy import Position, count_legal_moves, get_variant, legal_moves
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
            verdict = "meets" if ratio >= 1 / 25 else "misses"
            print(f"  ours/gnubg = {ratio:.3f} (1/{1 / ratio:.1f}); {verdict} the target of 1/25")
        elif name == "short":
            print("  gnubg_nn is not importable: no comparison")


if __name__ == "__main__":
    main()
