"""Shared helpers of the engine tests: positions from seeded random self-play, and hypothesis strategies over them.

The test modules import these helpers with ``from nardy_testkit import ...``: this file registers itself under that
unique module name when pytest loads it (always before the modules beside it). Plain ``from conftest import`` would
get whichever directory's conftest pytest loaded last (tests/bot has one too), as in ``pytest tests/nardy tests/bot``.

A *game* is a list of :class:`Turn` records, one per ply: the position before the ply (mover's frame), the roll, whether
it is the mover's own first turn, and the options in force. Games are played with random legal moves, mixed with a
greedy "run home" policy in some games so that races and bear-offs are common too. Everything is seeded, so a corpus is
the same on every run.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from hypothesis import strategies as st

from nardy import Move, Options, Position, Step, TurnPlan, Variant, get_variant, legal_moves
from nardy.position import CHECKERS, make_side

SHORT = get_variant("short")
LONG = get_variant("long")
DEFAULT_OPTIONS = Options()
LONG_OPTIONS = (
    Options(),
    Options(block_check="end_of_turn"),
    Options(head_exception="classic"),
    Options(head_exception="none"),
)
"""Option sets a long-nardy game is played under (a game keeps one set throughout)."""
MAX_PLIES = 500
GAMES_PER_VARIANT = 40
"""How many cached self-play games the hypothesis strategies draw positions from, per variant."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One ply of a game: the position before it (mover's frame), the roll, first-turn flag and options."""

    variant: Variant
    position: Position
    dice: tuple[int, int]
    first_turn: bool = False
    options: Options = DEFAULT_OPTIONS
    ply: int = 0

    def plan(self) -> TurnPlan:
        """Return the step-wise plan of this ply."""
        return TurnPlan(self.variant, self.position, self.dice, first_turn=self.first_turn, options=self.options)

    def moves(self) -> list[Move]:
        """Return the legal turns of this ply."""
        return legal_moves(self.variant, self.position, self.dice, first_turn=self.first_turn, options=self.options)

    def with_dice(self, dice: tuple[int, int]) -> Turn:
        """Return the same position and flags with another roll."""
        return Turn(self.variant, self.position, dice, self.first_turn, self.options, self.ply)

    def __repr__(self) -> str:
        return (
            f"Turn({self.variant.name}, {self.position.key()}, dice={self.dice}, first_turn={self.first_turn}, "
            f"options={self.options}, ply={self.ply})"
        )


def pos(me: dict[int, int], opp: dict[int, int]) -> Position:
    """Return a position from ``{point: count}`` maps, each side in its own frame (point 25 = bar)."""
    return Position(make_side(me), make_side(opp))


def notations(moves: list[Move]) -> set[str]:
    """Return the canonical notations of ``moves``."""
    return {m.notation for m in moves}


def apply_step(variant: Variant, position: Position, step: Step) -> Position:
    """Return ``position`` after ``step``, computed directly on the counters (independent of the generator)."""
    me, opp = list(position.me), list(position.opp)
    assert me[step.src - 1] > 0, f"no checker on {step.src} for {step}"
    me[step.src - 1] -= 1
    if step.dst:
        me[step.dst - 1] += 1
        if step.hit:
            q = 25 - step.dst  # short nardy only: the opponent's point under the landing point
            assert opp[q - 1] == 1, f"{step} does not hit a blot"
            opp[q - 1] = 0
            opp[24] += 1
    return Position(tuple(me), tuple(opp))


def pip_drop(step: Step) -> int:
    """Return the pips a step moves: its die, or the source point for a bear-off with a higher die."""
    if step.dst == 0 and step.die > step.src:
        return step.src
    return step.die


# the mover's points along the long-nardy opponent's path, the opponent's point 1 first
_LONG_OPP_PATH = tuple(q + 12 if q <= 12 else q - 12 for q in range(1, 25))


def long_block_length(side: tuple[int, ...]) -> int:
    """Return the longest run of points ``side`` holds along the long-nardy opponent's path."""
    best = run = 0
    for point in _LONG_OPP_PATH:
        run = run + 1 if side[point - 1] else 0
        best = max(best, run)
    return best


def _runner(move: Move) -> int:
    return -move.position.pips()[0] + 3 * move.hits


def _blocker(move: Move) -> int:
    side = move.position.me
    return 4 * long_block_length(side) + sum(1 for c in side[:24] if c)


def _choose(moves: list[Move], rng: random.Random, greed: float, blocker: bool) -> Move:
    if rng.random() < greed:
        score = _blocker if blocker else _runner
        best = max(map(score, moves))
        return rng.choice([m for m in moves if score(m) == best])
    return rng.choice(moves)


def play_game(
    variant: Variant, seed: int, options: Options = DEFAULT_OPTIONS, max_plies: int = MAX_PLIES
) -> list[Turn]:
    """Return the plies of one seeded random self-play game (it stops when a side has borne off all 15)."""
    rng = random.Random(f"{variant.name}-{seed}")
    greed = rng.choice((0.0, 0.0, 0.5, 0.9))
    # long nardy: half of the games build blocks (primes) greedily, so that the block rule is often in play
    blocker = variant.name == "long" and seed % 2 == 1
    position = variant.initial_position()
    turns: list[Turn] = []
    for ply in range(max_plies):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        turn = Turn(variant, position, dice, variant.name == "long" and ply < 2, options, ply)
        turns.append(turn)
        moves = turn.moves()
        after = _choose(moves, rng, greed, blocker).position if moves else position
        if sum(after.me) == 0:
            break
        position = after.swapped()
    return turns


def game_turns(
    variant: Variant, seeds: range, options_cycle: tuple[Options, ...] = (DEFAULT_OPTIONS,)
) -> Iterator[Turn]:
    """Yield every ply of the seeded games ``seeds``, the options cycling through ``options_cycle``."""
    for seed in seeds:
        yield from play_game(variant, seed, options_cycle[seed % len(options_cycle)])


@cache
def cached_game(variant_name: str, seed: int) -> tuple[Turn, ...]:
    """Return one self-play game, cached for the session (long games cycle through :data:`LONG_OPTIONS`)."""
    variant = get_variant(variant_name)
    options = LONG_OPTIONS[seed % len(LONG_OPTIONS)] if variant is LONG else DEFAULT_OPTIONS
    return tuple(play_game(variant, seed, options))


DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))
DOUBLES = st.integers(1, 6).map(lambda d: (d, d))


@st.composite
def turns(draw: st.DrawFn, variant_name: str) -> Turn:
    """Draw a position from a cached self-play game of ``variant_name`` with a fresh roll (doubles favoured a bit).

    First turns of long nardy are drawn often, since the head-rule exception lives there.
    """
    seed = draw(st.integers(0, GAMES_PER_VARIANT - 1))
    game = cached_game(variant_name, seed)
    anywhere = st.integers(0, len(game) - 1)
    index = draw(st.one_of(anywhere, st.integers(0, min(1, len(game) - 1))) if variant_name == "long" else anywhere)
    dice = draw(st.one_of(DICE, DOUBLES))
    return game[index].with_dice(dice)


def sides_ok(variant: Variant, position: Position) -> None:
    """Assert the invariants every reachable position keeps: 15 checkers per side, one colour per point."""
    variant.validate(position)
    for side in (position.me, position.opp):
        assert sum(side) <= CHECKERS
        assert len(side) == 25


sys.modules["nardy_testkit"] = sys.modules[__name__]
