"""Variants of docs/rules.md §6 whose checkers start off the board, in a reserve: Acey-deucey (§6.5) and Dutch
backgammon (§6.6).

Both are played on the short-nardy board (opposite geometry: the opponent's point q is the mover's 25 - q) with
sides of 26 entries (:data:`~nardy.position.RESERVE_SIDE_LENGTH`): indices 0..23 are the side's points 1..24,
index 24 its bar and index 25 its reserve, the checkers not yet entered. In a generator state the mover's side is
bytes 0..25 and the opponent's bytes 26..51. A step that enters a checker from the reserve has
``src = 26`` (:data:`~nardy.move.RESERVE_POINT`, written ``in``): a die d enters it on the mover's point 25 - d,
exactly as a checker enters from the bar.
"""

from __future__ import annotations

from typing import ClassVar, Final

from nardy.errors import InvalidPositionError
from nardy.move import RESERVE_POINT, point_name
from nardy.options import Options
from nardy.position import CHECKERS, RESERVE_INDEX, RESERVE_SIDE_LENGTH, Position, Side
from nardy.variants.base import GameValue, Geometry, State, Successor, TurnContext, Variant

_OPP: Final = RESERVE_SIDE_LENGTH  # offset of the opponent's side in a state
_BAR: Final = 24
_RES: Final = RESERVE_INDEX
_OPP_BAR: Final = _OPP + 24


