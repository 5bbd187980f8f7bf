"""Bracket pictures on a phone (figures, never pass/fail): ``python benchmarks/bracket_pages.py``.

For single and double elimination of 4, 8, 16 and 32 players (long Cyrillic names, a title, half the matches
played), prints the whole bracket on one picture as the bot sent it before (``render_bracket`` with ratings: width
x height, JPEG bytes) next to the pages the bot sends now (``render_bracket_pages``: the number of pictures, the
widest, the tallest, the largest and the total bytes), the smallest text's cap height when each is shown 600 px
wide (readable: >= 7 px), and the median time to render and encode all pages (``--repeats`` runs).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from rendering.bracket import SMALL_SIZE, bracket_pages, render_bracket, render_bracket_pages
from rendering.standings import PREVIEW_WIDTH, cap_height
from tournaments import Elimination, Player, Result, double_elimination, single_elimination

FIRST = ["Александр", "Екатерина", "Владимир", "Анастасия", "Константин", "Маргарита", "Святослав", "Елизавета"]
LAST = ["Преображенский", "Черноморская", "Рождественский", "Воскресенская", "Длинноименный-Оглы"]
TITLE = "Турнир: длинные нарды, олимпийка"


def half_played(double: bool, count: int) -> Elimination:
    """A bracket of ``count`` with half its matches played (the favourite wins 3–1, every third an upset)."""
    players = [Player(f"p{i}", 1500.0 + 37 * ((i * 7) % count)) for i in range(count)]
    state = double_elimination(players) if double else single_elimination(players)
    for n in range(count - 1 if double else count // 2):
        match = state.playable()[0]
        winner = match.second if n % 3 == 0 else match.first
        state = state.record(Result(match.id, winner, *((3, 1) if winner == match.first else (1, 3))))
    return state


def main() -> None:
    """Print one line per bracket."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    names = {f"p{i}": f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}" for i in range(32)}
    smallest = cap_height(SMALL_SIZE)
    print("bracket        | one picture (before)        | pages (now): count, widest x tallest, largest / total KB")
    for double in (False, True):
        for count in (4, 8, 16, 32):
            state = half_played(double, count)
            ratings = {p.id: p.rating for p in state.players}
            whole = render_bracket(state, names, ratings=ratings, title=TITLE)
            with Image.open(io.BytesIO(whole)) as image:
                width, height = image.size
            times = []
            pages: tuple[bytes, ...] = ()
            for _ in range(args.repeats):
                start = time.perf_counter()
                pages = render_bracket_pages(state, names, title=TITLE)
                times.append(time.perf_counter() - start)
            geos = bracket_pages(state, title=TITLE)
            widest = max(g.width for g in geos)
            tallest = max(g.height for g in geos)
            kind = "double" if double else "single"
            print(
                f"{kind} {count:>2}      | {width:>5} x {height:<4} {len(whole) / 1024:6.1f} KB "
                f"cap {smallest * PREVIEW_WIDTH / width:4.1f} px | {len(pages)} pages, {widest} x {tallest}, "
                f"{max(map(len, pages)) / 1024:.1f} / {sum(map(len, pages)) / 1024:.1f} KB, "
                f"cap {smallest * PREVIEW_WIDTH / widest:.1f} px, {statistics.median(times) * 1000:.0f} ms"
            )


if __name__ == "__main__":
    main()
