"""Legal moves: full turns (one per distinct resulting position) and single steps for button UIs.

The generator works level by level over the dice, keeping one entry per distinct state at each level, so doubles
cost no more than the positions they can reach. Must-play rules are enforced while generating: the turn uses as many
dice as possible, and when only one die of two can be used, the larger one if it can be.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from types import ModuleType
from typing import Final

from nardy import _build
from nardy.errors import IllegalMoveError
from nardy.ids import variant_position_id
from nardy.move import Move, Step
from nardy.options import Options
from nardy.position import Position, Side
from nardy.variants import Variant, get_variant
from nardy.variants.base import State, TurnContext, from_state, to_state
from nardy.variants.short import ShortNardy

Path = tuple[Step, ...]  # the steps of one way to reach a state
Level = dict[State, Path]

DEFAULT_OPTIONS = Options()


# Steps are immutable and few, so one shared object serves every path: indexed by (src, dst, die, hit), src and dst
# 0..26 (26 = the reserve), die 1..6
_STEPS: Final[list[Step | None]] = [None] * (27 * 27 * 14)


def _step(src: int, dst: int, die: int, hit: bool) -> Step:
    index = (src * 27 + dst) * 14 + die * 2 + hit
    return _STEPS[index] or _new_step(index, src, dst, die, hit)


def _new_step(index: int, src: int, dst: int, die: int, hit: bool) -> Step:
    step = _STEPS[index] = Step(src, dst, die, hit)
    return step


def _expand(variant: Variant, level: Level, die: int, ctx: TurnContext) -> Level:
    out: Level = {}
    die_index = die * 2  # the step table's index, inlined: this loop is the generator's innermost
    for state, path in level.items():
        for src, dst, hit, new in variant.successors(state, die, ctx):
            if new not in out:
                index = (src * 27 + dst) * 14 + die_index + hit
                out[new] = (*path, _STEPS[index] or _new_step(index, src, dst, die, hit))
    return out


NewStep = Callable[[int, int, int, int, bool], Step]
NativeTurns = Callable[[bytes, int, int, int, list[Step | None], NewStep], tuple[Level, int]]
NativeMoves = Callable[
    [Side, Side, int, int, int, list[Step | None], NewStep], tuple[list[Path], list[Side], list[Side]] | None
]
NativeStates = Callable[[Side, Side, int, int, int], list[State] | None]
NativeCount = Callable[[Side, Side, int, int, int], int | None]


def _load_native() -> ModuleType | None:
    if not _build.native_selected():
        return None
    try:
        from nardy import _shortgen
    except ImportError:
        return None
    return _shortgen


_SHORTGEN: Final = _load_native()
_NATIVE_TURNS: Final[NativeTurns | None] = None if _SHORTGEN is None else _SHORTGEN.turns
"""The C generator of short nardy's board (``nardy/_shortgen.c``), when the compiled build runs."""
_NATIVE_MOVES: Final[NativeMoves | None] = None if _SHORTGEN is None else _SHORTGEN.moves
"""Its listing of the end states as step paths and sides, ready for :class:`Move` and :class:`Position`."""
_NATIVE_STATES: Final[NativeStates | None] = None if _SHORTGEN is None else _SHORTGEN.states
"""Its listing of the end states alone."""
_NATIVE_COUNT: Final[NativeCount | None] = None if _SHORTGEN is None else _SHORTGEN.count
"""Its count of the end states."""

_ON_SHORT_BOARD: Final[dict[str, bool]] = {}


def _on_short_board(variant: Variant) -> bool:
    """Return whether ``variant`` moves exactly as short nardy does (its steps are ShortNardy's), so that the C
    generator may list its turns."""
    known = _ON_SHORT_BOARD.get(variant.name)
    if known is None:
        known = _ON_SHORT_BOARD[variant.name] = type(variant).successors is ShortNardy.successors
    return known


def _keep_ending(variant: Variant, level: Level, ctx: TurnContext) -> Level:
    if ctx.block_per_move:
        return level
    return {state: path for state, path in level.items() if variant.turn_end_ok(state, ctx)}


