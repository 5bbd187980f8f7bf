"""Benchmark of loading a saved game (figures, never pass/fail): ``python benchmarks/record_load.py [--seed N]``.

Every button press loads the game's record. This builds a record late in a seeded match to 25 points of short
nardy (random play, the cube taken now and then) and a long-nardy game late in play, then times, on the same
records in the same run: restoring from the snapshot (what a press does now: ``Match.from_dict``) against replaying
the current game's history (what it did before: ``Game.from_dict(..., verify=True)``), and prints the record's size
with the finished games compact (as saved now) and in full (as saved before).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nardy import Game, Match, Phase, SeededDice


def _play(game: Game, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        if game.phase is Phase.OVER:
            return
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.double() if game.can_double() and rng.random() < 0.03 else game.roll()
        elif game.phase is Phase.MOVE:
            game.play(rng.choice(game.legal_moves()))
        elif game.phase is Phase.DOUBLED:
            game.take()
        else:
            game.decline_resignation()


def build_match(seed: int) -> dict[str, object]:
    """Return the saved record of a match to 25 in its last game, part-way through that game."""
    rng = random.Random(seed)
    match = Match("short", 25, dice=SeededDice(seed))
    while True:
        _play(match.game, rng, 10_000)
        if max(match.score_after_game()) >= 25:
            break
        match.next_game()
    # replay the deciding game's first 80 records into a fresh game, as the record during that game
    last = match.to_dict()
    game_data = dict(last["game"])  # type: ignore[arg-type]
    game_data["history"] = game_data["history"][:80]
    game_data.pop("state")
    partial = Game.from_dict(game_data).to_dict()
    return {**last, "game": partial}


def build_long(seed: int) -> dict[str, object]:
    """Return the saved record of a long-nardy money game after 120 records."""
    rng = random.Random(seed)
    match = Match("long", 0, dice=SeededDice(seed))
    _play(match.game, rng, 120)
    return match.to_dict()


def timed(action: Callable[[], object], repeat: int) -> float:
    """Return the median seconds of ``repeat`` runs of ``action``."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print(f"seed {args.seed}, median of {args.repeat} loads each")
    for label, record in (("short, match to 25", build_match(args.seed)), ("long, money game", build_long(args.seed))):
        text = json.dumps(record)
        games = record["finished_games"]
        assert isinstance(games, list)
        full = {**record, "finished_games": [Game.from_dict(g).to_dict() for g in games]}
        restore = timed(lambda text=text: Match.from_dict(json.loads(text)), args.repeat)
        current = record["game"]
        assert isinstance(current, dict)
        replay = timed(
            lambda text=text, current=current: (json.loads(text), Game.from_dict(current, verify=True)),
            args.repeat,
        )
        print(
            f"{label}: {len(games)} finished games, {len(current['history'])} records in the current game; "
            f"record {len(text) / 1024:.1f} KiB (full finished games: {len(json.dumps(full)) / 1024:.1f} KiB); "
            f"load by snapshot {restore * 1000:.2f} ms, by replay {replay * 1000:.2f} ms "
            f"({replay / restore:.1f}x)"
        )


if __name__ == "__main__":
    main()
