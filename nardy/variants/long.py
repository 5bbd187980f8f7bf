"""Long nardy (длинные нарды): no hitting, heads in opposite corners, the head rule and the block rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from nardy.options import Options
from nardy.position import CHECKERS, Position, Side, make_side
from nardy.variants.base import OPP, GameValue, Geometry, State, Successor, TurnContext, Variant

_HEAD: Final = 23  # index of the mover's point 24
# mover byte index of each point of the opponent's path, in the opponent's order q = 1..24
_PATH: Final = tuple((q + 12 - 1) % 24 for q in range(1, 25))
# position in the opponent's path (0 = its point 1) of each mover index 0..23
_PATH_POS: Final = tuple((i - 12) % 24 for i in range(24))
_BLOCK: Final = 6


def _run_through(state: State, index: int) -> tuple[int, int]:
    """Return the ends ``(lo, hi)``, as opponent-path positions, of the mover's run of held points through
    mover index ``index`` (consecutive along the opponent's path)."""
    lo = hi = _PATH_POS[index]
    while lo > 0 and state[_PATH[lo - 1]]:
        lo -= 1
    while hi < 23 and state[_PATH[hi + 1]]:
        hi += 1
    return lo, hi


def _block_allowed(state: State, lo: int) -> bool:
    """Return whether a block starting at opponent-path position ``lo`` has an opponent checker ahead of it."""
    return any(state[OPP : OPP + lo]) or sum(state[OPP:]) < CHECKERS


class LongNardy(Variant):
    """Long nardy: the opponent's point q is the mover's point q + 12 (mod 24).

    Option ``misere`` (docs/rules.md §6.3, "длинные поддавки"): the side that bears off all its checkers first loses;
    the other side wins 1 point (оин, never марс) times the cube, and only оин may be resigned. It reverses the
    aim only: ``last_roll_draw`` keeps long nardy's default (off). The variants built on this class (Fevga, Gul
    bara) do not read it (:attr:`reads_misere`).
    """

    name: ClassVar[str] = "long"
    aliases: ClassVar[tuple[str, ...]] = ("long", "длинные", "длинные нарды", "long nardy")
    titles: ClassVar[dict[str, str]] = {"en": "long nardy", "ru": "длинные нарды"}
    geometry: ClassVar[Geometry] = "parallel"
    has_bar: ClassVar[bool] = False
    cube_by_default: ClassVar[bool] = False
    resign_levels: ClassVar[tuple[str, ...]] = ("oin", "mars")
    opp_index: ClassVar[tuple[int, ...]] = (0, *(OPP + (t - 13) % 24 for t in range(1, 25)))
    closing_count: ClassVar[int] = 1
    opening_rerolls: ClassVar[bool] = True
    id_prefix: ClassVar[str | None] = "L1"
    # whether the option ``misere`` applies (long nardy itself, not the variants that reuse its rules)
    reads_misere: ClassVar[bool] = True

    def _misere(self, options: Options) -> bool:
        return self.reads_misere and options.misere

    def finisher_loses(self, options: Options) -> bool:
        """Return whether the first side to bear off all its checkers loses: under the option ``misere``."""
        return self._misere(options) or self.first_off_loses

    def resign_options(self, options: Options) -> tuple[str, ...]:
        """Return оин and марс, or оин alone under ``misere`` (a misère game is worth 1 point)."""
        return ("oin",) if self._misere(options) else self.resign_levels

    def initial_side(self) -> Side:
        """Return all 15 checkers on the head, point 24."""
        return make_side({24: CHECKERS})

    def to_mover_point(self, opp_point: int) -> int:
        """Return ``opp_point + 12`` wrapped into 1..24."""
        return (opp_point + 11) % 24 + 1

    def turn_contexts(
        self,
        position: Position,
        dice: tuple[int, int],
        first_turn: bool,
        options: Options,
        turn_start: Position | None = None,
    ) -> Sequence[TurnContext]:
        """Return the head-rule contexts: one checker off the head (counted from ``turn_start`` when the turn
        began before this plan), and on the first turn the exception."""
        head = (turn_start or position).me[_HEAD]
        per_move = options.block_check == "per_move"
        one = TurnContext(head_limit=1, head_start=head, block_per_move=per_move)
        if not first_turn or options.head_exception == "none":
            return (one,)
        two = TurnContext(head_limit=2, head_start=head, block_per_move=per_move)
        if options.head_exception == "classic":
            double = dice[0] == dice[1] and dice[0] in (3, 4, 6)
            return (two if double else one,)
        return (one, two)

    def successors(self, state: State, die: int, ctx: TurnContext) -> list[Successor]:
        """Return every single legal step of ``die``: no landing on the opponent, head and block rules."""
        opp_index = self.opp_index
        out: list[Successor] = []
        bearing = not any(state[6:24])
        highest = True
        head_free = ctx.head_start - state[_HEAD] < ctx.head_limit
        for i in range(23, -1, -1):
            if not state[i]:
                continue
            src = i + 1
            dst = src - die
            if i == _HEAD and not head_free:
                highest = False
                continue
            if dst >= 1:
                if not state[opp_index[dst]]:
                    b = bytearray(state)
                    b[i] = state[i] - 1
                    b[dst - 1] = state[dst - 1] + 1
                    new = bytes(b)
                    if ctx.block_per_move and not state[dst - 1]:
                        lo, hi = _run_through(new, dst - 1)
                        if hi - lo + 1 >= _BLOCK and not _block_allowed(new, lo):
                            highest = False
                            continue
                    out.append((src, dst, False, new))
            elif bearing and (dst == 0 or highest):
                b = bytearray(state)
                b[i] = state[i] - 1
                out.append((src, 0, False, bytes(b)))
            highest = False
        return out

    def step_refusal(self, state: State, src: int, die: int, ctx: TurnContext) -> tuple[str, str]:
        """Return ``(code, reason)`` for a refused step: the head rule and the block rule, then the common
        reasons of :meth:`Variant.step_refusal`."""
        if src - 1 == _HEAD and state[_HEAD] and ctx.head_start - state[_HEAD] >= ctx.head_limit:
            many = "one checker" if ctx.head_limit == 1 else f"{ctx.head_limit} checkers"
            return "head_rule", f"only {many} may leave the head (point 24) this turn"
        dst = src - die
        if dst >= 1 and state[src - 1] and not state[self.opp_index[dst]] and not state[dst - 1] and ctx.block_per_move:
            b = bytearray(state)
            b[src - 1] = state[src - 1] - 1
            b[dst - 1] = state[dst - 1] + 1
            lo, hi = _run_through(bytes(b), dst - 1)
            if hi - lo + 1 >= _BLOCK and not _block_allowed(bytes(b), lo):
                return (
                    "block_rule",
                    f"{src}/{dst} would build six points in a row with no opponent checker ahead of them",
                )
        return super().step_refusal(state, src, die, ctx)

    def turn_end_ok(self, state: State, ctx: TurnContext) -> bool:
        """Return whether the turn may end here: with ``block_check=end_of_turn``, no unsupported block."""
        if ctx.block_per_move:
            return True
        pos = 0
        while pos < 24:
            if not state[_PATH[pos]]:
                pos += 1
                continue
            lo = pos
            while pos < 24 and state[_PATH[pos]]:
                pos += 1
            if pos - lo >= _BLOCK and not _block_allowed(state, lo):
                return False
        return True

    def game_value(self, position: Position, options: Options) -> GameValue:
        """Return оин / марс (federation) or the extended table of docs/rules.md §2, from the loser's side; under
        ``misere`` always оин (1), what the side that did *not* finish first wins."""
        if self._misere(options):
            return GameValue("oin", 1)
        opp = position.opp
        if position.opp_off:
            return GameValue("oin", 1)
        if options.long_scoring == "federation":
            return GameValue("mars", 2)
        if opp[_HEAD]:
            return GameValue("koks", 4)
        if any(opp[6:24]):
            return GameValue("mars", 2)
        return GameValue("home_mars", 3)
