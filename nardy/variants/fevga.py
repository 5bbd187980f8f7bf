"""Fevga (февга), the third game of Tavli (docs/rules.md §6.2): long nardy's parallel board without its head rule.

Both sides start with all 15 checkers on their point 24 and move the same way round the board; a single checker
holds a point (no hitting). The start rule, the start-quarter ban and the prime rule replace long nardy's head and
block rules; the bear-off is §1's and the scoring Tavli's (single 1, gammon 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from nardy.options import Options
from nardy.position import CHECKERS, Position
from nardy.variants.base import GameValue, State, Successor, TurnContext
from nardy.variants.long import _BLOCK, _HEAD, LongNardy, _block_allowed, _run_through

_PASSED: Final = 11  # mover indices 0..10 (points 1..11) lie past the opponent's starting point, the mover's 12
_QUARTER: Final = 18  # mover index of point 19: the starting quarter is points 19..24
_SINGLE: Final = GameValue("single", 1)
_GAMMON: Final = GameValue("gammon", 2)


@dataclass(frozen=True, slots=True)
class FevgaContext(TurnContext):
    """A Fevga turn's rules: ``prime_rule`` whether a six-point prime follows long nardy's block rule (option
    ``fevga_prime=long_rule``), checked after every move or at the end of the turn (``block_per_move``)."""

    prime_rule: bool = True


def start_open(state: State) -> bool:
    """Return whether the mover of ``state`` may move a checker off its point 24 under the start rule: no checker
    has left it yet, or one has passed the opponent's starting point (stands on 1..11, or has been borne off)."""
    return any(state[:_PASSED]) or not any(state[_PASSED:_HEAD]) or sum(state[:25]) < CHECKERS


class Fevga(LongNardy):
    """Fevga (февга), docs/rules.md §6.2: parallel geometry (the opponent's point q is the mover's q + 12), all 15
    checkers on the mover's 24.

    - No hitting: a point holding even one opponent checker is closed.
    - **Start rule**: until the mover's first checker has passed the opponent's starting point (the mover's 12:
      it stands on 11 or lower, or has been borne off), no second checker may leave the 24. It is checked move by
      move, so the second checker may leave in the same turn once the first has passed (14/8 24/21 with 6-3).
      There is no other head rule (``head_exception`` is not read).
    - **Start-quarter ban**: a side may never hold all six points 19..24 at once; checked after every single move,
      whatever ``block_check`` says ("never" holds mid-turn too).
    - **Prime rule**, option ``fevga_prime``: ``long_rule`` (default) — six or more points in a row along the
      opponent's path (long nardy's block rule, docs/rules.md §2, including the corner 24-1) are legal only while an
      opponent checker is ahead of them (or borne off); checked as ``block_check`` says, like long nardy's |
      ``free`` — only the start-quarter ban.
    - Bear-off as in §1 once all 15 are in 1..6.
    - Tavli: no cube by default (option ``cube``); the opening roll's winner rolls both dice afresh; single (the
      loser has borne off a checker) = 1, gammon (none) = 2, no triple win; resignation single or gammon. Long
      nardy's ``long_scoring`` and ``misere`` are not read.
    """

    name: ClassVar[str] = "fevga"
    aliases: ClassVar[tuple[str, ...]] = ("fevga", "февга")
    titles: ClassVar[dict[str, str]] = {"en": "Fevga", "ru": "февга"}
    resign_levels: ClassVar[tuple[str, ...]] = ("single", "gammon")
    id_prefix: ClassVar[str | None] = "F1"
    reads_misere: ClassVar[bool] = False

    def turn_contexts(
        self,
        position: Position,
        dice: tuple[int, int],
        first_turn: bool,
        options: Options,
        turn_start: Position | None = None,
    ) -> Sequence[TurnContext]:
        """Return the one context of every Fevga turn: no head limit, the prime rule as ``fevga_prime`` and
        ``block_check`` say."""
        if options.fevga_prime == "free":
            return (FevgaContext(block_per_move=False, prime_rule=False),)
        return (FevgaContext(block_per_move=options.block_check == "per_move", prime_rule=True),)

    def successors(self, state: State, die: int, ctx: TurnContext) -> list[Successor]:
        """Return every single legal step of ``die``: no landing on the opponent, the start rule, the start-quarter
        ban, the prime rule when checked per move, and §1's bear-off."""
        opp_index = self.opp_index
        out: list[Successor] = []
        bearing = not any(state[6:24])
        head_open = start_open(state)
        highest = True
        for i in range(23, -1, -1):
            if not state[i]:
                continue
            src = i + 1
            dst = src - die
            if i == _HEAD and not head_open:
                highest = False
                continue
            if dst >= 1:
                if not state[opp_index[dst]]:
                    b = bytearray(state)
                    b[i] -= 1
                    b[dst - 1] += 1
                    new = bytes(b)
                    if dst > _QUARTER and all(new[_QUARTER:24]):
                        highest = False
                        continue
                    if ctx.block_per_move and not state[dst - 1]:
                        lo, hi = _run_through(new, dst - 1)
                        if hi - lo + 1 >= _BLOCK and not _block_allowed(new, lo):
                            highest = False
                            continue
                    out.append((src, dst, False, new))
            elif bearing and (dst == 0 or highest):
                b = bytearray(state)
                b[i] -= 1
                out.append((src, 0, False, bytes(b)))
            highest = False
        return out

    def turn_end_ok(self, state: State, ctx: TurnContext) -> bool:
        """Return whether the turn may end here: with the prime rule checked at the end of the turn, no
        unsupported prime (the start-quarter ban is checked move by move)."""
        if isinstance(ctx, FevgaContext) and not ctx.prime_rule:
            return True
        return super().turn_end_ok(state, ctx)

    def step_refusal(self, state: State, src: int, die: int, ctx: TurnContext) -> tuple[str, str]:
        """Return ``(code, reason)`` for a refused step: the start rule, the start-quarter ban, the prime rule,
        then the common reasons."""
        if src - 1 == _HEAD and state[_HEAD] and not start_open(state):
            return (
                "start_rule",
                "no second checker may leave point 24 until your first one has passed the opponent's starting "
                "point (stands on 11 or lower)",
            )
        dst = src - die
        if _QUARTER < dst < 24 and state[src - 1] and not state[self.opp_index[dst]]:
            b = bytearray(state)
            b[src - 1] -= 1
            b[dst - 1] += 1
            if all(b[_QUARTER:24]):
                return (
                    "start_quarter",
                    f"{src}/{dst} would hold all six points 19-24 of your starting quarter, which is never allowed",
                )
        return super().step_refusal(state, src, die, ctx)

    def game_value(self, position: Position, options: Options) -> GameValue:
        """Return single (1) when the loser ``position.opp`` has borne off a checker, else gammon (2)."""
        return _SINGLE if sum(position.opp) < self.checkers else _GAMMON
