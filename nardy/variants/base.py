"""The variant interface: a few hooks over the shared move generator.

Inside the generator a position is a 50-byte ``bytes`` *state*: bytes 0..24 are the mover's side, 25..49 the
opponent's, both in their own frames (the same layout as :class:`~nardy.position.Position`). Bytes hash fast and
are cached, which keeps the generator quick in pure Python.
"""

from __future__ import annotations

import struct
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from nardy import _build
from nardy.errors import InvalidPositionError
from nardy.move import point_name
from nardy.options import Options
from nardy.position import CHECKERS, SIDE_LENGTH, Position, Reduced, Side, reduce_frozen, side_pips

State = bytes
# (source point, destination point, hit, state after the step)
Successor = tuple[int, int, bool, State]
OPP: Final = SIDE_LENGTH  # offset of the opponent's side in a state


def to_state(position: Position) -> State:
    """Return the generator's byte state of ``position``."""
    return bytes(position.me) + bytes(position.opp)


_unpack_side = struct.Struct(f"{SIDE_LENGTH}B").unpack_from


def _load_native_sides() -> Callable[[bytes], tuple[Side, Side]] | None:
    if not _build.native_selected():
        return None
    try:
        from nardy._shortgen import sides
    except ImportError:
        return None
    return sides


_NATIVE_SIDES: Final = _load_native_sides()
"""The C splitter of a 50-byte state into its sides (``nardy/_shortgen.c``), when the compiled build runs."""


def from_state(state: State) -> Position:
    """Return the position held in a generator state (its two halves; a variant with extended sides, see
    :mod:`nardy.position`, has a longer state)."""
    if len(state) == 2 * SIDE_LENGTH:
        if _NATIVE_SIDES is not None:
            me, opp = _NATIVE_SIDES(state)
            return Position(me, opp)
        return Position(_unpack_side(state, 0), _unpack_side(state, OPP))
    half = len(state) // 2
    return Position(tuple(state[:half]), tuple(state[half:]))


@dataclass(frozen=True, slots=True)
class TurnContext:
    """What the rules of one turn depend on besides the position and the dice.

    ``head_limit`` is how many checkers may leave the head this turn (long nardy), ``head_start`` how many stood
    there when the turn began, ``block_per_move`` whether the block rule is checked after every step.
    """

    head_limit: int = 15
    head_start: int = 0
    block_per_move: bool = True

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)


@dataclass(frozen=True, slots=True)
class GameValue:
    """How a finished game is scored before the cube: its kind (``single``, ``gammon``, ``oin``, ...) and points."""

    kind: str
    points: int

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)


Geometry = Literal["opposite", "parallel"]


@dataclass(frozen=True, slots=True)
class Pool:
    """One part of a turn played as one step-wise plan: two different dice (``count`` 2), or ``count`` moves of
    one number (a double: 4; a Gul bara hand-over may leave fewer). ``hand_over``: when the mover cannot play the
    whole pool, the unplayed moves of it and of the pools after it pass to the opponent (Gul bara, docs/rules.md §6.4).
    """

    dice: tuple[int, int]
    count: int
    hand_over: bool = False

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)

    @classmethod
    def of_roll(cls, dice: tuple[int, int]) -> Pool:
        """Return the pool of an ordinary roll: both dice, or four moves of a double."""
        return cls(dice, 4 if dice[0] == dice[1] else 2)

    def to_list(self) -> list[int]:
        """Return the pool as ``[die, die, count, hand_over]`` (JSON-compatible)."""
        return [self.dice[0], self.dice[1], self.count, int(self.hand_over)]

    @classmethod
    def from_list(cls, data: Sequence[int]) -> Pool:
        """Return a pool read from :meth:`to_list` output.

        Raises:
            ValueError: not four values, dice outside 1..6, or a count a pool of those dice cannot have.
        """
        a, b, count, hand_over = (int(v) for v in data)
        if not (1 <= a <= 6 and 1 <= b <= 6) or not (1 <= count <= (4 if a == b else 2)) or (a != b and count != 2):
            raise InvalidPositionError(f"{list(data)!r} is not a pool of moves")
        return cls((a, b), count, bool(hand_over))


