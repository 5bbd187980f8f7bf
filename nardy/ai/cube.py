"""Cubeful money equities of a cube decision from cubeless chances (Janowski's model), for the post-game analysis.

The chances are the network's five outputs for the side on roll, before it rolls: win, win a gammon (backgammons
included), win a backgammon, lose a gammon, lose a backgammon. From them come the average value of a win ``W`` and
of a loss ``L`` and two live-cube points (R. Janowski, "Take-points in money games", 1993):

- the take point ``TP = (L - 1/2) / (W + L + 1/2)``: the lowest chance at which the side on roll can take a double;
- the cash point ``CP = (L + 1) / (W + L + 1/2)``: the chance at which the opponent must pass.

With a perfectly efficient ("live") cube the equity is linear in the win chance between those points; with a dead
cube it is the cubeless equity. The cubeful equity mixes the two by the cube efficiency ``x``: 0.68 in contact, and
in a race ``0.55 + 0.00125 × pips`` of the side on roll, kept within 0.6..0.7 (GNU Backgammon's published defaults).

Every equity is for the side on roll and in units of the current cube: no double, double/take (twice the equity of
holding the position with the cube turned over), double/pass (+1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

CONTACT_EFFICIENCY: Final = 0.68
RACE_BASE: Final = 0.55
RACE_PER_PIP: Final = 0.00125
RACE_MIN: Final = 0.6
RACE_MAX: Final = 0.7

Owner = Literal["centre", "mine", "theirs"]
"""Who holds the cube, seen from the side on roll."""

ProperAction = Literal["no_double", "double_take", "double_pass", "too_good"]
"""The right cube action of a position (the player may double): what :attr:`CubeEquities.proper` returns."""


def cube_efficiency(contact: bool, pips: int) -> float:
    """Return the cube efficiency for a position in contact, or for a race where the side on roll has ``pips``."""
    if contact:
        return CONTACT_EFFICIENCY
    return min(RACE_MAX, max(RACE_MIN, RACE_BASE + RACE_PER_PIP * pips))


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """The three cubeful equities of a cube decision for the side on roll, in units of the current cube."""

    no_double: float
    double_take: float
    double_pass: float = 1.0

    @property
    def double(self) -> float:
        """Return the equity of doubling: the opponent answers with the better of take and pass for it."""
        return min(self.double_take, self.double_pass)

    @property
    def best(self) -> float:
        """Return the equity of the right doubling decision."""
        return max(self.no_double, self.double)

    @property
    def proper(self) -> ProperAction:
        """Return the right cube action: no double, double/take, double/pass, or too good to double (the position is
        worth more than a pass while the opponent would pass)."""
        if self.no_double >= self.double - 1e-9:
            return "too_good" if self.double_take > self.double_pass else "no_double"
        return "double_take" if self.double_take <= self.double_pass else "double_pass"

    def double_error(self, doubled: bool) -> float:
        """Return the equity the side on roll gave away by doubling (``doubled``) or by not doubling."""
        return self.best - (self.double if doubled else self.no_double)

    def take_error(self, took: bool) -> float:
        """Return the equity the opponent gave away by taking (``took``) or by passing, in units of the cube before
        the double (from its side: the doubler's equity it allowed above the better answer)."""
        chosen = self.double_take if took else self.double_pass
        return chosen - self.double


def _win_values(chances: Sequence[float], gammons: bool) -> tuple[float, float, float]:
    win, win_g, win_bg, lose_g, lose_bg = (float(c) for c in chances)
    win = min(1.0, max(0.0, win))
    lose = 1.0 - win
    if not gammons:
        return win, 1.0, 1.0
    big_w = (win + win_g + win_bg) / win if win > 1e-9 else 1.0
    big_l = (lose + lose_g + lose_bg) / lose if lose > 1e-9 else 1.0
    return win, big_w, big_l


def _live(win: float, big_w: float, big_l: float, owner: Owner) -> float:
    spread = big_w + big_l + 0.5
    take_point = (big_l - 0.5) / spread
    cash_point = (big_l + 1.0) / spread
    dead = win * big_w - (1.0 - win) * big_l
    # beyond its cash point a side cashes, or plays on for the gammon when that is worth more (too good)
    if owner == "mine":  # from -L at no chance up to +1 at the cash point
        return max(1.0, dead) if win >= cash_point else -big_l + win * spread
    if owner == "theirs":  # from -1 at the take point up to +W at certainty
        return min(-1.0, dead) if win <= take_point else win * spread - big_l - 0.5
    if win <= take_point:
        return min(-1.0, dead)
    if win >= cash_point:
        return max(1.0, dead)
    return -1.0 + 2.0 * (win - take_point) / (cash_point - take_point)


def cubeful_equity(chances: Sequence[float], owner: Owner, efficiency: float, gammons: bool = True) -> float:
    """Return Janowski's cubeful equity of the side on roll holding its position with the cube where ``owner``
    says, in units of the cube, from the five ``chances``; ``gammons=False`` counts every game as single (Jacoby
    with a centred cube)."""
    win, big_w, big_l = _win_values(chances, gammons)
    dead = win * big_w - (1.0 - win) * big_l
    return efficiency * _live(win, big_w, big_l, owner) + (1.0 - efficiency) * dead


def cube_equities(
    chances: Sequence[float],
    owner: Owner,
    efficiency: float,
    *,
    gammons: bool = True,
    jacoby: bool = False,
    factor: float = 2.0,
) -> CubeEquities:
    """Return the equities of no double, double/take and double/pass for the side on roll, which may double (the
    cube is centred or its own), from the five ``chances``. ``gammons=False``: every game counts single (a
    variant's scoring); ``jacoby``: gammons count single while the cube is centred; ``factor``: the cube value after
    a take over the value before (2 for the usual cube, 2/1, 3/2… for an arithmetic progression).

    Raises:
        ValueError: the cube is the opponent's (no decision), or there are not five chances.
    """
    if owner == "theirs":
        raise ValueError("no cube decision: the cube belongs to the opponent of the side on roll")
    if len(chances) != 5:
        raise ValueError(
            f"five chances expected (win, gammon, backgammon, lose gammon, lose backgammon), got {chances}"
        )
    no_double = cubeful_equity(chances, owner, efficiency, gammons=gammons and not (jacoby and owner == "centre"))
    double_take = factor * cubeful_equity(chances, "theirs", efficiency, gammons=gammons)
    return CubeEquities(no_double=no_double, double_take=double_take)