class ReserveVariant(Variant):
    """The rules Acey-deucey and Dutch backgammon share (docs/rules.md §6.5, §6.6).

    - Opposite geometry, 15 checkers a side, all of them in the reserve at the start.
    - A die d enters a reserve checker on the mover's point 25 - d if it is open (empty, the mover's own, or a
      blot that is hit); a player may move checkers already on the board instead of entering the others.
    - Hits as in short nardy; a hit checker goes to the bar (never back to the reserve) and must re-enter before
      any other move, entering from the reserve included.
    - Bear-off (docs/rules.md §1) only when all 15 checkers still in play are in the home board: the reserve and the
      bar empty and nothing on 7..24.
    - Must-play as everywhere: an entry from the reserve is a move like any other.
    - Pip count: a checker in the reserve counts 25, as one on the bar (it has the whole way to go).
    - Scoring (docs/rules.md is silent on what the reserve means for the triple win): single 1 when the loser has borne
      off a checker; otherwise backgammon 3 when the loser still has a checker in the reserve, on the bar or in
      the winner's home board (a checker not yet entered is further back than one on the bar), else gammon 2.
    """

    geometry: ClassVar[Geometry] = "opposite"
    has_bar: ClassVar[bool] = True
    resign_levels: ClassVar[tuple[str, ...]] = ("single", "gammon", "backgammon")
    side_length: ClassVar[int] = RESERVE_SIDE_LENGTH
    opp_index: ClassVar[tuple[int, ...]] = (0, *(_OPP + 24 - t for t in range(1, 25)))
    closing_count: ClassVar[int] = 2

    def initial_side(self) -> Side:
        """Return a side with all 15 checkers in the reserve."""
        return (0,) * RESERVE_INDEX + (CHECKERS,)

    def to_mover_point(self, opp_point: int) -> int:
        """Return ``25 - opp_point``."""
        return 25 - opp_point

    def may_hit(self, state: State) -> bool:
        """Return whether the mover may hit a blot in ``state`` (always; Dutch backgammon restricts it)."""
        return True

    def successors(self, state: State, die: int, ctx: TurnContext) -> list[Successor]:
        """Return every single legal step of ``die``: bar entry first; else entry from the reserve (``src`` 26)
        and the moves of the checkers on the board, with hits, and bear-off per docs/rules.md §1 once every checker
        is home."""
        opp_index = self.opp_index
        hit_ok = self.may_hit(state)
        if state[_BAR] or state[_RES]:
            dst = 25 - die
            oi = opp_index[dst]
            blockers = state[oi]
            entry: Successor | None = None
            if blockers == 0 or (blockers == 1 and hit_ok):
                b = bytearray(state)
                b[dst - 1] += 1
                if blockers:
                    b[oi] = 0
                    b[_OPP_BAR] += 1
                if state[_BAR]:
                    b[_BAR] -= 1
                    return [(25, dst, blockers == 1, bytes(b))]
                b[_RES] -= 1
                entry = (RESERVE_POINT, dst, blockers == 1, bytes(b))
            elif state[_BAR]:
                return []
            out: list[Successor] = [entry] if entry else []
            bearing = False
        else:
            out = []
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
                if blockers == 0 or (blockers == 1 and hit_ok):
                    b = bytearray(state)
                    b[i] -= 1
                    b[dst - 1] += 1
                    if blockers:
                        b[oi] = 0
                        b[_OPP_BAR] += 1
                    out.append((src, dst, blockers == 1, bytes(b)))
            elif dst == 0 or highest:
                b = bytearray(state)
                b[i] -= 1
                out.append((src, 0, False, bytes(b)))
            highest = False
        return out

    def _landing_refusal(self, state: State, dst: int) -> tuple[str, str] | None:
        """Return why the mover may not land on its point ``dst`` (1..24), or None when it may."""
        blockers = state[self.opp_index[dst]]
        if blockers >= 2:
            return "blocked", f"point {dst} is held by the opponent"
        if blockers == 1 and not self.may_hit(state):
            return self._no_hit_refusal(dst)
        return None

    def _no_hit_refusal(self, dst: int) -> tuple[str, str]:
        return "generic", f"the blot on point {dst} cannot be hit here"

    def step_refusal(self, state: State, src: int, die: int, ctx: TurnContext) -> tuple[str, str]:
        """Return ``(code, reason)`` for a step of ``die`` from point ``src`` (25 = bar, 26 = reserve) that
        :meth:`successors` does not offer: an empty reserve or point, the bar first, a closed point (or, in Dutch
        backgammon, a blot that may not be hit yet), a bear-off while checkers wait in the reserve or stand outside
        home, a bear-off from below a higher checker."""
        if src == RESERVE_POINT:
            if not state[_RES]:
                return "no_checker", "there is no checker of yours left in the reserve to enter"
            if state[_BAR]:
                return "bar_first", "a checker on the bar must enter before any checker enters from the reserve"
            refusal = self._landing_refusal(state, 25 - die)
            if refusal:
                return refusal
            return "generic", f"in/{25 - die} cannot be played with a {die} here"
        if not 1 <= src <= 25 or not state[src - 1]:
            return "no_checker", f"there is no checker of yours on point {point_name(src)}"
        if state[_BAR] and src != 25:
            return "bar_first", "a checker on the bar must enter first"
        dst = (25 if src == 25 else src) - die
        if dst >= 1:
            refusal = self._landing_refusal(state, dst)
            if refusal:
                return refusal
        elif state[_RES]:
            waiting = state[_RES]
            return (
                "bear_off_early",
                f"you can bear off only when all your checkers are in your home board, and {waiting} still "
                f"wait{'s' if waiting == 1 else ''} in the reserve to enter",
            )
        elif any(state[6:25]):
            return "bear_off_early", "you can bear off only when all your checkers are in your home board"
        elif dst < 0 and any(state[src:6]):
            return (
                "bear_off_higher",
                f"a {die} bears off from point {src} only when no checker of yours stands higher",
            )
        return "generic", f"{point_name(src)}/{point_name(max(dst, 0))} cannot be played with a {die} here"

    def game_value(self, position: Position, options: Options) -> GameValue:
        """Return single (1), gammon (2) or backgammon (3) from the loser's side ``position.opp``: backgammon when
        the loser has borne off none and has a checker in the reserve, on the bar or in the winner's home."""
        opp = position.opp
        if sum(opp) < self.checkers:
            return GameValue("single", 1)
        # the winner's home board is the loser's points 19..24; index 24 is its bar, index 25 its reserve
        if any(opp[18:26]):
            return GameValue("backgammon", 3)
        return GameValue("gammon", 2)

    def validate(self, position: Position) -> None:
        """Check the shape of a position (26 entries a side, at most 15 checkers), that no point holds both
        colours, and that no side has borne off a checker while others still wait in its reserve (bear-off needs
        the reserve empty, and a reserve never fills again).

        Raises:
            InvalidPositionError: with what is wrong and the position's key.
        """
        for label, side in (("mover", position.me), ("opponent", position.opp)):
            if len(side) != self.side_length:
                raise InvalidPositionError(
                    f"{label} side has {len(side)} counters, not {self.side_length} ({position.key()})"
                )
            if any(not isinstance(c, int) or isinstance(c, bool) or c < 0 for c in side):
                raise InvalidPositionError(f"{label} side has a negative or non-integer count ({position.key()})")
            if sum(side) > self.checkers:
                raise InvalidPositionError(
                    f"{label} side has {sum(side)} checkers, more than {self.checkers} ({position.key()})"
                )
            if side[_RES] and sum(side) < self.checkers:
                raise InvalidPositionError(
                    f"{label} side has borne off checkers while {side[_RES]} still wait in the reserve "
                    f"({position.key()})"
                )
        for point in range(1, 25):
            if position.me[point - 1] and position.opp[self.opp_index[point] - _OPP]:
                raise InvalidPositionError(f"point {point} holds checkers of both colours ({position.key()})")


