"""Race tables, computed by this project: the exact value of a race (Hypergammon) or of a bear-off (short and long
nardy).

Once the two sides of a short-nardy board can no longer hit or block each other (no contact), each side's race is
independent of the other's, so a *one-sided table* holds, for each race position of one side, the chances that the
side needs exactly ``t`` more turns to bear off all, playing every roll to the move that minimises the expected
number of turns (computed from the lowest pip counts up with the variant's own move generator). The side on roll
wins a race when it needs no more turns than the other side: ``sum_t P_me(t) · P_opp(≥ t)``.

- Hypergammon's 3 checkers have few race positions (2,925 multisets of points 0..24, 0 = borne off): its table holds
  every race.
- Short nardy's 15 checkers have too many, so its table is the classic *one-sided bear-off database*: the 54,264
  positions of 15 checkers on the home board (points 1..6) and off. It applies where both sides have every checker
  home (no contact is then possible). It also holds, for the positions with none off, the chances of taking the
  first checker off in exactly ``t`` turns (played to the fewest expected turns for that), which give the gammons: the
  side on roll wins a gammon when it finishes before the other side takes its first checker off. Nackgammon and
  Portes share it (the same checkers and bear-off rules); no backgammon is possible from a bear-off. Long nardy
  shares it too: its bear-off follows the same rule (docs/rules.md §1), once both sides are home they cannot meet,
  and its марс is the gammon (the loser has borne off none). Its options that change the end are not in the table:
  under ``last_roll_draw`` a second side finishing on its extra turn draws, and under ``long_scoring=extended`` a
  марс with every checker home counts 3; the table values those positions as the default rules do.

The chances are exact for the turn-minimising play and very close to the best play for the win (the two differ only
where a side would rather spread its chances than shorten its mean). The hard player values the table's positions
by it instead of by the network, and ``python -m nardy.ai.train --exact-races`` ends self-play games at the first
race, valued by it. A table ships in ``nardy/ai/weights/<variant>_race.npz`` (Hypergammon's in float64, short
nardy's in float32, with its settings); a rebuild (:func:`build_table`, ``python -m nardy.ai.race --variant short
--output ...``) gives the same numbers.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import sys
import threading
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from nardy.ai.features import F64, SIDE, U8
from nardy.ai.search import candidate_states
from nardy.position import Position
from nardy.variants import get_variant


@dataclass(frozen=True, slots=True)
class RaceSpec:
    """What a variant's race table holds: ``checkers`` per side on points 0..``top`` (0 = borne off; 24 = every
    race, 6 = the bear-offs), up to ``max_turns - 1`` turns, and whether it also holds the first-off chances that
    give the gammons."""

    checkers: int
    top: int
    max_turns: int
    gammons: bool


# the variants that have a race table of their own
RACE_VARIANTS: Final[dict[str, RaceSpec]] = {
    # a Hypergammon race needs at most 22 turns (72 pips at 3+ a turn)
    "hypergammon": RaceSpec(checkers=3, top=24, max_turns=40, gammons=False),
    # a bear-off of 15 checkers needs at most 30 turns (all on the 6 point, rolling 1-2 every turn)
    "short": RaceSpec(checkers=15, top=6, max_turns=32, gammons=True),
}
# the variants that use another's table: the same checkers and the same bear-off rules
SHARED_TABLES: Final[dict[str, str]] = {"nackgammon": "short", "portes": "short", "long": "short"}
# the column of :meth:`RaceTable.chances` that gives each network output (long nardy's марс is a gammon: the loser
# has borne off none)
_COLUMNS: Final[dict[str, int]] = {
    "win": 0,
    "win_gammon": 1,
    "win_backgammon": 2,
    "lose_gammon": 3,
    "lose_backgammon": 4,
    "win_mars": 1,
    "lose_mars": 3,
}
SHORT_CHANCES: Final = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The chances a table gives by default, in this order."""
# Hypergammon's table, the columns its tests know
MAX_TURNS: Final = RACE_VARIANTS["hypergammon"].max_turns
# a table's chances: float64 as built, or float32 as short nardy's ships
Chances = npt.NDArray[np.floating[Any]]
_ROLLS: Final = tuple((a, b, (1.0 if a == b else 2.0) / 36.0) for a in range(1, 7) for b in range(a, 7))


def race_keys(checkers: int, top: int = 24) -> list[tuple[int, ...]]:
    """Return every race position of one side with ``checkers`` checkers on points 0..``top`` as the sorted points
    of its checkers (0 = borne off, 1..24 its own points), lowest pip count first, then lexicographic."""
    keys = list(itertools.combinations_with_replacement(range(top + 1), checkers))
    return sorted(keys, key=lambda key: (sum(key), key))


def _counts(key: tuple[int, ...], top: int) -> tuple[int, ...]:
    """Return the checkers of ``key`` on each of the points 1..``top``."""
    counts = [0] * top
    for point in key:
        if point:
            counts[point - 1] += 1
    return tuple(counts)


