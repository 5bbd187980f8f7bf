"""Plakoto (плакото), the second game of Tavli (docs/rules.md §6.2): no hitting, a lone checker is pinned instead.

A side has the 49 entries of :mod:`nardy.position`'s pinned layout: indices 0..23 count its *free* checkers on
points 1..24, index 24 (the bar) is always 0, and index ``25 + i`` is 1 when one checker of the side lies pinned on
its point ``i + 1`` under the opponent's checkers. In a generator state the opponent's side starts at byte 49.
"""

from __future__ import annotations

from typing import ClassVar, Final

from nardy.errors import InvalidPositionError
from nardy.move import point_name
from nardy.options import Options
from nardy.position import CHECKERS, PINNED_OFFSET, PINNED_SIDE_LENGTH, Position, Side
from nardy.variants.base import GameValue, Geometry, State, Successor, TurnContext, Variant

_OPP: Final = PINNED_SIDE_LENGTH  # byte offset of the opponent's side in a state
_PIN: Final = PINNED_OFFSET  # offset of a side's pinned flags
_MOTHER: Final = 23  # index of a side's point 24
# for each mover point t (index 0 unused): the state byte of the opponent's free checkers on it (its point 25 - t)
_OPP_FREE: Final = (0, *(_OPP + 24 - t for t in range(1, 25)))
# ... and of the opponent's pinned flag on it
_OPP_PINNED: Final = (0, *(_OPP + _PIN + 24 - t for t in range(1, 25)))

_SINGLE: Final = GameValue("single", 1)
_GAMMON: Final = GameValue("gammon", 2)
_DRAW: Final = GameValue("draw", 0)
MOTHER_REASON: Final = "mother"
"""The ``reason`` of a game ended by the mother rule (a loss of 2 or a draw)."""


def _leave(b: bytearray, src: int) -> None:
    """Take one free checker of the mover off point ``src`` of ``b``; when it was the last one there, the opponent's
    checker it pinned (if any) is free again."""
    b[src - 1] -= 1
    if not b[src - 1] and b[_OPP_PINNED[src]]:
        b[_OPP_PINNED[src]] = 0
        b[_OPP_FREE[src]] = 1


