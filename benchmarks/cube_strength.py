"""What the hard player's cube model is worth in play (figures, never pass/fail).

``python benchmarks/cube_strength.py [--pairs 5000] [--match-pairs 500] [--length 7] [--seed 10000] [--jobs 2]``

The hard player (cube decisions by Janowski's cubeful model, ``nardy.ai.cube_decisions``) against the same player
deciding by the plain equity thresholds it used before (double at 0.42, redouble at 0.52, take down to -0.52);
both move by the same network at 0-ply, so only the cube differs. Each pair is played twice with the same dice
(seeded), the sides swapped. Prints points per game in money games with the cube (95 % confidence interval over
the pairs) and the share of matches to ``--length`` won.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time

from nardy import Match, SeededDice
from nardy.ai.players import HardPlayer, _BasePlayer
from nardy.ai.protocol import CubeAction, TakeDecision
from nardy.ai.selfplay import play_match
from nardy.game import Game


class ThresholdPlayer(HardPlayer):
    """The hard player with the cube decisions of the equity thresholds."""

    def cube_action(self, game: Game) -> CubeAction:
        return _BasePlayer.cube_action(self, game)

    def take_decision(self, game: Game) -> TakeDecision:
        return _BasePlayer.take_decision(self, game)


def play(seed: int, model_first: bool, length: int) -> float:
    """Play one money game (``length`` 0: return the model's points) or match (return 1 if the model won)."""
    model, plain = HardPlayer("short", seed, lookahead=0), ThresholdPlayer("short", seed, lookahead=0)
    players = [model, plain] if model_first else [plain, model]
    me = 0 if model_first else 1
    match = play_match(Match("short", length, dice=SeededDice(seed)), players)
    if length:
        return 1.0 if match.winner == me else 0.0
    result = match.game.result
    assert result is not None
    return float(result.points) if result.winner == me else -float(result.points)


def pair(args: tuple[int, int]) -> float:
    """The mean of a pair played with the same dice, the sides swapped."""
    seed, length = args
    return (play(seed, True, length) + play(seed, False, length)) / 2


def run(seeds: range, length: int, jobs: int) -> tuple[float, float]:
    """Return the mean over the pairs and its 95 % half-width."""
    with multiprocessing.Pool(jobs) as pool:
        values = pool.map(pair, [(seed, length) for seed in seeds], chunksize=16)
    return statistics.mean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5000, help="money pairs (two games each)")
    parser.add_argument("--match-pairs", type=int, default=500, help="match pairs (two matches each)")
    parser.add_argument("--length", type=int, default=7)
    parser.add_argument("--seed", type=int, default=10000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    if args.pairs:
        mean, half = run(range(args.seed, args.seed + args.pairs), 0, args.jobs)
        print(
            f"money, {2 * args.pairs} games (seeds {args.seed}-{args.seed + args.pairs - 1}, paired): "
            f"cube model vs thresholds {mean:+.3f} ± {half:.3f} points per game"
        )
    if args.match_pairs:
        seed = args.seed + 10_000
        mean, half = run(range(seed, seed + args.match_pairs), args.length, args.jobs)
        print(
            f"matches to {args.length}, {2 * args.match_pairs} matches (seeds {seed}-{seed + args.match_pairs - 1}, "
            f"paired): cube model wins {100 * mean:.1f} % ± {100 * half:.1f}"
        )
    print(f"{time.perf_counter() - started:.0f} s, {args.jobs} processes")


if __name__ == "__main__":
    main()
