"""Encoded size of board images over many positions (figures, never pass/fail):
``python benchmarks/board_sizes.py [--per-variant N] [--width W] [--compare]``.

Positions come from random games of every registered variant (seeded dice, a random legal turn each time, a board
taken every seventh turn from the opening on), each drawn as the bot draws it (dice, the last move marked, the cube
where the variant has one), in both themes, with plain names and with hard ones (long Cyrillic, emoji, CJK). Prints
the median, largest and smallest JPEG size, the share at most 100 KB, and the median render+encode time, encoded as
:func:`rendering.render_board` encodes by default; ``--compare`` also encodes the same images with the settings of
before the board's own tables (libjpeg quality 85, 4:2:0, no Huffman optimisation) for a side-by-side figure.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from nardy import Game, Phase, SeededDice
from nardy.position import Position
from nardy.variants import variant_names
from rendering import render_board_image
from rendering.encode import encode
from rendering.theme import theme_names

PLAIN_NAMES = ("Анна", "Boris")
HARD_NAMES = ("Александр Константинопольский-Длинноимённый 🎲🔥", "王小明 ★ Ünïcødé 👨‍👩‍👧")


def old_encode(image: Image.Image) -> bytes:
    """Return ``image`` as a JPEG with the earlier settings (quality 85, 4:2:0, baseline)."""
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=85, subsampling="4:2:0")
    return buffer.getvalue()


def boards(variant: str, count: int, seed: int) -> list[tuple[Position, dict[str, Any]]]:
    """Return ``count`` positions of a random game (or games) of ``variant`` with the bot's drawing options."""
    rng = random.Random(seed)
    found: list[tuple[Position, dict[str, Any]]] = []
    game_index = 0
    while len(found) < count and game_index < 20:
        game = Game(variant, dice=SeededDice(f"{variant}:{seed}:{game_index}"))
        game_index += 1
        turn = 0
        while game.phase is not Phase.OVER and len(found) < count and turn < 400:
            if game.phase in (Phase.OPENING, Phase.ROLL):
                game.roll()
                continue
            if game.phase is not Phase.MOVE:
                break
            moves = game.legal_moves()
            game.play(rng.choice(moves) if moves else [])
            turn += 1
            if turn % 7 == 3 and game.phase is Phase.ROLL:
                game.roll()
                if game.phase is not Phase.MOVE or game.dice is None:
                    continue
                mover = game.roller
                options: dict[str, Any] = {"mover": mover, "dice": game.dice, "show_cube": game.cube_enabled}
                if game.last_move is not None:
                    options["last_move"] = game.last_move.steps
                    options["last_move_player"] = game.last_mover
                found.append((game.position_for(mover), options))
    return found


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-variant", type=int, default=6, help="positions per variant (default 6)")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--compare", action="store_true", help="also encode with the earlier settings (q85)")
    args = parser.parse_args()
    sizes: list[int] = []
    old_sizes: list[int] = []
    times: list[float] = []
    per_group: dict[str, list[int]] = {}
    for variant in variant_names():
        for position, options in boards(variant, args.per_variant, seed=32):
            for theme in theme_names():
                for label, names in (("plain", PLAIN_NAMES), ("hard", HARD_NAMES)):
                    start = time.perf_counter()
                    image = render_board_image(position, variant, names=names, theme=theme, width=args.width, **options)
                    data = encode(image, quality=None)  # the board default, as render_board encodes
                    times.append(time.perf_counter() - start)
                    sizes.append(len(data))
                    per_group.setdefault(f"{theme}/{label}", []).append(len(data))
                    if args.compare:
                        old_sizes.append(len(old_encode(image)))

    def line(title: str, values: list[int]) -> str:
        within = sum(value <= 100 * 1024 for value in values) / len(values)
        return (
            f"{title:<28} n={len(values):4d}  median {statistics.median(values) / 1024:6.1f} KB  "
            f"max {max(values) / 1024:6.1f} KB  min {min(values) / 1024:6.1f} KB  <= 100 KB: {within:6.1%}"
        )

    print(f"{len(variant_names())} variants, width {args.width}")
    print(line("current encoding", sizes))
    for group, values in sorted(per_group.items()):
        print(line(f"  {group}", values))
    if old_sizes:
        print(line("earlier settings (q85 4:2:0)", old_sizes))
    print(f"render+encode median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
