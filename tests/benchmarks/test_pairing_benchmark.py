"""The pairing benchmark runs: its quick version (``--quick``: 200 players for a second, one and two worker
processes on Redis and on SQLite, and a small arena simulation) prints every figure. Timings are not checked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_quick_benchmark_prints_its_figures() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "pairing.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "one lobby_pairs call over 200 seekers" in out
    assert ("Redis, 1 worker(s): " in out and "Redis, 2 worker(s): " in out) or "Redis: skipped" in out
    for workers in (1, 2):
        assert f"SQLite, {workers} worker process(es) on one file: " in out
    assert "p99" in out and " 0 pairings open at the end" in out
    assert "arena of 20 players, 15 virtual minutes" in out and "games per player min" in out
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
