"""Hypergammon solved: the exact cubeless win chance of every position, computed by this project.

With 3 checkers a side, a side has 3,276 arrangements (each checker borne off, on one of 24 points or on the bar),
so the whole game is 3,276² ≈ 10.7 million positions (side on roll, other side). ``nardy/ai/hyper_exact.c`` values
them all by value iteration: a position's value is the average over the 21 rolls of the best play's value, the
best play maximising the mover's chance to win (Hypergammon scores single wins only, so that chance is the whole
equity), repeated until no value changes by more than a tolerance. Sweeps go in order of the two sides' total pip
count, lowest first and highest first in turn: a play without a hit lowers the count, so a race is exact after the
first sweep and only hits make later sweeps change anything.

The table is a training tool, not shipped: 43 MB of float32, compiled and filled on demand (``cc``; 44 sweeps,
56 minutes on two cores with OpenMP, to a largest last change of 9e-6). :func:`distill` trains the hard player's
network on it (``python -m nardy.ai.hyper_exact distill``), and ``benchmarks/ai_strength.py --exact-table PATH``
plays the table itself (``exact vs medium``, ``exact vs hard``) as the limit of what a Hypergammon player can reach.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import hashlib
import itertools
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from nardy.ai.features import SIDE, U8, encode, swap
from nardy.ai.network import Network
from nardy.movegen import turn_context_and_turns
from nardy.options import Options
from nardy.position import Position
from nardy.variants import get_variant

CHECKERS: Final = 3
LOCATIONS: Final = 26  # 0 = borne off, 1..24 the side's points, 25 = the bar
SIDES: Final = 3276  # combinations with replacement of 3 checkers over 26 locations
BAR: Final = 25
I32 = npt.NDArray[np.int32]


class SolverUnavailableError(RuntimeError):
    """The C solver could not be compiled (no C compiler)."""


@functools.cache
def side_triples() -> tuple[tuple[int, int, int], ...]:
    """Return every arrangement of one side as the sorted locations of its checkers, in index order (the order of
    ``itertools.combinations_with_replacement(range(26), 3)``, as the C code numbers them)."""
    return tuple((a, b, c) for a, b, c in itertools.combinations_with_replacement(range(LOCATIONS), CHECKERS))


_RANKS: Final = np.full(LOCATIONS**CHECKERS, -1, dtype=np.int64)
for _rank, (_a, _b, _c) in enumerate(side_triples()):
    _RANKS[(_a * LOCATIONS + _b) * LOCATIONS + _c] = _rank


def side_indices(sides: U8) -> npt.NDArray[np.int64]:
    """Return the table index of each side of an ``(n, 25)`` batch (entries 0..23 the points 1..24, 24 the bar,
    the rest of the 3 checkers borne off)."""
    counts = np.zeros((sides.shape[0], LOCATIONS), dtype=np.int64)
    counts[:, 1:LOCATIONS] = sides[:, :SIDE].astype(np.int64)
    counts[:, 0] = CHECKERS - counts[:, 1:].sum(axis=1)
    cumulative = np.cumsum(counts, axis=1)
    # the k-th checker from the lowest stands on the number of locations whose running count is <= k
    located = np.stack([(cumulative <= k).sum(axis=1) for k in range(CHECKERS)], axis=1)
    return np.asarray(_RANKS[(located[:, 0] * LOCATIONS + located[:, 1]) * LOCATIONS + located[:, 2]])


def position_indices(batch: U8) -> npt.NDArray[np.int64]:
    """Return the table index (``me * 3276 + opp``) of each row of an ``(n, 50)`` Hypergammon batch."""
    return np.asarray(side_indices(batch[:, :SIDE]) * SIDES + side_indices(batch[:, SIDE:]))


def side_array(index: int) -> tuple[int, ...]:
    """Return the 25-entry side (as in a ``Position``) of side index ``index``."""
    side = [0] * SIDE
    for location in side_triples()[index]:
        if location:
            side[location - 1] += 1
    return tuple(side)


def _source() -> str:
    return resources.files("nardy.ai").joinpath("hyper_exact.c").read_text(encoding="utf-8")


def load_solver(build_dir: str | None = None) -> ctypes.CDLL:
    """Return the C solver as a loaded library, compiling ``hyper_exact.c`` with ``$CC`` (default ``cc``) into
    ``build_dir`` (default: a cache folder under the system's temporary directory, keyed by the source's digest).

    Raises:
        SolverUnavailableError: no C compiler, or the source does not compile.
    """
    source = _source()
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    folder = Path(build_dir or Path(tempfile.gettempdir()) / "nardy-hyper-exact")
    folder.mkdir(parents=True, exist_ok=True)
    library = folder / f"hyper_exact-{digest}.so"
    if not library.exists():
        compiler = os.environ.get("CC", "cc")
        if shutil.which(compiler) is None:
            raise SolverUnavailableError(f"no C compiler {compiler!r} to build the Hypergammon solver")
        c_file = folder / f"hyper_exact-{digest}.c"
        c_file.write_text(source, encoding="utf-8")
        partial = folder / f"hyper_exact-{digest}.{os.getpid()}.so"
        base = [compiler, "-O3", "-shared", "-fPIC", str(c_file), "-o", str(partial)]
        # OpenMP where the compiler has it (the sweeps then use every core); else one thread
        for flags in (["-fopenmp"], []):
            done = subprocess.run([*base[:1], *flags, *base[1:]], capture_output=True, text=True, check=False)
            if done.returncode == 0:
                break
        else:
            raise SolverUnavailableError(f"the Hypergammon solver does not compile: {done.stderr.strip()[:500]}")
        partial.replace(library)
    lib = ctypes.CDLL(str(library))
    lib.hyper_sweep.restype = ctypes.c_double
    lib.hyper_sweep.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
    lib.hyper_roll_value.restype = ctypes.c_double
    lib.hyper_roll_value.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
    lib.hyper_ends.restype = ctypes.c_int
    lib.hyper_ends.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    lib.hyper_live.restype = ctypes.c_int
    lib.hyper_live.argtypes = [ctypes.c_int, ctypes.c_int]
    lib.hyper_initialise.argtypes = [ctypes.c_void_p]
    if lib.hyper_sides() != SIDES:
        raise SolverUnavailableError("the compiled solver numbers the sides differently")
    return lib


def solver_ends(lib: ctypes.CDLL, me: int, opp: int, dice: tuple[int, int]) -> set[tuple[int, int]]:
    """Return the C generator's legal ends of a turn as ``(me, opp)`` side-index pairs, in the mover's frame."""
    out = (ctypes.c_int32 * 1024)()
    count = lib.hyper_ends(me, opp, dice[0], dice[1], out)
    return {(out[2 * k], out[2 * k + 1]) for k in range(count)}


def _pips(index: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    triples = np.array(side_triples(), dtype=np.int64)
    return np.asarray(triples.sum(axis=1)[index])


def sweep_order() -> I32:
    """Return the positions a sweep updates (``me * 3276 + opp``), lowest total pip count first."""
    me, opp = np.divmod(np.arange(SIDES * SIDES, dtype=np.int64), SIDES)
    live = (me != 0) & (opp != 0)
    triples = np.array(side_triples(), dtype=np.int64)
    on_board = (triples >= 1) & (triples <= 24)
    # a conflict: a point of mine (p) that the other side also holds (its 25 - p)
    occupied = np.zeros((SIDES, 25), dtype=bool)
    for k in range(CHECKERS):
        occupied[np.arange(SIDES)[on_board[:, k]], triples[on_board[:, k], k]] = True
    # my point p is the other side's 25 - p
    clash = (occupied[me, 1:] & occupied[opp, 24:0:-1]).any(axis=1)
    candidates = np.flatnonzero(live & ~clash)
    order = candidates[np.argsort(_pips(me[candidates]) + _pips(opp[candidates]), kind="stable")]
    return np.asarray(order, dtype=np.int32)


def solve(
    tolerance: float = 1e-5,
    max_sweeps: int = 200,
    progress: Callable[[int, float, float], None] | None = None,
    start: npt.NDArray[np.float32] | None = None,
    checkpoint: Callable[[npt.NDArray[np.float32]], None] | None = None,
) -> npt.NDArray[np.float32]:
    """Return the exact win chances of every Hypergammon position (index ``me * 3276 + opp``, the side ``me`` on
    roll), sweeping until no value changes by more than ``tolerance`` (or ``max_sweeps`` sweeps). Sweeps go lowest
    pips first and highest first in turn (symmetric Gauss-Seidel). ``start`` is a table to go on from (an earlier
    run's), ``progress`` is called after each sweep with its number, largest change and seconds, ``checkpoint``
    with the table.

    Raises:
        SolverUnavailableError: the C solver cannot be built.
    """
    lib = load_solver()
    table = np.empty(SIDES * SIDES, dtype=np.float32)
    lib.hyper_initialise(table.ctypes.data)
    if start is not None:
        table[:] = start
    forward = sweep_order()
    backward = np.ascontiguousarray(forward[::-1])
    for number in range(1, max_sweeps + 1):
        began = time.perf_counter()
        order = forward if number % 2 else backward
        change = lib.hyper_sweep(table.ctypes.data, order.ctypes.data, len(order))
        if progress is not None:
            progress(number, change, time.perf_counter() - began)
        if checkpoint is not None:
            checkpoint(table)
        if change <= tolerance:
            break
    return table


class ExactTable:
    """The solved table and the values it gives."""

    def __init__(self, values: npt.NDArray[np.float32]) -> None:
        if values.shape != (SIDES * SIDES,):
            raise ValueError(f"a Hypergammon table holds {SIDES * SIDES} values, not {values.shape}")
        self.values = values

    def win_chances(self, batch: U8) -> npt.NDArray[np.float64]:
        """Return the chance that the side on roll wins, per row of an ``(n, 50)`` batch (a side that has borne
        off all has won: 1 for it on roll, which never happens in play, 0 when the other side has)."""
        me = side_indices(batch[:, :SIDE])
        opp = side_indices(batch[:, SIDE:])
        out: npt.NDArray[np.float64] = self.values[me * SIDES + opp].astype(np.float64)
        out[opp == 0] = 0.0
        out[me == 0] = 1.0
        return out

    def save(self, path: str) -> None:
        """Write the table to ``path`` (raw float32, ``numpy.save``).

        Raises:
            OSError: the file cannot be written.
        """
        np.save(path, self.values)

    @classmethod
    def load(cls, path: str) -> ExactTable:
        """Return the table saved at ``path``.

        Raises:
            OSError: the file cannot be read.
            ValueError: it is not a table.
        """
        return cls(np.load(path, allow_pickle=False).astype(np.float32))


def game_positions(table: ExactTable, games: int, seed: int, blunder: float = 0.1) -> U8:
    """Return the positions (side on roll first, as an ``(n, 50)`` batch) met in ``games`` games of Hypergammon
    played by the table, each move the best one except, with chance ``blunder``, a random legal one (so that the
    positions of weaker play appear too)."""
    rules = get_variant("hypergammon")
    options = Options()
    rng = random.Random(seed)
    rows: list[bytes] = []
    for _ in range(games):
        position = rules.initial_position()
        for _ply in range(400):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            _, level, _ = turn_context_and_turns(rules, position, dice, False, options)
            states = list(level)
            if states:
                if rng.random() < blunder:
                    state = rng.choice(states)
                else:
                    batch = np.frombuffer(b"".join(states), dtype=np.uint8).reshape(len(states), 2 * SIDE)
                    state = states[int(np.argmax(1.0 - table.win_chances(swap(batch))))]
                if not any(state[:SIDE]):  # the mover has borne off all
                    break
                position = Position(tuple(state[SIDE:]), tuple(state[:SIDE]))
            else:
                position = position.swapped()
            rows.append(bytes(position.me) + bytes(position.opp))
    return np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(len(rows), 2 * SIDE).copy()


def distill(
    table: ExactTable,
    network: Network,
    positions: U8,
    *,
    epochs: int,
    batch_size: int = 1024,
    rate: float = 1e-3,
    seed: int = 0,
    progress: Callable[[int, float], None] | None = None,
) -> Network:
    """Return ``network`` trained by supervised learning to give the table's win chance of every position of
    ``positions`` as its win output (the other outputs, never scored in Hypergammon, towards 0): cross-entropy, Adam
    with step ``rate``, ``epochs`` passes in a seeded random order. ``progress`` gets each epoch's number and mean
    absolute error of the win output."""
    rng = np.random.default_rng(seed)
    targets = np.zeros((positions.shape[0], network.b2.shape[0]))
    targets[:, 0] = table.win_chances(positions)
    params = [network.w1.copy(), network.b1.copy(), network.w2.copy(), network.b2.copy()]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(positions.shape[0])
        error = 0.0
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            inputs = encode("hypergammon", positions[rows])
            hidden = 1.0 / (1.0 + np.exp(-np.clip(inputs @ params[0] + params[1], -40.0, 40.0)))
            outputs = 1.0 / (1.0 + np.exp(-np.clip(hidden @ params[2] + params[3], -40.0, 40.0)))
            delta = (outputs - targets[rows]) / len(rows)  # cross-entropy through the sigmoid
            error += float(np.abs(outputs[:, 0] - targets[rows, 0]).sum())
            back = (delta @ params[2].T) * hidden * (1.0 - hidden)
            grads = [inputs.T @ back, back.sum(axis=0), hidden.T @ delta, delta.sum(axis=0)]
            step += 1
            for k, grad in enumerate(grads):
                moments[k] = 0.9 * moments[k] + 0.1 * grad
                squares[k] = 0.999 * squares[k] + 0.001 * grad * grad
                corrected = moments[k] / (1.0 - 0.9**step)
                scale = np.sqrt(squares[k] / (1.0 - 0.999**step)) + 1e-8
                params[k] = params[k] - rate * corrected / scale
        if progress is not None:
            progress(epoch, error / len(order))
    w1, b1, w2, b2 = params
    return Network("hypergammon", w1, b1, w2, b2, info=dict(network.info))


def main(argv: list[str] | None = None) -> int:
    """Solve Hypergammon (``solve --output T``) or train a network on the solved table (``distill --table T
    --output N``) from the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m nardy.ai.hyper_exact", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    solving = commands.add_parser("solve", help="value every position; write the table (.npy)")
    solving.add_argument("--output", required=True)
    solving.add_argument("--tolerance", type=float, default=1e-5)
    solving.add_argument("--max-sweeps", type=int, default=200)
    solving.add_argument("--resume", action="store_true", help="go on from the table at --output")
    distilling = commands.add_parser("distill", help="train the hard player's network on the table")
    distilling.add_argument("--table", required=True)
    distilling.add_argument("--init-from", required=True, help="the network to start from (.npz)")
    distilling.add_argument("--games", type=int, default=20_000, help="games of the table's play to learn from")
    distilling.add_argument("--uniform", type=int, default=2_000_000, help="positions drawn from the whole table")
    distilling.add_argument("--epochs", type=int, default=8)
    distilling.add_argument("--rate", type=float, default=1e-3)
    distilling.add_argument("--seed", type=int, default=1)
    distilling.add_argument("--output", required=True)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.command == "solve":

        def report(number: int, change: float, seconds: float) -> None:
            print(f"sweep {number}: largest change {change:.2e} in {seconds:.0f} s", flush=True)

        def save(values: npt.NDArray[np.float32]) -> None:
            partial = f"{args.output}.partial.npy"
            np.save(partial, values)
            os.replace(partial, args.output)

        start = ExactTable.load(args.output).values if args.resume else None
        ExactTable(solve(args.tolerance, args.max_sweeps, report, start, save)).save(args.output)
        print(f"written to {args.output} in {time.perf_counter() - started:.0f} s", flush=True)
        return 0
    table = ExactTable.load(args.table)
    played = game_positions(table, args.games, args.seed)
    rng = np.random.default_rng(args.seed)
    drawn = rng.choice(sweep_order(), args.uniform, replace=False)
    me, opp = np.divmod(drawn.astype(np.int64), SIDES)
    sides = np.array([side_array(i) for i in range(SIDES)], dtype=np.uint8)
    uniform = np.concatenate((sides[me], sides[opp]), axis=1)
    positions = np.concatenate((played, uniform))
    print(f"{len(played)} positions from {args.games} games, {len(uniform)} drawn from the table", flush=True)

    def epoch_done(number: int, error: float) -> None:
        print(f"epoch {number}: mean absolute error of the win chance {error:.4f}", flush=True)

    network = distill(
        table,
        Network.load(args.init_from),
        positions,
        epochs=args.epochs,
        rate=args.rate,
        seed=args.seed,
        progress=epoch_done,
    )
    seconds = round(time.perf_counter() - started)
    network.info["distilled"] = {
        "from": "the solved table (python -m nardy.ai.hyper_exact solve)",
        "init_from": Path(args.init_from).name,
        "games": args.games,
        "game_positions": len(played),
        "uniform_positions": len(uniform),
        "epochs": args.epochs,
        "rate": args.rate,
        "seed": args.seed,
        "seconds": seconds,
    }
    network.save(args.output)
    print(f"written to {args.output} in {seconds} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