class AceyDeucey(ReserveVariant):
    """Acey-deucey (американка, «единичка-двоечка»), docs/rules.md §6.5.

    - The shared reserve rules of :class:`ReserveVariant`: all 15 start in the reserve, a die d enters on 25 - d,
      hits as in short nardy, the bar before anything else, bear-off once all 15 are home.
    - Opening: each player rolls one die (ties re-rolled) and the higher rolls both dice afresh, so the first roll
      may be a double (``opening_rerolls``).
    - **The 1-2 roll**: when the mover plays both the 1 and the 2, it names any double and plays it as four moves,
      then rolls again (the game's ``Phase.CHOOSE`` and ``Game.choose_double``). If the 1-2 cannot be played in
      full, nothing is named; if the named double cannot be played in full (must-play still applies: as many of
      its four moves as possible), there is no extra roll. A 1-2 rolled as the extra roll earns the bonus again.
      The cube cannot be turned before the extra roll (it belongs to the same turn).
    - Scoring: single 1, gammon 2, backgammon 3 (see :class:`ReserveVariant`); doubling cube off by default
      (option ``cube``).
    """

    name: ClassVar[str] = "acey_deucey"
    aliases: ClassVar[tuple[str, ...]] = (
        "acey_deucey",
        "acey-deucey",
        "acey deucey",
        "aceydeucey",
        "американка",
        "единичка-двоечка",
        "единичка двоечка",
    )
    titles: ClassVar[dict[str, str]] = {"en": "Acey-deucey", "ru": "американка"}
    cube_by_default: ClassVar[bool] = False
    opening_rerolls: ClassVar[bool] = True
    id_prefix: ClassVar[str | None] = "A1"

    def names_double_after(self, dice: tuple[int, int], options: Options) -> bool:
        """Return True for the 1-2 (either order)."""
        return sorted(dice) == [1, 2]


class Dutch(ReserveVariant):
    """Dutch backgammon (голландский трик-трак), docs/rules.md §6.6.

    - The shared reserve rules of :class:`ReserveVariant` (all 15 start in the reserve and enter with die d on
      25 - d; the bar first; bear-off once all 15 are home); no 1-2 bonus.
    - **No hitting until home**: a step may hit a blot only if the mover holds at least one checker on its home
      board (points 1..6) *before* that step, counting the steps already played this turn. The checker that lands
      on the blot does not count for itself, so a first checker cannot enter the home board by hitting; a player
      whose home checkers have all been hit (and so left the home board) may not hit again until one is back.
      Until then a point with an opponent blot is closed to the mover, as a point of two is.
    - Otherwise short nardy: the opening two dice are the first player's first roll, single 1, gammon 2,
      backgammon 3 (as :class:`ReserveVariant` scores them), doubling cube on by default.
    """

    name: ClassVar[str] = "dutch"
    aliases: ClassVar[tuple[str, ...]] = (
        "dutch",
        "dutch backgammon",
        "dutch-backgammon",
        "голландский трик-трак",
        "голландский",
        "голландские нарды",
    )
    titles: ClassVar[dict[str, str]] = {"en": "Dutch backgammon", "ru": "голландский трик-трак"}
    cube_by_default: ClassVar[bool] = True
    id_prefix: ClassVar[str | None] = "D1"

    def may_hit(self, state: State) -> bool:
        """Return whether the mover holds a checker on its home board (points 1..6) in ``state``."""
        return any(state[0:6])

    def _no_hit_refusal(self, dst: int) -> tuple[str, str]:
        return (
            "no_hit",
            f"you may not hit the blot on point {dst} yet: in Dutch backgammon a player may hit only once one of "
            "its checkers stands in its home board",
        )