class Variant(ABC):
    """A game of the nardy family. Subclasses set the class attributes and implement the hooks.

    ``geometry`` is docs/rules.md §6's board geometry: ``opposite`` (short nardy: the opponent's point q is the mover's
    25 - q) or ``parallel`` (long nardy: q + 12). ``checkers`` is how many checkers each side plays with (15 but in
    Hypergammon); a position may hold fewer (borne off), never more. ``opening_rerolls``: the opening roll's winner
    rolls both dice afresh under ``opening=standard`` (long nardy, Portes). ``last_roll_draw_by_default`` is the
    variant's default of the option ``last_roll_draw``; ``first_off_loses`` reverses the aim (Misère): the side
    that bears off all its checkers first loses, and :meth:`game_value` is then what the *other* side wins.
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    titles: ClassVar[dict[str, str]]
    geometry: ClassVar[Geometry]
    has_bar: ClassVar[bool]
    cube_by_default: ClassVar[bool]
    resign_levels: ClassVar[tuple[str, ...]]
    checkers: ClassVar[int] = CHECKERS
    opening_rerolls: ClassVar[bool] = False
    last_roll_draw_by_default: ClassVar[bool] = False
    first_off_loses: ClassVar[bool] = False
    side_length: ClassVar[int] = SIDE_LENGTH
    # the prefix of the variant's own position id (None: GNU Backgammon's Position ID), see nardy.ids
    id_prefix: ClassVar[str | None] = None
    # opponent-counter byte index in a state for each mover point 1..24 (index 0 unused)
    opp_index: ClassVar[tuple[int, ...]]
    # how many opponent checkers close a point to the mover (2 where a lone one is hit, 1 where there is no hitting)
    closing_count: ClassVar[int]

    @abstractmethod
    def initial_side(self) -> Side:
        """Return one side's counters at the start of a game, in its own frame."""

    def initial_position(self) -> Position:
        """Return the starting position (both sides set up, either may be the mover)."""
        side = self.initial_side()
        return Position(side, side)

    @abstractmethod
    def to_mover_point(self, opp_point: int) -> int:
        """Return the mover's number of the opponent's point ``opp_point`` (1..24)."""

    def turn_contexts(
        self,
        position: Position,
        dice: tuple[int, int],
        first_turn: bool,
        options: Options,
        turn_start: Position | None = None,
    ) -> Sequence[TurnContext]:
        """Return the rule contexts to try in order; the first that lets the whole roll be played is used,
        else the last one. ``turn_start`` is the position when the mover's turn began, when this plan is not its
        first part (a Gul bara escalation)."""
        return (TurnContext(),)

    def roll_pools(self, dice: tuple[int, int], turns_taken: int, options: Options) -> tuple[Pool, ...]:
        """Return the parts a roll of ``dice`` is played in, in order, by a player who has taken ``turns_taken``
        turns: one :class:`Pool` everywhere but in Gul bara's escalating doubles."""
        return (Pool.of_roll(dice),)

    def names_double_after(self, dice: tuple[int, int], options: Options) -> bool:
        """Return whether a roll of ``dice`` wholly played lets the mover name a double and play it, then roll
        again (Acey-deucey's 1-2, docs/rules.md §6.5)."""
        return False

    def finisher_loses(self, options: Options) -> bool:
        """Return whether the side that bears off all its checkers first loses (Misère; long nardy's option
        ``misere``)."""
        return self.first_off_loses

    def sudden_result(self, position: Position, options: Options) -> tuple[int | None, GameValue, str] | None:
        """Return how a game ends at once when a part of the mover's turn leaves ``position`` (mover's frame, not
        swapped) other than by bearing off: ``(0, value, reason)`` the mover wins, ``(1, ...)`` the opponent wins,
        ``(None, ...)`` a draw (each side scores half of ``value`` times the cube); None when play goes on
        (everywhere but Plakoto's mother rule)."""
        return None

    def pips(self, side: Side) -> int:
        """Return the pip count of one side in its own frame."""
        return side_pips(side)

    @abstractmethod
    def successors(self, state: State, die: int, ctx: TurnContext) -> list[Successor]:
        """Return every single legal step of ``die`` from ``state`` (one per distinct source point)."""

    def turn_end_ok(self, state: State, ctx: TurnContext) -> bool:
        """Return whether a turn may end in ``state`` (rules checked only at the end of a turn)."""
        return True

    def step_refusal(self, state: State, src: int, die: int, ctx: TurnContext) -> tuple[str, str]:
        """Return ``(code, reason)`` for a step of ``die`` from point ``src`` (25 = bar) that :meth:`successors`
        does not offer: the code is one of :data:`~nardy.errors.ILLEGAL_MOVE_CODES`, the reason a short English
        sentence. Only for explaining refused moves (never on the move generator's path)."""
        if not state[src - 1]:
            return "no_checker", f"there is no checker of yours on point {point_name(src)}"
        if self.has_bar and state[SIDE_LENGTH - 1] and src != SIDE_LENGTH:
            return "bar_first", "a checker on the bar must enter first"
        dst = src - die
        if dst >= 1:
            if state[self.opp_index[dst]] >= self.closing_count:
                return "blocked", f"point {dst} is held by the opponent"
        elif any(state[6:SIDE_LENGTH]):
            return "bear_off_early", "you can bear off only when all your checkers are in your home board"
        elif dst < 0 and any(state[src:6]):
            return (
                "bear_off_higher",
                f"a {die} bears off from point {src} only when no checker of yours stands higher",
            )
        return "generic", f"{point_name(src)}/{point_name(max(dst, 0))} cannot be played with a {die} here"

    @abstractmethod
    def game_value(self, position: Position, options: Options) -> GameValue:
        """Return the value of a game the mover of ``position`` has just ended by bearing off the last checker
        (what the mover wins; with :attr:`first_off_loses`, what the opponent wins)."""

    def cube_enabled(self, options: Options) -> bool:
        """Return whether the doubling cube is in play under ``options``."""
        return self.cube_by_default if options.cube is None else options.cube

    def last_roll_draw(self, options: Options) -> bool:
        """Return whether the last-roll draw (docs/rules.md §2, §6.3) is in force under ``options``."""
        return self.last_roll_draw_by_default if options.last_roll_draw is None else options.last_roll_draw

    def resign_options(self, options: Options) -> tuple[str, ...]:
        """Return the resignation levels open under ``options``, smallest first (by default :attr:`resign_levels`;
        a variant whose options drop gammons drops those levels too)."""
        return self.resign_levels

    def borne_off(self, side: Side) -> int:
        """Return how many checkers ``side`` has borne off (:attr:`checkers` less those still in play, on the
        board, the bar or in the reserve)."""
        return self.checkers - sum(side)

    def validate(self, position: Position) -> None:
        """Check the shape of a position and that no point holds both colours.

        Raises:
            InvalidPositionError: with what is wrong and the position's key.
        """
        for label, side in (("mover", position.me), ("opponent", position.opp)):
            if len(side) != self.side_length:
                raise InvalidPositionError(
                    f"{label} side has {len(side)} counters, not {self.side_length} ({position.key()})"
                )
            if any(not isinstance(c, int) or c < 0 for c in side):
                raise InvalidPositionError(f"{label} side has a negative or non-integer count ({position.key()})")
            if sum(side) > self.checkers:
                raise InvalidPositionError(
                    f"{label} side has {sum(side)} checkers, more than {self.checkers} ({position.key()})"
                )
            if side[24] and not self.has_bar:
                raise InvalidPositionError(f"{label} side has checkers on the bar in {self.name} nardy")
        for point in range(1, 25):
            opp_count = position.opp[self.opp_index[point] - self.side_length]
            if position.me[point - 1] and opp_count:
                raise InvalidPositionError(f"point {point} holds checkers of both colours ({position.key()})")
