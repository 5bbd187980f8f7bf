"""Benchmark of the board renderer (figures, never pass/fail): ``python benchmarks/render.py [--runs N] [--boards B]``.

For the default size (1280 px wide) and format (JPEG), prints for each board the median time to render and encode
it, the same with the move's arrows drawn anew (as for a move never drawn before: arrows are cached per shape), the
drawing alone, the encoded size, and — measured in the same run on the same image — the time Pillow alone
needs to encode an image of that size (``Image.save`` as JPEG at the same quality), plus the ratio of the two. The
target is a ratio of at most 3 and under 200 KB. Boards: ``short`` (a turn being built with a hit, last move, cube,
match score), ``long`` (mid-play with marks), ``plakoto`` (pinned checkers both ways) and ``acey_deucey`` (both
reserves and the bar, its own layout with the reserve trays).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nardy.move import Step
from nardy.position import Position, make_side
from rendering import render_board, render_board_image, sprites
from rendering.encode import JPEG_QUALITY

COMMON: dict[str, Any] = {"names": ("Анна", "Boris"), "match_score": (2, 3), "match_length": 7}


def _pinned(points: dict[int, int], pinned: tuple[int, ...]) -> tuple[int, ...]:
    flags = [0] * 24
    for point in pinned:
        flags[point - 1] = 1
    return (*make_side(points), *flags)


BOARDS: dict[str, tuple[Position, str, dict[str, Any]]] = {
    "short": (
        Position(make_side({24: 2, 13: 4, 8: 3, 7: 1, 6: 5}), make_side({25: 1, 24: 2, 13: 5, 8: 2, 6: 3, 5: 2})),
        "short",
        {
            "dice": (6, 4),
            "used_dice": (6,),
            "last_move": (Step(8, 5, 3), Step(6, 5, 1)),
            "last_move_player": 1,
            "pending_steps": (Step(13, 7, 6, hit=True),),
            "show_cube": True,
            "cube_value": 2,
            "cube_owner": 0,
        },
    ),
    "long": (
        Position(
            make_side({24: 8, 19: 1, 18: 1, 17: 2, 13: 1, 10: 1, 6: 1}),
            make_side({24: 7, 20: 3, 16: 2, 9: 2, 11: 1}),
        ),
        "long",
        {
            "dice": (6, 2),
            "used_dice": (6,),
            "last_move": (Step(24, 20, 4), Step(13, 9, 4)),
            "last_move_player": 1,
            "pending_steps": (Step(24, 18, 6),),
        },
    ),
    "plakoto": (
        Position(
            _pinned({24: 7, 19: 3, 13: 2, 10: 1, 6: 1}, (8,)),
            _pinned({24: 8, 20: 1, 17: 1, 16: 2, 11: 2}, (6,)),
        ),
        "plakoto",
        {"dice": (5, 3), "used_dice": (5,), "pending_steps": (Step(24, 19, 5),)},
    ),
    "acey_deucey": (
        Position(
            (*make_side({23: 1, 22: 2, 20: 1, 17: 2, 13: 2, 8: 1, 6: 1}), 5),
            (*make_side({25: 1, 23: 3, 21: 2, 18: 2, 11: 2, 9: 1}), 4),
        ),
        "acey_deucey",
        {"dice": (2, 1), "used_dice": (2,), "pending_steps": (Step(26, 23, 2, hit=True),)},
    ),
}


def median_ms(action: Callable[[], object], runs: int) -> float:
    """Return the median wall time of ``action`` over ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000.0


def bench(name: str, runs: int) -> None:
    """Measure one board of :data:`BOARDS` and print its figures."""
    position, variant, options = BOARDS[name]
    options = {**COMMON, **options}

    def render() -> bytes:
        return render_board(position, variant, **options)

    first_start = time.perf_counter()
    data = render()  # fills the caches (background, sprites, fonts)
    first_ms = (time.perf_counter() - first_start) * 1000.0
    image = render_board_image(position, variant, **options)

    def bare_encode() -> None:
        image.save(io.BytesIO(), "JPEG", quality=JPEG_QUALITY)

    for _ in range(10):  # warm up both paths
        render()
        bare_encode()
    render_ms = median_ms(render, runs)
    arrows = getattr(sprites, "arrow", None)  # the moves' arrows (2026-12-07), cached per shape like every sprite

    def render_new_move() -> bytes:
        if arrows is not None:
            arrows.cache_clear()  # as for a move never drawn before: its arrows drawn anew
        return render()

    new_move_ms = median_ms(render_new_move, runs)
    draw_ms = median_ms(lambda: render_board_image(position, variant, **options), runs)
    encode_ms = median_ms(bare_encode, runs)
    print(f"[{name}] image: {image.width}x{image.height} JPEG q{JPEG_QUALITY}, {runs} runs")
    print(f"first render (cold caches): {first_ms:8.1f} ms")
    print(f"render + encode (median):   {render_ms:8.2f} ms")
    print(f"  a move drawn anew (median):{new_move_ms:7.2f} ms")
    print(f"  of which drawing (median):{draw_ms:8.2f} ms")
    print(f"bare Pillow JPEG encode:    {encode_ms:8.2f} ms")
    print(f"ratio render+encode / bare: {render_ms / encode_ms:8.2f}x  (target <= 3x)")
    print(f"encoded size:               {len(data) / 1024:8.1f} KB  (target < 200 KB)")


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--boards", nargs="+", choices=sorted(BOARDS), default=list(BOARDS))
    args = parser.parse_args()
    for index, name in enumerate(args.boards):
        if index:
            print()
        bench(name, args.runs)


if __name__ == "__main__":
    main()
