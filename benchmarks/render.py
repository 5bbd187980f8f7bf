"""Benchmark of the board renderer (figures, never pass/fail): ``python benchmarks/render.py [--runs N]``.

For the default size (1280 px wide) and format (JPEG), prints the median time to render and encode one board, the
encoded size, and — measured in the same run on the same image — the time Pillow alone needs to encode an image of
that size (``Image.save`` as JPEG at the same quality), plus the ratio of the two. The target is a ratio of at most 3.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nardy.move import Step
from nardy.position import Position, make_side
from rendering import render_board, render_board_image
from rendering.encode import JPEG_QUALITY

ME = make_side({24: 2, 13: 4, 8: 3, 7: 1, 6: 5})
OPP = make_side({25: 1, 24: 2, 13: 5, 8: 2, 6: 3, 5: 2})
OPTIONS: dict[str, object] = {
    "dice": (6, 4),
    "used_dice": (6,),
    "last_move": (Step(8, 5, 3), Step(6, 5, 1)),
    "last_move_player": 1,
    "pending_steps": (Step(13, 7, 6, hit=True),),
    "show_cube": True,
    "cube_value": 2,
    "cube_owner": 0,
    "names": ("Анна", "Boris"),
    "match_score": (2, 3),
    "match_length": 7,
}


def median_ms(action: Callable[[], object], runs: int) -> float:
    """Return the median wall time of ``action`` over ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000.0


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    position = Position(ME, OPP)

    def render() -> bytes:
        return render_board(position, "short", **OPTIONS)  # type: ignore[arg-type]

    first_start = time.perf_counter()
    data = render()  # fills the caches (background, sprites, fonts)
    first_ms = (time.perf_counter() - first_start) * 1000.0
    image = render_board_image(position, "short", **OPTIONS)  # type: ignore[arg-type]

    def bare_encode() -> None:
        image.save(io.BytesIO(), "JPEG", quality=JPEG_QUALITY)

    for _ in range(10):  # warm up both paths
        render()
        bare_encode()
    render_ms = median_ms(render, args.runs)
    draw_ms = median_ms(lambda: render_board_image(position, "short", **OPTIONS), args.runs)  # type: ignore[arg-type]
    encode_ms = median_ms(bare_encode, args.runs)
    print(f"image: {image.width}x{image.height} JPEG q{JPEG_QUALITY}, {args.runs} runs")
    print(f"first render (cold caches): {first_ms:8.1f} ms")
    print(f"render + encode (median):   {render_ms:8.2f} ms")
    print(f"  of which drawing (median):{draw_ms:8.2f} ms")
    print(f"bare Pillow JPEG encode:    {encode_ms:8.2f} ms")
    print(f"ratio render+encode / bare: {render_ms / encode_ms:8.2f}x  (target <= 3x)")
    print(f"encoded size:               {len(data) / 1024:8.1f} KB  (target < 200 KB)")


if __name__ == "__main__":
    main()
