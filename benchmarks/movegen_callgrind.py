"""Instructions per position of the move generator, counted by valgrind's callgrind (figures, never pass/fail):
``python benchmarks/movegen_callgrind.py [--variant short] [--what list]``.

Runs this script twice under ``valgrind --tool=callgrind``, both times with ``PYTHONHASHSEED=0``: once building the
corpus of ``benchmarks/movegen.py`` (``build_corpus(variant, 2000, 2026)``) and stopping, once building it and then
running one pass of ``--what`` over it (``list``: ``legal_moves``; ``count``: ``count_legal_moves``; ``states``: the
computer players' candidate states, ``nardy.ai.search.candidate_states``). The difference of the two totals divided
by the corpus size is the cost of one position, whatever else the machine does. It counts whichever build of the
engine is installed (``NARDY_PURE=1`` the pure one). Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CORPUS_SIZE = 2000
CORPUS_SEED = 2026
WHATS = ("none", "list", "count", "states")


def run_pass(variant_name: str, what: str) -> None:
    """Build the corpus, import what ``what`` needs (also for ``none`` of ``states``: numpy), then run one pass."""
    from movegen import build_corpus

    from nardy import count_legal_moves, get_variant, legal_moves
    from nardy.ai.search import candidate_states

    variant = get_variant(variant_name)
    corpus = build_corpus(variant, CORPUS_SIZE, CORPUS_SEED)
    if what == "list":
        for position, dice, first in corpus:
            legal_moves(variant, position, dice, first_turn=first)
    elif what == "count":
        for position, dice, first in corpus:
            count_legal_moves(variant, position, dice, first_turn=first)
    elif what == "states":
        for position, dice, first in corpus:
            candidate_states(variant, position, dice, first)


def instructions(variant_name: str, what: str) -> int:
    """Return callgrind's total instruction count of one run of this script's ``--run`` mode."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={Path(tmp) / 'callgrind.out'}",
            sys.executable,
            __file__,
            "--variant",
            variant_name,
            "--run",
            what,
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same dict and set layouts in every run
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no total:\n{done.stderr}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="short")
    parser.add_argument("--what", choices=WHATS[1:], default="list")
    parser.add_argument("--run", choices=WHATS, help=argparse.SUPPRESS)  # the child run under valgrind
    args = parser.parse_args()
    if args.run is not None:
        run_pass(args.variant, args.run)
        return
    from nardy import compiled_engine

    base = instructions(args.variant, "none")
    total = instructions(args.variant, args.what)
    build = "compiled (mypyc)" if compiled_engine() else "pure Python"
    print(f"engine build: {build}; {args.variant}, {CORPUS_SIZE} positions (seed {CORPUS_SEED})")
    print(f"  {args.what}: {(total - base) / CORPUS_SIZE / 1000:,.1f} k instructions per position")


if __name__ == "__main__":
    main()
