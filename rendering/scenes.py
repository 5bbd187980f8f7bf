"""A fixed set of example boards (scenes) shared by the review gallery and the golden-image tests.

Each scene is a function ``(theme, width, fmt) -> bytes``; :data:`SCENES` maps a file stem to it. Positions are
written with :func:`nardy.position.make_side`, in each side's own frame (25 = bar).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nardy.move import Step
from nardy.position import Position, make_side
from rendering.board import render_board
from rendering.dice import render_dice
from rendering.encode import ImageFormat

Scene = Callable[[str, int, ImageFormat], bytes]

SHORT_START = make_side({24: 2, 13: 5, 8: 3, 6: 5})
LONG_START = make_side({24: 15})
LONG_NAME = "Александр Константинопольский-Длинноимённый"


def short_opening(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return short nardy's starting position, player 0 to move with an opening 3-1 and the cube centred."""
    return render_board(
        Position(SHORT_START, SHORT_START),
        "short",
        dice=(3, 1),
        show_cube=True,
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def long_opening(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return long nardy's starting position (both heads of 15), player 1 to move, seen by player 0."""
    return render_board(
        Position(LONG_START, LONG_START),
        "long",
        mover=1,
        viewer=0,
        dice=(6, 5),
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


_LONG_MIDGAME = Position(
    make_side({24: 8, 19: 1, 18: 1, 17: 2, 13: 1, 10: 1, 6: 1}),
    make_side({24: 7, 20: 3, 16: 2, 9: 2, 11: 1}),
)


def _long_midgame(theme: str, width: int, fmt: ImageFormat, viewer: int, **extra: Any) -> bytes:
    return render_board(
        _LONG_MIDGAME,
        "long",
        mover=0,
        viewer=viewer,
        dice=(6, 2),
        used_dice=(6,),
        last_move=(Step(24, 20, 4), Step(13, 9, 4)),
        last_move_player=1,
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
        **extra,
    )


def long_midgame(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return a long-nardy game in mid-play: the opponent's last turn marked, a 6 already played of a 6-2."""
    return _long_midgame(theme, width, fmt, 0, pending_steps=(Step(24, 18, 6),), match_score=(2, 1), match_length=5)


def long_midgame_other_viewer(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return the same mid-play long-nardy position as :func:`long_midgame`, seen by player 1."""
    return _long_midgame(theme, width, fmt, 1)


def short_bar(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return short nardy with checkers on the bar for both players (two for the mover)."""
    me = make_side({25: 2, 24: 2, 13: 4, 8: 3, 6: 4})
    opp = make_side({25: 1, 24: 1, 13: 5, 8: 2, 6: 4, 5: 2})
    return render_board(
        Position(me, opp), "short", dice=(6, 5), names=("Анна", "Boris"), theme=theme, width=width, fmt=fmt
    )


def short_hit(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return a turn being built with a hit (13/7*), on top of the opponent's last turn 8/5 6/5."""
    me = make_side({24: 2, 13: 4, 8: 3, 7: 1, 6: 5})
    opp = make_side({25: 1, 24: 2, 13: 5, 8: 2, 6: 3, 5: 2})
    return render_board(
        Position(me, opp),
        "short",
        dice=(6, 4),
        used_dice=(6,),
        last_move=(Step(8, 5, 3), Step(6, 5, 1)),
        last_move_player=1,
        pending_steps=(Step(13, 7, 6, hit=True),),
        show_cube=True,
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def short_bearoff(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return a bear-off race: both players have borne checkers off; the cube is on 2, owned by player 1."""
    me = make_side({6: 2, 5: 3, 4: 2, 2: 1})
    opp = make_side({6: 3, 5: 2, 3: 2, 2: 1, 1: 2})
    return render_board(
        Position(me, opp),
        "short",
        dice=(3, 1),
        used_dice=(3,),
        pending_steps=(Step(3, 0, 3),),
        last_move=(Step(4, 0, 4), Step(2, 0, 2)),
        last_move_player=1,
        cube_value=2,
        cube_owner=1,
        show_cube=True,
        names=("Анна", "Boris"),
        match_score=(4, 6),
        match_length=7,
        theme=theme,
        width=width,
        fmt=fmt,
    )


def stack15(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return all 15 of the mover's checkers on one point (6) and a cube on 4 owned by the mover."""
    me = make_side({6: 15})
    opp = make_side({1: 15})
    return render_board(
        Position(me, opp),
        "short",
        dice=(4, 4),
        used_dice=(4, 4),
        cube_value=4,
        cube_owner=0,
        show_cube=True,
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def long_name(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return the long-nardy start with a very long Cyrillic name (shortened with an ellipsis), Russian labels."""
    return render_board(
        Position(LONG_START, LONG_START),
        "long",
        names=(LONG_NAME, "Bob"),
        dice=(3, 3),
        match_score=(0, 0),
        match_length=3,
        lang="ru",
        theme=theme,
        width=width,
        fmt=fmt,
    )


def opening_roll(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return the opening roll on its own: player 0 threw a 5, player 1 a 3."""
    return render_dice(5, 3, names=("Анна", "Boris"), theme=theme, width=max(200, width // 2), fmt=fmt)


def hypergammon_midgame(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Hypergammon (3 checkers a side): the mover has borne one off, the opponent has one on the bar."""
    return render_board(
        Position(make_side({5: 1, 2: 1}), make_side({25: 1, 21: 1, 9: 1})),
        "hypergammon",
        dice=(5, 2),
        last_move=(Step(13, 9, 4), Step(25, 21, 4)),
        show_cube=True,
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def nackgammon_opening(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Nackgammon's starting position (2, 2, 4, 3, 4 on 24, 23, 13, 8, 6), player 1 to move with 4-2."""
    start = make_side({24: 2, 23: 2, 13: 4, 8: 3, 6: 4})
    return render_board(
        Position(start, start),
        "nackgammon",
        mover=1,
        viewer=0,
        dice=(4, 2),
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def portes_race(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Portes (no cube): a race where the opponent, none borne off, risks a gammon (Portes has no backgammon)."""
    return render_board(
        Position(make_side({3: 2, 2: 3, 1: 1}), make_side({19: 1, 12: 4, 7: 5, 5: 5})),
        "portes",
        dice=(6, 6),
        names=("Анна", "Boris"),
        match_score=(2, 3),
        match_length=7,
        theme=theme,
        width=width,
        fmt=fmt,
    )


def misere_bearoff(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Misère (поддавки): a bear-off where the side to move would rather not finish first; Russian labels."""
    return render_board(
        Position(make_side({6: 3, 4: 2, 1: 1}), make_side({5: 2, 3: 2, 2: 4, 1: 1})),
        "misere",
        dice=(2, 1),
        cube_value=2,
        cube_owner=0,
        show_cube=True,
        names=("Анна", "Boris"),
        lang="ru",
        theme=theme,
        width=width,
        fmt=fmt,
    )


SCENES: dict[str, Scene] = {
    "short_opening": short_opening,
    "long_opening": long_opening,
    "long_midgame": long_midgame,
    "long_midgame_viewer1": long_midgame_other_viewer,
    "short_bar": short_bar,
    "short_hit": short_hit,
    "short_bearoff": short_bearoff,
    "stack15_cube_mine": stack15,
    "long_name": long_name,
    "opening_roll": opening_roll,
    "hypergammon_midgame": hypergammon_midgame,
    "nackgammon_opening": nackgammon_opening,
    "portes_race": portes_race,
    "misere_bearoff": misere_bearoff,
}
