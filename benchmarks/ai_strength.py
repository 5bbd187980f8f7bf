"""Strength of the computer players, judged by GNU Backgammon (figures, never pass/fail).

``python benchmarks/ai_strength.py [--positions 500] [--games 1000] [--sections loss,h2h,long,speed]``

Sections (each prints its figures with counts, 95 % confidence intervals, the target and the ratio to it):

- ``loss``: short nardy positions from varied seeded games (players of every level and gnubg mixed). For each
  unforced checker play (two or more legal moves) every legal move is valued by gnubg at 0-ply (cubeless money
  equity); a player's loss is gnubg's best minus its value of the player's choice. Targets: hard ≤ 0.020,
  medium ≤ 0.060, easy between medium and random.
- ``h2h``: short nardy cubeless single games: hard vs gnubg 0-ply (≥ 35 %), hard vs medium, medium vs easy (≥ 65 %),
  easy vs random (≥ 80 %). Dice are seeded per pair of games and each pair is played with the sides swapped.
- ``long``: long nardy, the same ladder: hard vs medium, medium vs easy (≥ 65 %), easy vs random (> 50 %).
- ``speed``: the median time of a hard decision (``choose_move``) on varied positions of both variants (≤ 0.5 s).

gnubg (PyPI ``gnubg-nn``, GPL) is used here as an oracle only; the package never imports it.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gnubg_nn

from nardy import Game, Move, Options, Phase, Position, SeededDice, get_variant
from nardy.ai import EasyPlayer, HardPlayer, MediumPlayer, RandomPlayer, play_game
from nardy.ai.network import shipped_network

SHORT = get_variant("short")
CUBELESS = Options(cube=False)


def gnubg_equity(position: Position) -> float:
    """Return gnubg's 0-ply cubeless equity of ``position`` for its side ``me``, that side on roll."""
    w, wg, wbg, lg, lbg = gnubg_nn.probabilities([list(position.opp), list(position.me)], 0)
    return float(2 * w - 1 + wg + wbg - lg - lbg)


def after_move_equity(move: Move) -> float:
    """Return gnubg's equity of a move for the mover (a won game counts its value)."""
    if sum(move.position.me) == 0:
        return float(SHORT.game_value(move.position, CUBELESS).points)
    return -gnubg_equity(move.position.swapped())


class GnubgPlayer:
    """GNU Backgammon at 0-ply as an opponent: picks the legal move gnubg values best (cubeless)."""

    level = "gnubg"

    def choose_move(self, game: Game) -> Move:
        moves = game.legal_moves()
        return max(moves, key=after_move_equity)

    def cube_action(self, game: Game) -> str:
        return "no_double"

    def take_decision(self, game: Game) -> str:
        return "take"

    def accept_resignation(self, game: Game) -> bool:
        return False


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Return the mean and the half-width of its 95 % confidence interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def wilson(wins: int, n: int) -> tuple[float, float, float]:
    """Return the share and its 95 % Wilson interval."""
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


@dataclass
class Sample:
    """A decision point: a copy of the game waiting for a move."""

    game: dict[str, Any]
    moves: int


def collect_positions(count: int, seed: int) -> list[Sample]:
    """Return ``count`` unforced short nardy decisions from varied seeded games (mixed players)."""
    rng = random.Random(seed)
    pool: list[Callable[[int], Any]] = [
        lambda s: MediumPlayer("short", s),
        lambda s: EasyPlayer("short", s),
        lambda s: GnubgPlayer(),
        lambda s: HardPlayer("short", s, lookahead=0),
        lambda s: RandomPlayer("short", s),
    ]
    samples: list[Sample] = []
    g = 0
    while len(samples) < count:
        players = (rng.choice(pool)(g), rng.choice(pool)(g + 1))
        game = Game("short", options=CUBELESS, dice=SeededDice(seed * 7919 + g))
        g += 1
        while game.phase is not Phase.OVER and len(samples) < count:
            if game.phase in (Phase.OPENING, Phase.ROLL):
                game.roll()
                continue
            moves = game.legal_moves()
            if len(moves) >= 2 and rng.random() < 0.2:
                samples.append(Sample(game.to_dict(), len(moves)))
            game.play(players[game.roller].choose_move(game))
    return samples


def section_loss(count: int, seed: int) -> None:
    print(f"\n== short nardy checker-play loss vs gnubg 0-ply ({count} unforced positions) ==", flush=True)
    began = time.perf_counter()
    samples = collect_positions(count, seed)
    players: dict[str, Any] = {
        "hard": HardPlayer("short", 1),
        "medium": MediumPlayer("short", 1),
        "easy": EasyPlayer("short", 1),
    }
    losses: dict[str, list[float]] = {name: [] for name in (*players, "random")}
    zero_ply: list[float] = []
    hard0 = HardPlayer("short", 1, lookahead=0)
    for sample in samples:
        game = Game.from_dict(sample.game)
        moves = game.legal_moves()
        values = {m.position: after_move_equity(m) for m in moves}
        best = max(values.values())
        for name, player in players.items():
            losses[name].append(best - values[player.choose_move(game).position])
        zero_ply.append(best - values[hard0.choose_move(game).position])
        losses["random"].append(statistics.fmean(best - v for v in values.values()))
    targets = {"hard": 0.020, "medium": 0.060}
    for name, values_ in losses.items():
        mean, half = mean_ci(values_)
        target = targets.get(name)
        verdict = ""
        if target is not None:
            verdict = f"target <= {target:.3f}  ratio {mean / target:.2f}  {'MET' if mean <= target else 'NOT MET'}"
        print(f"  {name:7s} mean loss {mean:.4f} ± {half:.4f} (95% CI) over {len(values_)} positions  {verdict}")
    mean, half = mean_ci(zero_ply)
    print(f"  (hard at 0-ply only: {mean:.4f} ± {half:.4f})")
    easy, medium, rnd = (statistics.fmean(losses[k]) for k in ("easy", "medium", "random"))
    print(f"  easy between medium and random: {'MET' if medium < easy < rnd else 'NOT MET'}")
    print(f"  ({time.perf_counter() - began:.0f} s)", flush=True)