def _spec(variant: str) -> RaceSpec:
    if variant not in RACE_VARIANTS:
        raise ValueError(f"no race table for variant {variant!r}; tables exist for {', '.join(RACE_VARIANTS)}")
    return RACE_VARIANTS[variant]


def build_table(variant: str, max_pips: int | None = None) -> F64:
    """Return the one-sided race table of ``variant``: row ``i`` (the order of :func:`race_keys`) holds the chance
    that the side of that race position needs exactly ``t`` more turns (column ``t``) to bear off all, each roll
    played to the move with the fewest expected turns (the first such move of the generator on a tie). With
    ``max_pips`` only the first rows, the positions of at most that many pips (they depend only on each other).

    Raises:
        ValueError: ``variant`` has no race table of its own (see :data:`RACE_VARIANTS`).
    """
    spec = _spec(variant)
    return _build(variant, spec, max_pips, first_off=False)


def build_first_off(variant: str, max_pips: int | None = None) -> F64:
    """Return the first-off table of ``variant`` (rows as :func:`build_table`): the chance that the side needs
    exactly ``t`` more turns to bear off its first checker, each roll played to the move with the fewest expected
    such turns (a row with a checker already off has ``t = 0``).

    Raises:
        ValueError: ``variant`` has no race table of its own, or its table has no gammons.
    """
    spec = _spec(variant)
    if not spec.gammons:
        raise ValueError(f"the race table of {variant!r} has no first-off chances (its gammons do not count)")
    return _build(variant, spec, max_pips, first_off=True)


def _build(variant: str, spec: RaceSpec, max_pips: int | None, first_off: bool) -> F64:
    rules = get_variant(variant)
    keys = [key for key in race_keys(spec.checkers, spec.top) if max_pips is None or sum(key) <= max_pips]
    row_of = {_counts(key, spec.top): row for row, key in enumerate(keys)}
    table = np.zeros((len(keys), spec.max_turns))
    mean = np.zeros(len(keys))
    empty = (0,) * SIDE
    steps = np.arange(spec.max_turns)
    for row, key in enumerate(keys):
        if (first_off and 0 in key) or not any(key):
            table[row, 0] = 1.0
            continue
        position = Position(_counts(key, spec.top) + (0,) * (SIDE - spec.top), empty)
        for a, b, weight in _ROLLS:
            # nothing blocks a race: every roll has a legal move, and each leaves fewer pips (a row done before)
            states = candidate_states(rules, position, (a, b), False)
            counts = [tuple(state[: spec.top]) for state in states]
            if first_off and any(sum(c) < spec.checkers for c in counts):
                table[row, 1] += weight
                continue
            best = min((row_of[c] for c in counts), key=lambda r: mean[r])
            table[row, 1:] += weight * table[best, :-1]
        mean[row] = float(steps @ table[row])
    return table


