"""Variants of docs/rules.md §6 played on the short-nardy board: Hypergammon, Nackgammon, Portes and Misère.

Each moves exactly as short nardy (opposite geometry, hitting, the bar, bear-off of §1 and §3) and so inherits
:class:`~nardy.variants.short.ShortNardy`'s move generator unchanged; it differs only in its setup, its number of
checkers, its scoring, its cube and opening defaults, or (Misère) the aim of the game.
"""

from __future__ import annotations

from typing import ClassVar, Final

from nardy.options import Options
from nardy.position import Position, Side, make_side
from nardy.variants.base import GameValue
from nardy.variants.short import ShortNardy

_SINGLE: Final = GameValue("single", 1)


class Hypergammon(ShortNardy):
    """Hypergammon (гипергаммон), docs/rules.md §6.1: short nardy with 3 checkers each.

    - Setup: 3 checkers each, on the mover's 24, 23 and 22. Everything else as short nardy (hits, bar, bear-off,
      cube; bear-off once all 3 checkers still in play are home).
    - Scoring: seed 000 says марс and кокс are not counted in Hypergammon. Option ``hyper_gammons``: off (default:
      every win is single × cube, even when the loser has all 3 checkers back) | on (as short nardy: gammon when
      the loser has borne off none, backgammon when one of them is also on the bar or in the winner's home).
    - Resignation: single only by default; single, gammon or backgammon with ``hyper_gammons``.
    """

    name: ClassVar[str] = "hypergammon"
    aliases: ClassVar[tuple[str, ...]] = ("hypergammon", "гипергаммон")
    titles: ClassVar[dict[str, str]] = {"en": "Hypergammon", "ru": "гипергаммон"}
    checkers: ClassVar[int] = 3

    def initial_side(self) -> Side:
        """Return one checker on each of 24, 23 and 22."""
        return make_side({24: 1, 23: 1, 22: 1})

    def resign_options(self, options: Options) -> tuple[str, ...]:
        """Return ``single`` alone, or all three levels with ``hyper_gammons``."""
        return self.resign_levels if options.hyper_gammons else ("single",)

    def game_value(self, position: Position, options: Options) -> GameValue:
        """Return single (1), or with ``hyper_gammons`` the short-nardy value (1, 2 or 3)."""
        return super().game_value(position, options) if options.hyper_gammons else _SINGLE


class Nackgammon(ShortNardy):
    """Nackgammon (наккгаммон), docs/rules.md §6.1: not in the seeds; GNU Backgammon plays it.

    Short nardy in every respect (hits, bar, bear-off, single/gammon/backgammon, cube) but the setup: 2 on 24,
    2 on 23, 4 on 13, 3 on 8, 4 on 6.
    """

    name: ClassVar[str] = "nackgammon"
    aliases: ClassVar[tuple[str, ...]] = ("nackgammon", "наккгаммон")
    titles: ClassVar[dict[str, str]] = {"en": "Nackgammon", "ru": "наккгаммон"}

    def initial_side(self) -> Side:
        """Return 2 on 24, 2 on 23, 4 on 13, 3 on 8, 4 on 6."""
        return make_side({24: 2, 23: 2, 13: 4, 8: 3, 6: 4})


class Portes(ShortNardy):
    """Portes (портес), the first game of Tavli, docs/rules.md §6.2.

    - Short nardy in every other respect: setup, hits, bar, bear-off.
    - No doubling cube by default (option ``cube``).
    - Scoring: single (the loser has borne off at least one checker) = 1, gammon (марс: the loser has borne off
      none) = 2; no triple win: a loser with a checker on the bar or in the winner's home still loses only 2.
      Resignation: single or gammon.
    - Opening (``opening: reroll``): the winner of the opening roll rolls both dice afresh; that is Portes'
      ``standard`` opening, as it is long nardy's (option ``opening=winner_starts`` works as everywhere).
    """

    name: ClassVar[str] = "portes"
    aliases: ClassVar[tuple[str, ...]] = ("portes", "портес")
    titles: ClassVar[dict[str, str]] = {"en": "Portes", "ru": "портес"}
    cube_by_default: ClassVar[bool] = False
    resign_levels: ClassVar[tuple[str, ...]] = ("single", "gammon")
    opening_rerolls: ClassVar[bool] = True

    def game_value(self, position: Position, options: Options) -> GameValue:
        """Return single (1) or gammon (2), from the loser's side ``position.opp``."""
        return _SINGLE if sum(position.opp) < self.checkers else GameValue("gammon", 2)


class Misere(ShortNardy):
    """Misère (поддавки), «backgammon to lose», docs/rules.md §6.3 (seed 000: "кроме одной вариации «Поддавки»").

    - Short nardy rules and setup with the aim reversed: the side that bears off its last checker first **loses**;
      the other side wins 1 point × cube (no gammons or backgammons). The cube may be used (default on).
      Resignation: single only.
    - Draws: 000 names Поддавки as the one traditional variant with a draw, so ``last_roll_draw`` is on by default
      here: when the side that moved first in the game is the first to bear off all its checkers, the other side
      gets one more turn, and if that turn bears off all its remaining checkers the game is a draw (half the cube
      to each); otherwise the first finisher loses as above.
    """

    name: ClassVar[str] = "misere"
    aliases: ClassVar[tuple[str, ...]] = ("misere", "misère", "поддавки")
    titles: ClassVar[dict[str, str]] = {"en": "Misère", "ru": "поддавки"}
    resign_levels: ClassVar[tuple[str, ...]] = ("single",)
    last_roll_draw_by_default: ClassVar[bool] = True
    first_off_loses: ClassVar[bool] = True

    def game_value(self, position: Position, options: Options) -> GameValue:
        """Return single (1): what the side that did *not* finish first wins."""
        return _SINGLE