def head_to_head(
    variant: str, make_a: Callable[[int], Any], make_b: Callable[[int], Any], games: int, seed: int
) -> tuple[int, int]:
    """Return (wins of A, games) over cubeless single games, sides swapped on each pair of games (same dice)."""
    wins = 0
    for g in range(games):
        a, b = make_a(g), make_b(g)
        a_first = g % 2 == 0
        players = (a, b) if a_first else (b, a)
        result = play_game(variant, players, seed=seed * 1_000_003 + g // 2, options=CUBELESS)
        wins += int(result.winner == (0 if a_first else 1))
    return wins, games


def report(label: str, wins: int, games: int, target: float, seconds: float) -> None:
    p, lo, hi = wilson(wins, games)
    verdict = "MET" if p >= target else "NOT MET"
    print(
        f"  {label:22s} wins {p:6.1%} [{lo:.1%}, {hi:.1%}] (95% CI) over {games} games  "
        f"target >= {target:.0%}  ratio {p / target:.2f}  {verdict}  ({seconds:.0f} s)",
        flush=True,
    )


def ladder(variant: str, games: int, gnubg_games: int, seed: int) -> None:
    pairs: list[tuple[str, Callable[[int], Any], Callable[[int], Any], float, int]] = []
    if variant == "short" and gnubg_games:
        pairs.append(
            ("hard vs gnubg 0-ply", lambda s: HardPlayer(variant, s), lambda s: GnubgPlayer(), 0.35, gnubg_games)
        )
    pairs += [
        ("hard vs medium", lambda s: HardPlayer(variant, s), lambda s: MediumPlayer(variant, s), 0.65, games),
        ("medium vs easy", lambda s: MediumPlayer(variant, s), lambda s: EasyPlayer(variant, s), 0.65, games),
        ("easy vs random", lambda s: EasyPlayer(variant, s), lambda s: RandomPlayer(variant, s), 0.80, games),
    ]
    if variant == "long":
        pairs[-1] = (*pairs[-1][:3], 0.50, games)
    for label, make_a, make_b, target, n in pairs:
        began = time.perf_counter()
        wins, played = head_to_head(variant, make_a, make_b, n, seed)
        report(label, wins, played, target, time.perf_counter() - began)


def section_speed(count: int, seed: int) -> None:
    print(f"\n== hard decision time ({count} positions per variant) ==", flush=True)
    for variant in ("short", "long"):
        hard = HardPlayer(variant, 1)
        players = (MediumPlayer(variant, 1), EasyPlayer(variant, 2))
        rng = random.Random(seed)
        times: list[float] = []
        g = 0
        while len(times) < count:
            game = Game(variant, options=CUBELESS, dice=SeededDice(seed + g))
            g += 1
            while game.phase is not Phase.OVER and len(times) < count:
                if game.phase in (Phase.OPENING, Phase.ROLL):
                    game.roll()
                    continue
                if len(game.legal_moves()) >= 2 and rng.random() < 0.25:
                    began = time.perf_counter()
                    hard.choose_move(game)
                    times.append(time.perf_counter() - began)
                game.play(players[game.roller].choose_move(game))
        times.sort()
        print(
            f"  {variant:5s} median {statistics.median(times):.3f} s  p90 {times[int(0.9 * len(times))]:.3f} s  "
            f"max {times[-1]:.3f} s over {len(times)} decisions  target median <= 0.5 s  "
            f"{'MET' if statistics.median(times) <= 0.5 else 'NOT MET'}",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--games", type=int, default=1000, help="games per head-to-head pairing")
    parser.add_argument("--gnubg-games", type=int, default=1000, help="games of hard vs gnubg")
    parser.add_argument("--long-games", type=int, default=1000, help="games per long nardy pairing")
    parser.add_argument("--speed-positions", type=int, default=100)
    parser.add_argument("--sections", default="speed,loss,h2h,long")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    for variant in ("short", "long"):
        info = shipped_network(variant).info
        print(f"{variant} network: {info.get('games')} self-play games, {info.get('seconds')} s of training")
    started = time.perf_counter()
    if "speed" in sections:
        section_speed(args.speed_positions, args.seed)
    if "loss" in sections:
        section_loss(args.positions, args.seed)
    if "h2h" in sections:
        print("\n== short nardy head to head, cubeless single games ==", flush=True)
        ladder("short", args.games, args.gnubg_games, args.seed)
    if "long" in sections:
        print("\n== long nardy head to head, single games (оин/марс count as wins) ==", flush=True)
        ladder("long", args.long_games, 0, args.seed)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