def _at_least(chances: Chances) -> Chances:
    """Return ``P(T >= t)`` of each row of chances ``P(T = t)``."""
    return np.asarray(np.cumsum(chances[:, ::-1], axis=1)[:, ::-1])


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

    def __init__(
        self, variant: str, turns: Chances, info: dict[str, object] | None = None, first_off: Chances | None = None
    ) -> None:
        spec = _spec(variant)
        keys = race_keys(spec.checkers, spec.top)
        shape = (len(keys), spec.max_turns)
        if turns.shape != shape:
            raise ValueError(f"a {variant} race table has shape {shape}, not {turns.shape}")
        if spec.gammons and (first_off is None or first_off.shape != shape):
            got = None if first_off is None else first_off.shape
            raise ValueError(f"a {variant} race table needs first-off chances of shape {shape}, not {got}")
        self.variant = variant
        self.spec = spec
        self.checkers = spec.checkers
        self.turns = turns
        self.first_off = first_off if spec.gammons else None
        self.info = dict(info or {})
        codes = self._codes(np.array(keys, dtype=np.int64))
        self._order = np.argsort(codes)
        self._sorted_codes = codes[self._order]

    def _codes(self, sorted_points: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        weights = (self.spec.top + 1) ** np.arange(self.checkers - 1, -1, -1, dtype=np.int64)
        return np.asarray(sorted_points @ weights)

    def rows(self, sides: U8) -> npt.NDArray[np.int64]:
        """Return the table row of each side of an ``(n, 25)`` batch of sides in the table (own frame, none on the
        bar, none above the table's highest point)."""
        counts = sides[:, : self.spec.top].astype(np.int64)
        off = self.checkers - counts.sum(axis=1)
        cumulative = np.concatenate((off[:, None], off[:, None] + np.cumsum(counts, axis=1)), axis=1)
        # the k-th checker from the lowest stands on the number of points 0..top whose running count is <= k
        points = np.stack([(cumulative <= k).sum(axis=1) for k in range(self.checkers)], axis=1)
        found = np.searchsorted(self._sorted_codes, self._codes(points))
        return np.asarray(self._order[found])

    def covers(self, batch: U8) -> npt.NDArray[np.bool_]:
        """Return, per row of an ``(n, 50)`` batch, whether the table values it: no contact and, for a bear-off
        table, every checker of both sides home or off."""
        inside = ~contact(batch)
        if self.spec.top < 24:
            for start in (0, SIDE):
                inside &= ~batch[:, start + self.spec.top : start + 25].any(axis=1)
        return np.asarray(inside)

    def win_chances(self, batch: U8) -> F64:
        """Return, per row of an ``(n, 50)`` batch, the chance that the side on roll wins the race (NaN where the
        table does not value the row, see :meth:`covers`)."""
        return np.asarray(self.chances(batch)[:, 0])

    def chances(self, batch: U8, outputs: tuple[str, ...] = SHORT_CHANCES) -> F64:
        """Return, per row of an ``(n, 50)`` batch, the chances of the side on roll named by ``outputs`` (by default
        short nardy's five: win, win gammon, win backgammon, lose gammon, lose backgammon; long nardy's ``win_mars``
        and ``lose_mars`` are the gammons; gammons only where the table has them, never a backgammon) where the
        table values the row (:meth:`covers`), NaN elsewhere.

        Raises:
            KeyError: an output the table cannot give.
        """
        columns = [_COLUMNS[name] for name in outputs]
        if outputs != SHORT_CHANCES:
            return np.asarray(self.chances(batch)[:, columns])
        out = np.full((batch.shape[0], 5), np.nan)
        inside = np.flatnonzero(self.covers(batch))
        if not inside.size:
            return out
        mine, theirs = self.rows(batch[inside, :SIDE]), self.rows(batch[inside, SIDE:])
        my_turns, their_turns = self.turns[mine], self.turns[theirs]
        out[inside] = 0.0
        out[inside, 0] = np.einsum("ij,ij->i", my_turns, _at_least(their_turns))
        if self.first_off is not None:
            # I win a gammon when I finish no later than the turn on which the other side would take its first
            # checker off; it wins one when it finishes before I have taken mine off
            out[inside, 1] = np.einsum("ij,ij->i", my_turns, _at_least(self.first_off[theirs]))
            later = np.zeros((inside.size, self.spec.max_turns))
            later[:, :-1] = _at_least(self.first_off[mine])[:, 1:]
            out[inside, 3] = np.einsum("ij,ij->i", their_turns, later)
        return out

    def save(self, path: str, dtype: str = "float64") -> None:
        """Write the table (in ``dtype``) and its ``info`` to an ``.npz`` file at ``path``.

        Raises:
            OSError: the file cannot be written.
        """
        meta = json.dumps({"variant": self.variant, "info": self.info})
        turns = self.turns.astype(dtype)
        if self.first_off is None:
            np.savez_compressed(path, turns=turns, meta=np.array(meta))
        else:
            np.savez_compressed(path, turns=turns, first_off=self.first_off.astype(dtype), meta=np.array(meta))

    @classmethod
    def from_bytes(cls, data: bytes) -> RaceTable:
        """Return the table stored in ``.npz`` bytes written by :meth:`save` (kept in the stored precision).

        Raises:
            ValueError, KeyError: the data is not such a file.
        """
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            meta = json.loads(str(npz["meta"]))
            first_off = npz["first_off"] if "first_off" in npz.files else None
            return cls(str(meta["variant"]), npz["turns"], dict(meta.get("info", {})), first_off)


_SHIPPED: dict[str, RaceTable | None] = {}
_LOCK = threading.Lock()


def race_table(variant: str) -> RaceTable | None:
    """Return the race table shipped for ``variant`` or the one it shares (:data:`SHARED_TABLES`), loaded once,
    shared, thread-safe; None when it has none."""
    name = SHARED_TABLES.get(variant, variant)
    with _LOCK:
        if name not in _SHIPPED:
            table = None
            resource = resources.files("nardy.ai").joinpath("weights", f"{name}_race.npz")
            if name in RACE_VARIANTS and resource.is_file():
                table = RaceTable.from_bytes(resource.read_bytes())
            _SHIPPED[name] = table
        return _SHIPPED[name]


def main(argv: list[str] | None = None) -> int:
    """Build a race table from the command line (``--variant``, ``--output``); return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m nardy.ai.race", description=__doc__)
    parser.add_argument("--variant", choices=sorted(RACE_VARIANTS), required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--dtype", choices=("float64", "float32"), default="float64", help="stored precision")
    args = parser.parse_args(argv)
    spec = RACE_VARIANTS[args.variant]
    info: dict[str, object] = {"policy": "fewest expected turns", "max_turns": spec.max_turns, "dtype": args.dtype}
    first_off = build_first_off(args.variant) if spec.gammons else None
    table = RaceTable(args.variant, build_table(args.variant), info, first_off)
    table.save(args.output, args.dtype)
    print(f"{args.variant}: {len(table.turns)} race positions, written to {args.output}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