class Plakoto(Variant):
    """Plakoto (плакото), the second game of Tavli, docs/rules.md §6.2.

    - Opposite geometry (as short nardy: the opponent's point q is the mover's 25 - q); all 15 checkers start on
      the mover's 24, the *mother* point. There is no bar.
    - No hitting. A checker landing on a point with exactly one opposing (free) checker **pins** it: the pinned
      checker stays under the pinner and cannot move until every pinning checker has left the point; then it is
      free again. A pinning step has ``hit`` set (written with ``*``). A pinned point is closed to the pinned side
      and open to the pinner, who may stack more checkers there; two or more checkers of one side close a point.
    - Bear-off as in §1 once all 15 of the mover's checkers are in the home board and none of them is pinned; a
      checker pinned during the bear-off stops it until it is freed.
    - The mother rule (:meth:`sudden_result`, checked when each part of the mover's turn has been played, before
      the turn passes): a side whose last checker on its own 24 is pinned there loses 2 (a gammon) at once, unless
      the pinner still has checkers on its own 24; then play goes on, and the pinned side loses 2 as soon as the
      pinner's last checker has left its 24. When both mothers are pinned the game is a draw worth nothing. Such a
      game ends with reason ``mother``.
    - Tavli commons: no doubling cube by default (option ``cube``); the winner of the opening roll rolls both dice
      afresh; a bear-off win is single (1) or gammon (2: the loser has borne off none), never more; resignation
      single or gammon.

    Where docs/rules.md is silent:

    - The mother rule is read at the end of each part of a turn, not between its two dice. That is the same as
      "at once": the pinner's checkers on a mother stand on the pinner's own point 1 and can leave it only by
      bearing off, which needs the pinner's own 24 to be empty already.
    - A loss by the mother rule is a gammon worth 2 times the cube when the cube is in play (the Jacoby rule does
      not touch it); the draw is kind ``draw`` worth 0 to each side.
    - A loser with a checker pinned, or still on its 24, loses only what §6.2 says (1, or 2 when it has borne off
      none): there is no triple win.
    - A pinned checker counts its own point in the pip count; the pinner's checker borne off (or moved away) last
      from a point frees the checker it pinned there; a side may have several checkers pinned on different points,
      but a point holds at most one pinned checker.
    """

    name: ClassVar[str] = "plakoto"
    aliases: ClassVar[tuple[str, ...]] = ("plakoto", "плакото")
    titles: ClassVar[dict[str, str]] = {"en": "Plakoto", "ru": "плакото"}
    geometry: ClassVar[Geometry] = "opposite"
    has_bar: ClassVar[bool] = False
    cube_by_default: ClassVar[bool] = False
    resign_levels: ClassVar[tuple[str, ...]] = ("single", "gammon")
    opening_rerolls: ClassVar[bool] = True
    side_length: ClassVar[int] = PINNED_SIDE_LENGTH
    id_prefix: ClassVar[str | None] = "P1"
    opp_index: ClassVar[tuple[int, ...]] = _OPP_FREE
    closing_count: ClassVar[int] = 2

    def initial_side(self) -> Side:
        """Return the 49 entries of a side with all 15 checkers free on its point 24 (the mother)."""
        side = [0] * PINNED_SIDE_LENGTH
        side[_MOTHER] = CHECKERS
        return tuple(side)

    def to_mover_point(self, opp_point: int) -> int:
        """Return ``25 - opp_point``."""
        return 25 - opp_point

    def successors(self, state: State, die: int, ctx: TurnContext) -> list[Successor]:
        """Return every single legal step of ``die``: a free checker to an open point (pinning a lone opposing
        checker there), or off per docs/rules.md §1 when every checker is home and none is pinned."""
        out: list[Successor] = []
        bearing = not any(state[6:24]) and not any(state[_PIN:_OPP])
        top, stop = (5, -1) if bearing else (23, die - 1)
        highest = True
        for i in range(top, stop, -1):
            if not state[i]:
                continue
            src = i + 1
            dst = src - die
            if dst >= 1:
                if state[_PIN + dst - 1]:  # the mover's own checker is pinned there: closed to the mover
                    continue
                free = state[_OPP_FREE[dst]]
                if free > 1:
                    continue
                b = bytearray(state)
                _leave(b, src)
                b[dst - 1] += 1
                if free:
                    b[_OPP_FREE[dst]] = 0
                    b[_OPP_PINNED[dst]] = 1
                out.append((src, dst, free == 1, bytes(b)))
            elif dst == 0 or highest:
                b = bytearray(state)
                _leave(b, src)
                out.append((src, 0, False, bytes(b)))
            highest = False
        return out

    def step_refusal(self, state: State, src: int, die: int, ctx: TurnContext) -> tuple[str, str]:
        """Return ``(code, reason)`` for a refused step: a pinned checker (``pinned``), a held point or one where
        the mover's checker is pinned (``blocked``), a bear-off with checkers outside home (``bear_off_early``) or
        with a checker pinned (``bear_off_pinned``), a bear-off from below a higher checker (``bear_off_higher``)."""
        if not 1 <= src <= 24 or not state[src - 1]:
            if 1 <= src <= 24 and state[_PIN + src - 1]:
                return (
                    "pinned",
                    f"your checker on point {src} is pinned: it cannot move until every opponent checker on it has "
                    "left",
                )
            return "no_checker", f"there is no checker of yours on point {point_name(src)}"
        dst = src - die
        if dst >= 1:
            if state[_PIN + dst - 1]:
                return "blocked", f"point {dst} is held by the opponent (your checker is pinned there)"
            if state[_OPP_FREE[dst]] > 1:
                return "blocked", f"point {dst} is held by the opponent"
        elif any(state[6:24]):
            return "bear_off_early", "you can bear off only when all your checkers are in your home board"
        elif any(state[_PIN:_OPP]):
            pinned = ", ".join(str(i + 1) for i in range(24) if state[_PIN + i])
            return "bear_off_pinned", f"you cannot bear off while a checker of yours is pinned (on point {pinned})"
        elif dst < 0 and any(state[src:6]):
            return (
                "bear_off_higher",
                f"a {die} bears off from point {src} only when no checker of yours stands higher",
            )
        return "generic", f"{point_name(src)}/{point_name(max(dst, 0))} cannot be played with a {die} here"

    def game_value(self, position: Position, options: Options) -> GameValue:
        """Return single (1) or gammon (2: the loser ``position.opp`` has borne off none)."""
        return _SINGLE if sum(position.opp) < self.checkers else _GAMMON

    def sudden_result(self, position: Position, options: Options) -> tuple[int | None, GameValue, str] | None:
        """Return the mother rule's verdict on ``position`` (mover's frame, after a part of the mover's turn):
        ``(None, draw 0, "mother")`` when both mothers are pinned, ``(0, gammon 2, "mother")`` when the
        opponent's mother is pinned and the mover has no free checker left on its own 24, ``(1, gammon 2,
        "mother")`` the other way round; None while play goes on."""
        me, opp = position.me, position.opp
        me_pinned, opp_pinned = me[_PIN + _MOTHER], opp[_PIN + _MOTHER]
        if me_pinned and opp_pinned:
            return None, _DRAW, MOTHER_REASON
        if opp_pinned and not me[_MOTHER]:
            return 0, _GAMMON, MOTHER_REASON
        if me_pinned and not opp[_MOTHER]:
            return 1, _GAMMON, MOTHER_REASON
        return None

    def validate(self, position: Position) -> None:
        """Check a Plakoto position: 49 non-negative int entries per side, at most 15 checkers a side, an empty
        bar, pinned flags 0 or 1, and every point either of one colour or a pin (one pinned checker under one or
        more free checkers of the other side, none of the pinned side's own free checkers there).

        Raises:
            InvalidPositionError: with what is wrong and the position's key.
        """
        key = position.key()
        for label, side in (("mover", position.me), ("opponent", position.opp)):
            if len(side) != PINNED_SIDE_LENGTH:
                raise InvalidPositionError(
                    f"{label} side has {len(side)} counters, not {PINNED_SIDE_LENGTH} (plakoto: 25 counts and 24 "
                    f"pinned flags) ({key})"
                )
            if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in side):
                raise InvalidPositionError(f"{label} side has a negative or non-integer count ({key})")
            if sum(side) > self.checkers:
                raise InvalidPositionError(f"{label} side has {sum(side)} checkers, more than {self.checkers} ({key})")
            if side[24]:
                raise InvalidPositionError(f"{label} side has checkers on the bar in plakoto ({key})")
            bad = [i + 1 for i in range(24) if side[_PIN + i] > 1]
            if bad:
                raise InvalidPositionError(
                    f"{label} side has more than one checker pinned on point {bad[0]}: a pinned flag is 0 or 1 ({key})"
                )
        me, opp = position.me, position.opp
        for t in range(1, 25):
            q = 25 - t  # the opponent's number of the mover's point t
            me_free, me_pinned = me[t - 1], me[_PIN + t - 1]
            opp_free, opp_pinned = opp[q - 1], opp[_PIN + q - 1]
            if me_pinned and opp_pinned:
                raise InvalidPositionError(f"point {t} holds a pinned checker of both sides ({key})")
            if me_free and opp_free:
                raise InvalidPositionError(f"point {t} holds free checkers of both colours ({key})")
            for who, pinned, own_free, other_free in (
                ("mover", me_pinned, me_free, opp_free),
                ("opponent", opp_pinned, opp_free, me_free),
            ):
                if pinned and own_free:
                    raise InvalidPositionError(
                        f"point {t} (mover's frame) holds a pinned checker of the {who} beside free ones of its own "
                        f"({key})"
                    )
                if pinned and not other_free:
                    raise InvalidPositionError(
                        f"point {t} (mover's frame) holds a pinned checker of the {who} with no opposing checker on "
                        f"it to pin it ({key})"
                    )