def _turns_in_context(
    variant: Variant, start: State, dice: tuple[int, int], ctx: TurnContext, count: int = 4
) -> tuple[Level, int]:
    """Return the legal end states (with one step path each) and the number of dice they use (of a double,
    ``count`` moves)."""
    d1, d2 = dice
    levels: list[Level] = [{start: ()}]
    if d1 == d2:
        for _ in range(count):
            nxt = _expand(variant, levels[-1], d1, ctx)
            if not nxt:
                break
            levels.append(nxt)
        for used in range(len(levels) - 1, -1, -1):
            ending = _keep_ending(variant, levels[used], ctx)
            if ending:
                return ending, used
        return {}, 0
    high, low = (d1, d2) if d1 > d2 else (d2, d1)
    first_high = _expand(variant, levels[0], high, ctx)
    first_low = _expand(variant, levels[0], low, ctx)
    both = _expand(variant, first_high, low, ctx)
    for state, path in _expand(variant, first_low, high, ctx).items():
        both.setdefault(state, path)
    for candidate, used in ((both, 2), (first_high, 1), (first_low, 1), (levels[0], 0)):
        ending = _keep_ending(variant, candidate, ctx)
        if ending:
            return ending, used
    return {}, 0


def turn_context_and_turns(
    variant: Variant,
    position: Position,
    dice: tuple[int, int],
    first_turn: bool,
    options: Options,
    count: int = 4,
    turn_start: Position | None = None,
) -> tuple[TurnContext, Level, int]:
    """Return the rule context in force, the legal end states with a step path each, and the dice they use (a
    double is ``count`` moves; ``turn_start`` is where the turn began when this plan is a later part of it)."""
    start = to_state(position)
    full = count if dice[0] == dice[1] else 2
    result: tuple[TurnContext, Level, int] | None = None
    native = _NATIVE_TURNS if _on_short_board(variant) and len(start) == 50 else None
    for ctx in variant.turn_contexts(position, dice, first_turn, options, turn_start):
        if native is not None and ctx.block_per_move:
            level, used = native(start, dice[0], dice[1], count, _STEPS, _new_step)
        else:
            level, used = _turns_in_context(variant, start, dice, ctx, count)
        result = (ctx, level, used)
        if used == full:
            break
    assert result is not None
    return result


_NATIVE_KIND: Final[dict[str, int]] = {}
_NOT_NATIVE: Final = 0
_NATIVE_ALWAYS: Final = 1  # short nardy's board with the one default rule context (checked per move)
_NATIVE_BY_CONTEXT: Final = 2  # short nardy's board with the variant's own contexts: native when all check per move


def _native_kind(variant: Variant) -> int:
    kind = _NATIVE_KIND.get(variant.name)
    if kind is None:
        if _NATIVE_TURNS is None or not _on_short_board(variant):
            kind = _NOT_NATIVE
        elif type(variant).turn_contexts is Variant.turn_contexts:
            kind = _NATIVE_ALWAYS
        else:
            kind = _NATIVE_BY_CONTEXT
        _NATIVE_KIND[variant.name] = kind
    return kind


def _native_lists(
    variant: Variant, position: Position, dice: tuple[int, int], first_turn: bool, options: Options
) -> bool:
    """Return whether the C generator alone lists this turn, as :func:`turn_context_and_turns` would call it once
    for each rule context (short nardy's board, every context checked per move; its entry points then return None
    only for a position whose sides are not plain tuples of counts)."""
    kind = _native_kind(variant)
    if kind == _NATIVE_ALWAYS:
        return True
    if kind == _NOT_NATIVE:
        return False
    contexts = variant.turn_contexts(position, dice, first_turn, options, None)
    return bool(contexts) and all(ctx.block_per_move for ctx in contexts)


