"""Short nardy (короткие нарды): international backgammon. Hitting, the bar, opposite directions."""

from __future__ import annotations

from typing import ClassVar, Final

from nardy.options import Options
from nardy.position import Position, Side, make_side
from nardy.variants.base import OPP, GameValue, Geometry, State, Successor, TurnContext, Variant

_BAR: Final = 24
_OPP_BAR: Final = OPP + 24


class ShortNardy(Variant):
    """Backgammon: the opponent's point q is the mover's point 25 - q."""

    name: ClassVar[str] = "short"
    aliases: ClassVar[tuple[str, ...]] = (
        "short",
        "backgammon",
        "bg",
        "короткие",
        "короткие нарды",
        "шеш-беш",
    )
    titles: ClassVar[dict[str, str]] = {"en": "short nardy", "ru": "короткие нарды"}
    geometry: ClassVar[Geometry] = "opposite"
    has_bar: ClassVar[bool] = True
    cube_by_default: ClassVar[bool] = True
    resign_levels: ClassVar[tuple[str, ...]] = ("single", "gammon", "backgammon")
    opp_index: ClassVar[tuple[int, ...]] = (0, *(OPP + 24 - t for t in range(1, 25)))
    closing_count: ClassVar[int] = 2

    def initial_side(self) -> Side:
        """Return 2 on 24, 5 on 13, 3 on 8, 5 on 6."""
        return make_side({24: 2, 13: 5, 8: 3, 6: 5})

    def to_mover_point(self, opp_point: int) -> int:
        """Return ``25 - opp_point``."""
        return 25 - opp_point

    def successors(self, state: State, die: int, ctx: TurnContext) -> list[Successor]:
        """Return every single legal step of ``die``: bar entry first, hits, bearing off per docs/rules.md §1."""
        opp_index = self.opp_index
        if state[_BAR]:
            dst = 25 - die
            oi = opp_index[dst]
            blockers = state[oi]
            if blockers > 1:
                return []
            b = bytearray(state)
            b[_BAR] = state[_BAR] - 1
            b[dst - 1] = state[dst - 1] + 1
            if blockers:
                b[oi] = 0
                b[_OPP_BAR] = state[_OPP_BAR] + 1
            return [(25, dst, blockers == 1, bytes(b))]
        out: list[Successor] = []
        bearing = not any(state[6:24])
        # without bearing off only checkers above the die's reach can move; when bearing, all are home
        top, stop = (5, -1) if bearing else (23, die - 1)
        highest = True
        for i in range(top, stop, -1):
            if not state[i]:
                continue
            src = i + 1
            dst = src - die
            if dst >= 1:
                oi = opp_index[dst]
                blockers = state[oi]
                if blockers <= 1:
                    b = bytearray(state)
                    b[i] = state[i] - 1
                    b[dst - 1] = state[dst - 1] + 1
                    if blockers:
                        b[oi] = 0
                        b[_OPP_BAR] = state[_OPP_BAR] + 1
                    out.append((src, dst, blockers == 1, bytes(b)))
            elif dst == 0 or highest:
                b = bytearray(state)
                b[i] = state[i] - 1
                out.append((src, 0, False, bytes(b)))
            highest = False
        return out

    def game_value(self, position: Position, options: Options) -> GameValue:
        """Return single (1), gammon (2) or backgammon (3) from the loser's side ``position.opp``."""
        opp = position.opp
        if sum(opp) < self.checkers:
            return GameValue("single", 1)
        # the winner's home board is the loser's points 19..24; index 24 is the loser's bar
        if any(opp[18:25]):
            return GameValue("backgammon", 3)
        return GameValue("gammon", 2)
