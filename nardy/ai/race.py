"""Race tables of the variants with few checkers (Hypergammon): the value of a race, computed by this project.

Once the two sides of a short-nardy board can no longer hit or block each other (no contact), each side's race is
independent of the other's. For a variant with few checkers a side has few race positions (Hypergammon's 3
checkers: 2,925 multisets of points 0..24, 0 = borne off), so a *one-sided table* holds, for each of them, the
chances that the side needs exactly ``t`` more turns to bear off all, playing every roll to the move that minimises
the expected number of turns (computed from the lowest pip counts up with the variant's own move generator). The
side on roll wins a race when it needs no more turns than the other side: ``sum_t P_me(t) · P_opp(≥ t)``.

That chance is exact for the turn-minimising play and very close to the best play for the win (the two differ only
where a side would rather spread its chances than shorten its mean). The hard player values race positions by it
instead of by the network, and ``python -m nardy.ai.train --exact-races`` ends self-play games at the first race,
valued by it. The table ships in ``nardy/ai/weights/<variant>_race.npz`` (float64, with its settings); a rebuild
(:func:`build_table`, ``python -m nardy.ai.race --variant hypergammon --output ...``) gives the same numbers.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import sys
import threading
from importlib import resources
from typing import Final

import numpy as np
import numpy.typing as npt

from nardy.ai.features import F64, SIDE, U8
from nardy.movegen import turn_context_and_turns
from nardy.options import Options
from nardy.position import Position
from nardy.variants import get_variant

# the variants that have a race table, and their checkers per side
RACE_VARIANTS: Final[dict[str, int]] = {"hypergammon": 3}
# the longest race a table holds, in turns (a Hypergammon race needs at most 22 turns: 72 pips at 3+ a turn)
MAX_TURNS: Final = 40
_ROLLS: Final = tuple((a, b, (1.0 if a == b else 2.0) / 36.0) for a in range(1, 7) for b in range(a, 7))
_DEFAULT_OPTIONS: Final = Options()


def race_keys(checkers: int) -> list[tuple[int, ...]]:
    """Return every race position of one side with ``checkers`` checkers as the sorted points of its checkers
    (0 = borne off, 1..24 its own points), lowest pip count first, then lexicographic."""
    keys = list(itertools.combinations_with_replacement(range(25), checkers))
    return sorted(keys, key=lambda key: (sum(key), key))


def _side_of(key: tuple[int, ...]) -> tuple[int, ...]:
    side = [0] * SIDE
    for point in key:
        if point:
            side[point - 1] += 1
    return tuple(side)


def _key_of(side: bytes, checkers: int) -> tuple[int, ...]:
    points = [i + 1 for i in range(24) for _ in range(side[i])]
    return tuple(sorted([0] * (checkers - len(points)) + points))


def build_table(variant: str, max_pips: int | None = None) -> F64:
    """Return the one-sided race table of ``variant``: row ``i`` (the order of :func:`race_keys`) holds the chance
    that the side of that race position needs exactly ``t`` more turns (column ``t``) to bear off all, each roll
    played to the move with the fewest expected turns (the first such move of the generator on a tie). With
    ``max_pips`` only the first rows, the positions of at most that many pips (they depend only on each other).

    Raises:
        ValueError: ``variant`` has no race table (see :data:`RACE_VARIANTS`).
    """
    if variant not in RACE_VARIANTS:
        raise ValueError(f"no race table for variant {variant!r}; tables exist for {', '.join(RACE_VARIANTS)}")
    checkers = RACE_VARIANTS[variant]
    rules = get_variant(variant)
    keys = [key for key in race_keys(checkers) if max_pips is None or sum(key) <= max_pips]
    empty = (0,) * SIDE
    turns: dict[tuple[int, ...], F64] = {}
    mean: dict[tuple[int, ...], float] = {}
    for key in keys:
        dist = np.zeros(MAX_TURNS)
        if not any(key):
            dist[0] = 1.0
        else:
            position = Position(_side_of(key), empty)
            for a, b, weight in _ROLLS:
                _, level, _ = turn_context_and_turns(rules, position, (a, b), False, _DEFAULT_OPTIONS)
                # nothing blocks a race: every roll has a legal move, and each leaves fewer pips (a row done before)
                best = min((_key_of(state[:SIDE], checkers) for state in level), key=lambda k: mean[k])
                dist[1:] += weight * turns[best][:-1]
        turns[key] = dist
        mean[key] = float(np.arange(MAX_TURNS) @ dist)
    return np.array([turns[key] for key in keys])


def contact(batch: U8) -> npt.NDArray[np.bool_]:
    """Return, per row of a short-nardy ``(n, 50)`` batch, whether the sides can still hit or block each other (a
    checker on a bar, or a checker of the side on roll not yet past the other side's rearmost checker)."""
    me, opp = batch[:, :24], batch[:, SIDE : SIDE + 24]
    bar = (batch[:, 24] > 0) | (batch[:, SIDE + 24] > 0)
    my_back = np.where(me.any(axis=1), 24 - np.argmax(me[:, ::-1] > 0, axis=1), 0)
    opp_back = np.where(opp.any(axis=1), 24 - np.argmax(opp[:, ::-1] > 0, axis=1), 0)  # in its own frame
    return np.asarray(bar | (my_back + opp_back >= 25))


class RaceTable:
    """A variant's one-sided race table (see the module docstring) and the race values it gives."""

    def __init__(self, variant: str, turns: F64, info: dict[str, object] | None = None) -> None:
        checkers = RACE_VARIANTS[variant]
        keys = race_keys(checkers)
        if turns.shape != (len(keys), MAX_TURNS):
            raise ValueError(f"a {variant} race table has shape {(len(keys), MAX_TURNS)}, not {turns.shape}")
        self.variant = variant
        self.checkers = checkers
        self.turns = turns
        self.info = dict(info or {})
        self.at_least = np.cumsum(turns[:, ::-1], axis=1)[:, ::-1]  # P(T >= t)
        dense = np.full(25**checkers, -1, dtype=np.int64)
        for row, key in enumerate(keys):
            dense[self._dense(np.array([key]))[0]] = row
        self._rows = dense

    def _dense(self, sorted_points: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        weights = 25 ** np.arange(self.checkers - 1, -1, -1, dtype=np.int64)
        return np.asarray(sorted_points @ weights)

    def rows(self, sides: U8) -> npt.NDArray[np.int64]:
        """Return the table row of each side of an ``(n, 25)`` batch of race sides (own frame, none on the bar)."""
        counts = sides[:, :24].astype(np.int64)
        off = self.checkers - counts.sum(axis=1)
        cumulative = np.concatenate((off[:, None], off[:, None] + np.cumsum(counts, axis=1)), axis=1)  # (n, 25)
        # the k-th checker from the lowest stands on the number of points 0..24 whose running count is <= k
        points = np.stack([(cumulative <= k).sum(axis=1) for k in range(self.checkers)], axis=1)
        return np.asarray(self._rows[self._dense(points)])

    def win_chances(self, batch: U8) -> F64:
        """Return, per row of an ``(n, 50)`` batch, the chance that the side on roll wins the race (NaN where the
        sides are still in contact)."""
        out = np.full(batch.shape[0], np.nan)
        race = np.flatnonzero(~contact(batch))
        if race.size:
            mine = self.turns[self.rows(batch[race, :SIDE])]
            theirs = self.at_least[self.rows(batch[race, SIDE:])]
            out[race] = np.einsum("ij,ij->i", mine, theirs)
        return out

    def save(self, path: str) -> None:
        """Write the table and its ``info`` to an ``.npz`` file at ``path``.

        Raises:
            OSError: the file cannot be written.
        """
        meta = json.dumps({"variant": self.variant, "info": self.info})
        np.savez_compressed(path, turns=self.turns, meta=np.array(meta))

    @classmethod
    def from_bytes(cls, data: bytes) -> RaceTable:
        """Return the table stored in ``.npz`` bytes written by :meth:`save`.

        Raises:
            ValueError, KeyError: the data is not such a file.
        """
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            meta = json.loads(str(npz["meta"]))
            return cls(str(meta["variant"]), npz["turns"].astype(np.float64), dict(meta.get("info", {})))


_SHIPPED: dict[str, RaceTable | None] = {}
_LOCK = threading.Lock()


def race_table(variant: str) -> RaceTable | None:
    """Return the race table shipped for ``variant`` (loaded once, shared, thread-safe), or None when it has none."""
    with _LOCK:
        if variant not in _SHIPPED:
            table = None
            resource = resources.files("nardy.ai").joinpath("weights", f"{variant}_race.npz")
            if variant in RACE_VARIANTS and resource.is_file():
                table = RaceTable.from_bytes(resource.read_bytes())
            _SHIPPED[variant] = table
        return _SHIPPED[variant]


def main(argv: list[str] | None = None) -> int:
    """Build a race table from the command line (``--variant``, ``--output``); return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m nardy.ai.race", description=__doc__)
    parser.add_argument("--variant", choices=sorted(RACE_VARIANTS), required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args(argv)
    info: dict[str, object] = {"policy": "fewest expected turns", "max_turns": MAX_TURNS}
    table = RaceTable(args.variant, build_table(args.variant), info)
    table.save(args.output)
    print(f"{args.variant}: {len(table.turns)} race positions, written to {args.output}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