def _check_dice(dice: Sequence[object]) -> tuple[int, int]:
    # typed as objects: the compiled build would otherwise take an int-typed value's type as given
    first, second = (dice[0], dice[1]) if len(dice) == 2 else (None, None)
    if not (_is_die(first) and _is_die(second)):
        raise IllegalMoveError(f"dice must be two integers 1..6, got {list(dice)!r}")
    assert isinstance(first, int) and isinstance(second, int)
    return first, second


def _is_die(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6


def legal_moves(
    variant: Variant | str,
    position: Position,
    dice: Sequence[int],
    *,
    first_turn: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> list[Move]:
    """Return every legal turn for ``position`` and ``dice``, one per distinct resulting position.

    The list is empty when the roll is forfeited (no step can be played). The order is the generator's own
    (deterministic); sort by ``notation`` for display.

    Raises:
        IllegalMoveError: the dice are not two values in 1..6.
    """
    var = get_variant(variant)
    roll = _check_dice(dice)
    if _NATIVE_MOVES is not None and _native_lists(var, position, roll, first_turn, options):
        listed = _NATIVE_MOVES(position.me, position.opp, roll[0], roll[1], 4, _STEPS, _new_step)
        if listed is not None:
            paths, mes, opps = listed
            return [Move(paths[i], Position(mes[i], opps[i])) for i in range(len(paths))]
    _, level, used = turn_context_and_turns(var, position, roll, first_turn, options)
    if used == 0:
        return []
    return [_make_move(path, state) for state, path in level.items()]


def _make_move(path: Path, state: State) -> Move:
    return Move(path, from_state(state))


def count_legal_moves(
    variant: Variant | str,
    position: Position,
    dice: Sequence[int],
    *,
    first_turn: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> int:
    """Return how many distinct legal turns exist (0 when the roll is forfeited), without building Move objects.

    Raises:
        IllegalMoveError: the dice are not two values in 1..6.
    """
    var = get_variant(variant)
    roll = _check_dice(dice)
    if _NATIVE_COUNT is not None and _native_lists(var, position, roll, first_turn, options):
        counted = _NATIVE_COUNT(position.me, position.opp, roll[0], roll[1], 4)
        if counted is not None:
            return counted
    _, level, used = turn_context_and_turns(var, position, roll, first_turn, options)
    return len(level) if used else 0


def legal_states(
    variant: Variant,
    position: Position,
    dice: tuple[int, int],
    first_turn: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> list[State]:
    """Return the generator states (mover's frame) after every legal turn, in :func:`legal_moves`' order, without
    building Move or Position objects; empty when the roll is forfeited. The dice are taken as valid (1..6): the
    computer players' search calls this for every roll it looks at.
    """
    if _NATIVE_STATES is not None and _native_lists(variant, position, dice, first_turn, options):
        listed = _NATIVE_STATES(position.me, position.opp, dice[0], dice[1], 4)
        if listed is not None:
            return listed
    _, level, used = turn_context_and_turns(variant, position, dice, first_turn, options)
    return list(level) if used else []


class TurnPlan:
    """The legal turns of one position and roll, answering step-wise questions for button UIs.

    Build it once per roll; :meth:`next_steps` tells which single steps may follow the steps already played so that
    the turn can still be completed into a legal (maximal) turn.
    """

    def __init__(
        self,
        variant: Variant | str,
        position: Position,
        dice: Sequence[int],
        *,
        first_turn: bool = False,
        options: Options = DEFAULT_OPTIONS,
        count: int = 4,
        turn_start: Position | None = None,
    ) -> None:
        """Compute the legal turns of ``position`` and ``dice``; a double is played as ``count`` moves (4 but in
        a Gul bara hand-over), and ``turn_start`` is the position the turn began in when this plan is not its
        first part (docs/rules.md §6.4).

        Raises:
            IllegalMoveError: the dice are not two values in 1..6, or ``count`` is not 1..4.
        """
        self.variant = get_variant(variant)
        self.position = position
        self.dice = _check_dice(dice)
        if not 1 <= count <= 4:
            raise IllegalMoveError(f"a double is played as 1 to 4 moves, not {count}")
        self.count = count
        self.ctx, level, self.length = turn_context_and_turns(
            self.variant, position, self.dice, first_turn, options, count, turn_start
        )
        self._ends = frozenset(level) if self.length else frozenset()
        self._level = level
        self._start = to_state(position)
        self._reach_cache: dict[tuple[State, tuple[int, ...]], bool] = {}
        # the dice a one-die turn may use: the one the must-play rule picked (the larger when it can be played), even
        # where the other die reaches the same position (the last checker borne off with 6-5 from point 3)
        self._single_dice = frozenset(path[0].die for path in level.values()) if self.length == 1 else None

    @property
    def position_id(self) -> str:
        """Return the id of the plan's position (gnubg Position ID for short nardy, ``L1`` id for long)."""
        return variant_position_id(self.variant.name, self.position)

    @property
    def forfeited(self) -> bool:
        """Return whether no step at all can be played with this roll."""
        return self.length == 0

    def moves(self) -> list[Move]:
        """Return the legal turns (as :func:`legal_moves` does)."""
        if not self.length:
            return []
        return [_make_move(p, s) for s, p in self._level.items()]

    @property
    def full_length(self) -> int:
        """Return how many steps the whole roll has (2, or a double's ``count``); :attr:`length` is how many of
        them the legal turns play."""
        return self.count if self.dice[0] == self.dice[1] else 2

    def _dice_pool(self) -> tuple[int, ...]:
        d1, d2 = self.dice
        return (d1,) * self.count if d1 == d2 else (d1, d2)

    def _can_finish(self, state: State, remaining: tuple[int, ...], steps_left: int) -> bool:
        if steps_left == 0:
            return state in self._ends
        key = (state, remaining)
        cached = self._reach_cache.get(key)
        if cached is not None:
            return cached
        found = False
        for die in set(remaining):
            rest = _without(remaining, die)
            for *_, new in self.variant.successors(state, die, self.ctx):
                if self._can_finish(new, rest, steps_left - 1):
                    found = True
                    break
            if found:
                break
        self._reach_cache[key] = found
        return found

    def _walk(self, played: Sequence[Step]) -> tuple[State, tuple[int, ...]]:
        state, remaining = self._start, self._dice_pool()
        for index, step in enumerate(played):
            options = dict(self._next(state, remaining, index))
            new = options.get(step)
            if new is None:
                shown = " ".join(map(str, played[: index + 1]))
                raise IllegalMoveError(
                    f"step {step} cannot be played after {shown or 'nothing'} with dice "
                    f"{self.dice[0]}-{self.dice[1]} (position {self.position_id})"
                )
            state, remaining = new, _without(remaining, step.die)
        return state, remaining

    def _next(self, state: State, remaining: tuple[int, ...], done: int) -> list[tuple[Step, State]]:
        left = self.length - done - 1
        if left < 0:
            return []
        out: list[tuple[Step, State]] = []
        for die in sorted(set(remaining), reverse=True):
            if self._single_dice is not None and die not in self._single_dice:
                continue
            rest = _without(remaining, die)
            for src, dst, hit, new in self.variant.successors(state, die, self.ctx):
                if self._can_finish(new, rest, left):
                    out.append((_step(src, dst, die, hit), new))
        return out

    def next_steps(self, played: Sequence[Step] = ()) -> list[Step]:
        """Return the single steps that can follow ``played`` and still complete a legal turn.

        Empty when the turn is complete (or the roll is forfeited).

        Raises:
            IllegalMoveError: ``played`` is not a valid start of a legal turn.
        """
        state, remaining = self._walk(played)
        return [step for step, _ in self._next(state, remaining, len(played))]

    def is_complete(self, played: Sequence[Step]) -> bool:
        """Return whether ``played`` is a whole legal turn.

        Raises:
            IllegalMoveError: ``played`` is not a valid start of a legal turn.
        """
        self._walk(played)
        return len(played) == self.length

    def position_after(self, played: Sequence[Step]) -> Position:
        """Return the position after ``played`` (a valid start of a legal turn), mover's frame, not swapped.

        Raises:
            IllegalMoveError: ``played`` is not a valid start of a legal turn.
        """
        return from_state(self._walk(played)[0])

    def move_for(self, played: Sequence[Step]) -> Move:
        """Return the legal turn that ``played`` makes, in its canonical form: the same Move that
        :meth:`moves` lists for the resulting position (so one turn always has one notation).

        Raises:
            IllegalMoveError: ``played`` is not a whole legal turn.
        """
        state, _ = self._walk(played)
        if len(played) != self.length:
            raise IllegalMoveError(
                f"the turn is not complete: {len(played)} of {self.length} dice played (position {self.position_id})"
            )
        return _make_move(self._level[state], state)

    def completion_paths(
        self, played: Sequence[Step], limit: int, max_nodes: int
    ) -> list[tuple[Position, list[Step]]] | None:
        """Return the distinct positions that legal turns starting with ``played`` reach, each with the first step
        sequence (from the start of the turn) found to reach it, in the order of a depth-first search that tries
        the steps in :meth:`next_steps` order and skips a (position, dice left) pair it has seen; None when there
        are more than ``limit`` positions or the search visits more than ``max_nodes`` prefixes. Each prefix is
        extended from its own state, so this costs one generator call per prefix, not one per step of it.

        Raises:
            IllegalMoveError: ``played`` is not a valid start of a legal turn.
        """
        state, remaining = self._walk(played)
        found: dict[State, list[Step]] = {}
        seen: set[tuple[State, tuple[int, ...]]] = set()
        stack: list[tuple[list[Step], State, tuple[int, ...]]] = [(list(played), state, remaining)]
        nodes = 0
        while stack:
            nodes += 1
            if nodes > max_nodes:
                return None
            steps, state, remaining = stack.pop()
            options = self._next(state, remaining, len(steps))
            if not options:
                if len(steps) == self.length and state not in found:
                    found[state] = steps
                    if len(found) > limit:
                        return None
                continue
            key = (state, tuple(sorted(remaining)))
            if key in seen:
                continue
            seen.add(key)
            for step, new in reversed(options):
                stack.append(([*steps, step], new, _without(remaining, step.die)))
        return [(from_state(state), steps) for state, steps in found.items()]

    def completions(self, played: Sequence[Step]) -> list[Move]:
        """Return the distinct legal turns that start with ``played`` (one per resulting position).

        Raises:
            IllegalMoveError: ``played`` is not a valid start of a legal turn.
        """
        results: dict[State, tuple[Step, ...]] = {}
        self._collect(tuple(played), results)
        return sorted(
            (Move(steps, from_state(state)) for state, steps in results.items()),
            key=lambda m: m.notation,
        )

    def _collect(self, played: tuple[Step, ...], results: dict[State, tuple[Step, ...]]) -> None:
        state, remaining = self._walk(played)
        if len(played) == self.length:
            results.setdefault(state, played)
            return
        for step, _ in self._next(state, remaining, len(played)):
            self._collect((*played, step), results)


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1 :]


@lru_cache(maxsize=256)
def turn_plan(
    variant: Variant,
    position: Position,
    dice: tuple[int, int],
    first_turn: bool,
    options: Options,
    count: int = 4,
    turn_start: Position | None = None,
) -> TurnPlan:
    """Return a (cached) :class:`TurnPlan`; UIs call this on every button press of a turn."""
    return TurnPlan(variant, position, dice, first_turn=first_turn, options=options, count=count, turn_start=turn_start)


def all_step_sequences(plan: TurnPlan) -> Iterable[tuple[Step, ...]]:
    """Yield every full step sequence of a legal turn (every order, every path): for tests and analysis."""
    stack: list[tuple[Step, ...]] = [()]
    while stack:
        played = stack.pop()
        nxt = plan.next_steps(played)
        if not nxt:
            if played or plan.forfeited:
                yield played
            continue
        stack.extend((*played, step) for step in nxt)
