"""Cubeful equities of a cube decision in match play: Janowski's model of :mod:`nardy.ai.cube` carried over to match
winning chances (MWC) with the Kazaross-XG2 match equity table (:mod:`nardy.ai.met`).

At a cube level ``v`` each side has, from the current gammon and backgammon shares, the MWC of an average win and
loss, and of cashing ``v`` points (the opponent passing). A side that owns the cube and can still gain by raising it
has a live MWC that is linear in its win chance from an average loss at no chance up to the cash at its cash point;
the cash point is one minus the opponent's take point at the next level, where the opponent would own the cube, and
so on up the levels until raising the cube can gain nothing (the owner needs no more than the cube's points, or the
cube is at its maximum); there the cube is dead and the MWC is the plain average. A centred cube runs from the side
on roll being doubled out (below its take point) to its cash (from its cash point). As for money, the cubeful MWC
is ``x`` times the live one plus ``1 - x`` times the dead one, and every MWC is given as an equity in units of the
current cube: +1 is winning the cube's points, -1 losing them (GNU Backgammon's normalised equity).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nardy.ai.cube import CubeEquities, Owner
from nardy.ai.met import match_winning_chance

Shares = tuple[float, float, float]
"""Of the games a side wins (or loses): the shares that are single, gammon and backgammon."""


@dataclass(frozen=True, slots=True)
class MatchScore:
    """The score seen by the side on roll: the points each side still needs, whether the game is after the
    Crawford game, the cube's maximum and how the cube rises."""

    away: int
    opponent_away: int
    post_crawford: bool = False
    max_cube: int = 64
    raise_cube: Callable[[int], int] = lambda value: 2 * value


@dataclass(frozen=True, slots=True)
class _Side:
    """One side of the match: what it needs, what the other needs, and its shares of wins and of losses."""

    away: int
    opponent_away: int
    wins: Shares
    losses: Shares
    score: MatchScore

    def other(self) -> _Side:
        return _Side(self.opponent_away, self.away, self.losses, self.wins, self.score)

    def mwc(self, won: int) -> float:
        """The side's MWC after winning ``won`` points (a loss when negative)."""
        post = self.score.post_crawford
        if won >= 0:
            return match_winning_chance(self.away - won, self.opponent_away, post_crawford=post)
        return match_winning_chance(self.away, self.opponent_away + won, post_crawford=post)

    def win(self, value: int) -> float:
        return sum(share * self.mwc(value * (k + 1)) for k, share in enumerate(self.wins))

    def loss(self, value: int) -> float:
        return sum(share * self.mwc(-value * (k + 1)) for k, share in enumerate(self.losses))

    def can_raise(self, value: int) -> bool:
        """Whether the side, owning a cube of ``value`` (or with it centred), gains anything by doubling."""
        return self.away > value and self.score.raise_cube(value) <= self.score.max_cube

    def owned(self, value: int, chance: float) -> float:
        """The side's live MWC owning the cube at ``value`` with win chance ``chance``."""
        loss, win = self.loss(value), self.win(value)
        if not self.can_raise(value):
            return loss + chance * (win - loss)
        cash = self.mwc(value)
        cash_point = 1.0 - self.other().take_point(self.score.raise_cube(value), self.other().mwc(-value))
        if chance >= cash_point:  # cash, or play on for the gammon when that is worth more (too good)
            return max(cash, loss + chance * (win - loss))
        return loss + chance * (cash - loss) / cash_point

    def take_point(self, value: int, passing: float) -> float:
        """The side's lowest win chance at which taking a cube of ``value`` (then owning it) is worth ``passing``."""
        low, high = self.owned(value, 0.0), self.owned(value, 1.0)
        if passing <= low:
            return 0.0
        if passing >= high:
            return 1.0
        loss, win = self.loss(value), self.win(value)
        if not self.can_raise(value):
            return (passing - loss) / (win - loss)
        cash_point = 1.0 - self.other().take_point(self.score.raise_cube(value), self.other().mwc(-value))
        return (passing - loss) * cash_point / (self.mwc(value) - loss)

    def centred(self, value: int, chance: float) -> float:
        """The side's live MWC with the cube centred at ``value`` (both may double) and win chance ``chance``."""
        other = self.other()
        if not other.can_raise(value):
            return self.owned(value, chance)
        doubled_out = self.mwc(-value)
        take_point = self.take_point(self.score.raise_cube(value), doubled_out)
        if not self.can_raise(value):  # only the other side may double
            top = self.win(value)
            return (
                doubled_out
                if chance <= take_point
                else doubled_out + (chance - take_point) * (top - doubled_out) / (1.0 - take_point)
            )
        cash, cash_point = self.mwc(value), 1.0 - other.take_point(self.score.raise_cube(value), other.mwc(-value))
        if chance <= take_point:
            return min(doubled_out, self.loss(value) + chance * (self.win(value) - self.loss(value)))
        if chance >= cash_point:
            return max(cash, self.loss(value) + chance * (self.win(value) - self.loss(value)))
        return doubled_out + (chance - take_point) * (cash - doubled_out) / (cash_point - take_point)


def _shares(total: float, gammons: float, backgammons: float) -> Shares:
    if total <= 1e-9:
        return (1.0, 0.0, 0.0)
    return ((total - gammons) / total, (gammons - backgammons) / total, backgammons / total)


def match_cube_equities(
    chances: Sequence[float],
    owner: Owner,
    efficiency: float,
    score: MatchScore,
    value: int,
    *,
    gammons: bool = True,
) -> CubeEquities:
    """Return the equities of no double, double/take and double/pass (units of the cube, see the module docstring)
    for the side on roll at ``score`` with the cube at ``value`` centred or its own, from the five ``chances``;
    ``gammons=False`` counts every game single.

    Raises:
        ValueError: the cube is the opponent's, there are not five chances, or a side needs more than 25 points.
    """
    if owner == "theirs":
        raise ValueError("no cube decision: the cube belongs to the opponent of the side on roll")
    if len(chances) != 5:
        raise ValueError(
            f"five chances expected (win, gammon, backgammon, lose gammon, lose backgammon), got {chances}"
        )
    win, win_g, win_bg, lose_g, lose_bg = (float(c) for c in chances)
    win = min(1.0, max(0.0, win))
    if not gammons:
        win_g = win_bg = lose_g = lose_bg = 0.0
    me = _Side(score.away, score.opponent_away, _shares(win, win_g, win_bg), _shares(1 - win, lose_g, lose_bg), score)
    them = me.other()
    raised = score.raise_cube(value)

    def cubeful(live: float, cube: int) -> float:
        dead = win * me.win(cube) + (1.0 - win) * me.loss(cube)
        return efficiency * live + (1.0 - efficiency) * dead

    no_double = cubeful(me.owned(value, win) if owner == "mine" else me.centred(value, win), value)
    double_take = cubeful(1.0 - them.owned(raised, 1.0 - win), raised)
    cash, lose = me.mwc(value), me.mwc(-value)

    def equity(mwc: float) -> float:
        return -1.0 + 2.0 * (mwc - lose) / (cash - lose)

    return CubeEquities(no_double=equity(no_double), double_take=equity(double_take), double_pass=1.0)
