"""A fixed set of example boards (scenes) shared by the review gallery and the golden-image tests.

Each scene is a function ``(theme, width, fmt) -> bytes``; :data:`SCENES` maps a file stem to it. Positions are
written with :func:`nardy.position.make_side`, in each side's own frame (25 = bar); the extended sides of
docs/rules.md §6 with :func:`reserve_side` (Acey-deucey, Dutch) and :func:`pinned_side` (Plakoto). Every variant has
at least one scene.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nardy.move import RESERVE_POINT, Step
from nardy.position import PINNED_OFFSET, PINNED_SIDE_LENGTH, Position, Side, make_side
from rendering.arena import ArenaLabels, render_arena_standings
from rendering.board import BoardLabels, render_board
from rendering.bracket import BracketLabels, render_bracket, render_bracket_pages
from rendering.encode import ImageFormat
from rendering.leaderboard import LeaderboardRow, render_leaderboard
from rendering.standings import TableLabels, render_swiss_standings
from tournaments import Elimination, Player, Result, Swiss, Tournament, double_elimination, single_elimination, swiss
from tournaments.arena import ArenaGame, arena_standings

RU_BOARD_LABELS = BoardLabels(pips="пипсы", to_move="ходит", match="Матч до {length}", crawford="Кроуфорд")
"""The board's captions in Russian, as the bot passes them from its catalogue (the scenes show Russian boards)."""
RU_TABLE_LABELS = TableLabels(
    number="№",
    player="Игрок",
    points="Очки",
    sb="Бергер",
    diff="Разн.",
    place="Место",
    rating="Рейтинг",
    cut1="Бух−1",
    buchholz="Бух.",
    round="Тур",
    status="Статус",
    in_play="в игре",
    out="вылет",
    played="Игр",
    wins="В",
    draws="Н",
    losses="П",
    matches="Матчи",
    legend_swiss=(
        "Бух−1 — Бухгольц без худшего соперника · Бух. — Бухгольц, сумма очков соперников · "
        "Бергер — сумма очков побеждённых соперников и половины очков тех, с кем ничья"
    ),
    legend_round_robin=(
        "Бергер — сумма очков побеждённых соперников и половины очков тех, с кем ничья · "
        "Разн. — разница очков, выигранных и проигранных в партиях"
    ),
)
"""A table's headers in Russian, as the bot passes them from its catalogue (for tests and benchmarks)."""

Scene = Callable[[str, int, ImageFormat], bytes]

SHORT_START = make_side({24: 2, 13: 5, 8: 3, 6: 5})
LONG_START = make_side({24: 15})
LONG_NAME = "Александр Константинопольский-Длинноимённый"
IN = RESERVE_POINT


def reserve_side(points: dict[int, int], reserve: int) -> Side:
    """Return a side of 26 entries (Acey-deucey, Dutch): ``points`` as for :func:`make_side` and ``reserve``
    checkers not yet entered."""
    return (*make_side(points), reserve)


def pinned_side(points: dict[int, int], pinned: tuple[int, ...] = ()) -> Side:
    """Return a side of 49 entries (Plakoto): free checkers ``points`` as for :func:`make_side` and one checker of
    the side pinned on each point of ``pinned`` (its own frame)."""
    flags = [0] * (PINNED_SIDE_LENGTH - PINNED_OFFSET)
    for point in pinned:
        flags[point - 1] = 1
    return (*make_side(points), *flags)


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
    make_side({24: 7, 20: 3, 16: 2, 9: 1, 10: 1, 11: 1}),
)


def _long_midgame(theme: str, width: int, fmt: ImageFormat, viewer: int, **extra: Any) -> bytes:
    return render_board(
        _LONG_MIDGAME,
        "long",
        mover=0,
        viewer=viewer,
        dice=(6, 2),
        used_dice=(6,),
        last_move=(Step(24, 20, 4), Step(13, 10, 3)),
        last_move_player=1,
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
        **extra,
    )


def long_midgame(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return a long-nardy game in mid-play: the opponent's last turn marked, a 6 already played of a 6-2; the
    Crawford game of a match to 5 at 4:2, in Russian."""
    return _long_midgame(
        theme,
        width,
        fmt,
        0,
        pending_steps=(Step(24, 18, 6),),
        match_score=(4, 2),
        match_length=5,
        crawford=True,
        labels=RU_BOARD_LABELS,
    )


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
        labels=RU_BOARD_LABELS,
        theme=theme,
        width=width,
        fmt=fmt,
    )


def hypergammon_midgame(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Hypergammon (3 checkers a side): the mover has borne one off; the opponent rolled 5-4 with two on the
    bar, entered one with the 4 and could not enter the other (the mover holds its 20)."""
    return render_board(
        Position(make_side({5: 2}), make_side({25: 1, 21: 1, 9: 1})),
        "hypergammon",
        dice=(5, 2),
        last_move=(Step(25, 21, 4),),
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
        labels=RU_BOARD_LABELS,
        title="Поддавки",
        theme=theme,
        width=width,
        fmt=fmt,
    )


def plakoto_pins(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Plakoto with a pin each way: the opponent's checker pins the mover's on the mover's 8, and three of
    the mover's hold the opponent's pinned on the mover's 19, one of them added by the 5 already played of a 5-3."""
    me = pinned_side({24: 7, 19: 3, 13: 2, 10: 1, 6: 1}, pinned=(8,))
    opp = pinned_side({24: 8, 20: 1, 17: 1, 16: 2, 11: 2}, pinned=(6,))
    return render_board(
        Position(me, opp),
        "plakoto",
        dice=(5, 3),
        used_dice=(5,),
        pending_steps=(Step(24, 19, 5),),
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def plakoto_last_move(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return the same Plakoto position before the mover's 5, with the opponent's last turn 23/17* 24/20 marked
    (the pin in the hit colour), seen by the opponent."""
    me = pinned_side({24: 8, 19: 2, 13: 2, 10: 1, 6: 1}, pinned=(8,))
    opp = pinned_side({24: 8, 20: 1, 17: 1, 16: 2, 11: 2}, pinned=(6,))
    return render_board(
        Position(me, opp),
        "plakoto",
        viewer=1,
        dice=(5, 3),
        last_move=(Step(23, 17, 6, hit=True), Step(24, 20, 4)),
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def plakoto_mother(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return a finished Plakoto game lost by the mother rule: the opponent's 5/1* pinned the mover's last checker
    on its 24 (the mother) while the opponent's own 24 was empty; Russian labels."""
    me = pinned_side({13: 3, 11: 2, 8: 3, 6: 4, 5: 2}, pinned=(24,))
    opp = pinned_side({18: 3, 16: 2, 15: 3, 10: 2, 7: 3, 4: 1, 1: 1})
    return render_board(
        Position(me, opp),
        "plakoto",
        last_move=(Step(5, 1, 4, hit=True), Step(7, 4, 3)),
        names=("Анна", "Boris"),
        finished=True,
        labels=RU_BOARD_LABELS,
        title="Плакото",
        theme=theme,
        width=width,
        fmt=fmt,
    )


def acey_deucey_start(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Acey-deucey's start: all 15 checkers of each side in its reserve, the mover to play an opening 1-2."""
    start = reserve_side({}, 15)
    return render_board(
        Position(start, start),
        "acey_deucey",
        dice=(2, 1),
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def acey_deucey_bar_and_reserve(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Acey-deucey with a reserve and the bar at once: the mover, five still to enter, has just entered
    in/23* with the 2 of a 1-2 and hit the opponent, who has four in its reserve and now one on the bar."""
    me = reserve_side({23: 1, 22: 2, 20: 1, 17: 2, 13: 2, 8: 1, 6: 1}, 5)
    opp = reserve_side({25: 1, 23: 3, 21: 2, 18: 2, 11: 2, 9: 1}, 4)
    return render_board(
        Position(me, opp),
        "acey_deucey",
        dice=(2, 1),
        used_dice=(2,),
        pending_steps=(Step(IN, 23, 2, hit=True),),
        names=("Анна", "Boris"),
        match_score=(1, 2),
        match_length=5,
        theme=theme,
        width=width,
        fmt=fmt,
    )


def dutch_bar_and_reserve(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Dutch backgammon with both bars and both reserves in use: player 1 to move (seen by player 0), after
    player 0 rolled 4-3 with two checkers on the bar: bar/22* entered one and hit (allowed: player 0 has checkers
    home), the 4 could not enter (player 1 holds player 0's 21), so the other stays on the bar; the cube on 2, owned
    by player 0."""
    anna = reserve_side({25: 1, 22: 1, 19: 2, 13: 3, 8: 2, 6: 2, 5: 1}, 3)
    boris = reserve_side({25: 1, 13: 3, 11: 2, 4: 2}, 7)
    return render_board(
        Position(boris, anna),
        "dutch",
        mover=1,
        viewer=0,
        dice=(5, 3),
        last_move=(Step(25, 22, 3, hit=True),),
        last_move_player=0,
        show_cube=True,
        cube_value=2,
        cube_owner=0,
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def fevga_midgame(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Fevga (long-nardy board, no hitting): each side's first checker has passed the other's start, the
    opponent's last turn 21/17 24/21 is marked."""
    me = make_side({24: 10, 18: 2, 14: 1, 11: 1, 8: 1})
    opp = make_side({24: 12, 10: 1, 17: 1, 21: 1})
    return render_board(
        Position(me, opp),
        "fevga",
        dice=(6, 3),
        last_move=(Step(21, 17, 4), Step(24, 21, 3)),
        names=("Анна", "Boris"),
        theme=theme,
        width=width,
        fmt=fmt,
    )


def gulbara_double(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Gul bara (long-nardy board): the mover plays an escalating 4-4, two of the four 4s played; Russian
    labels."""
    me = make_side({24: 9, 20: 2, 16: 1, 13: 1, 10: 1, 7: 1})
    opp = make_side({24: 8, 18: 2, 17: 2, 15: 1, 9: 1, 3: 1})
    return render_board(
        Position(me, opp),
        "gulbara",
        dice=(4, 4),
        used_dice=(4, 4),
        pending_steps=(Step(24, 20, 4), Step(20, 16, 4)),
        names=("Анна", "Boris"),
        labels=RU_BOARD_LABELS,
        title="Гюльбара",
        theme=theme,
        width=width,
        fmt=fmt,
    )


HARD_NAMES = (
    "👨\u200d👩\u200d👧\u200d👦 王小明 🇺🇦",
    "مريم אבי 𝓕𝐀𝕬Ⓐ",
    "अर्जुन สมชาย 👍🏽",
    "さくら 김민준 1️⃣",
    "Али علي 🏳️\u200d🌈",
    "ნინო Արամ 🇰🇿 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "Nguyễn Thị Ướt 🇷🇺",
    "Ωμέγα 🎲🔥 漢字かな",
)
"""Names a Telegram user may have, drawn by the font fallback (:mod:`rendering.text_fonts`): emoji sequences, CJK,
Indic, Thai, right-to-left, styled letters."""


def hard_names_board(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return short nardy's start with two of :data:`HARD_NAMES` (a ZWJ family, Chinese, a flag; Arabic, Hebrew,
    styled letters) and a match score."""
    return render_board(
        Position(SHORT_START, SHORT_START),
        "short",
        dice=(6, 1),
        names=(HARD_NAMES[0], HARD_NAMES[1]),
        match_score=(1, 2),
        match_length=5,
        theme=theme,
        width=width,
        fmt=fmt,
    )


def _hard_players() -> tuple[list[Player], dict[str, str]]:
    players = [Player(f"p{i}", 1500.0 + 23 * i) for i in range(len(HARD_NAMES))]
    return players, {p.id: name for p, name in zip(players, HARD_NAMES, strict=True)}


def _hard_swiss() -> Swiss:
    """Return the Swiss tournament of :func:`hard_names_standings`: two rounds played, the first named wins 1–0."""
    players, _ = _hard_players()
    state = swiss(players, rounds=3)
    for _ in range(2 * len(players) // 2):
        match = state.playable()[0]
        state = state.record(Result(match.id, match.first, 1, 0))
    return state


def hard_names_standings(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return Swiss standings after two rounds among players named :data:`HARD_NAMES` (``width`` is unused)."""
    _, names = _hard_players()
    return render_swiss_standings(_hard_swiss().standings(), names, theme=theme, title="Турнир 🎲 بطولة", fmt=fmt)


def _hard_elimination() -> Elimination:
    """Return the single elimination of :func:`hard_names_bracket`: its first round played, the lower seed winning
    every other match, each winner 3–1."""
    players, _ = _hard_players()
    state = single_elimination(players)
    for n in range(len(players) // 2):
        match = state.playable()[0]
        winner = match.first if n % 2 else match.second
        state = state.record(Result(match.id, winner, *((3, 1) if winner == match.first else (1, 3))))
    return state


def hard_names_bracket(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return a single-elimination bracket of players named :data:`HARD_NAMES`, first round played (``width`` is
    unused)."""
    _, names = _hard_players()
    return render_bracket(_hard_elimination(), names, theme=theme, fmt=fmt)


def hard_names_leaderboard(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return a leaderboard of players named :data:`HARD_NAMES` (``width`` is unused)."""
    rows = [
        LeaderboardRow(place=i + 1, name=name, rating=1720.5 - 31.25 * i, experience=40 + i, matches=12 - i)
        for i, name in enumerate(HARD_NAMES)
    ]
    return render_leaderboard(rows, title="Топ 🏆", theme=theme, fmt=fmt)


RU_ARENA_LABELS = ArenaLabels(
    player="Игрок",
    score="Очки",
    games="Игр",
    sheet="Партии",
    time_left="осталось {minutes} мин",
    finished="Арена окончена",
    more="и ещё {count}",
    nobody="Ещё никто не сыграл.",
    fire="в огне: победа вдвойне",
    berserk="берсерк",
    paused="на паузе",
    left="покинул арену",
)
"""The arena picture's words in Russian, as the bot passes them from its catalogue."""


def hard_names_arena_rows() -> tuple[list[str], list[ArenaGame]]:
    """Return the players (``p0``.. of :func:`_hard_players`) and games of :func:`hard_names_arena`: streaks on
    fire, a gammon and a backgammon, berserk wins and a berserk loss."""
    players, _ = _hard_players()
    ids = [p.id for p in players]
    plan = [(0, 1, 0, 1), (0, 2, 0, 2), (0, 3, 0, 1), (0, 4, 0, 3), (1, 5, 0, 1), (2, 5, 1, 1), (3, 6, 0, 1)]
    plan += [(1, 3, 0, 1), (1, 4, 0, 1), (1, 6, 0, 2), (0, 5, 1, 1), (4, 6, 0, 1), (2, 4, 0, 1)]
    games = [
        ArenaGame(
            (ids[a], ids[b]),
            winner=w,
            points=p,
            berserk=(n % 4 == 1, n % 5 == 2),
            moves=(9, 9),
        )
        for n, (a, b, w, p) in enumerate(plan)
    ]
    return ids, games


def hard_names_arena(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return an arena's standings among players named :data:`HARD_NAMES`, one paused and one gone (``width`` is
    unused)."""
    _, names = _hard_players()
    ids, games = hard_names_arena_rows()
    rows = arena_standings(ids, games, {p.id: p.rating for p in _hard_players()[0]})
    return render_arena_standings(
        rows,
        names,
        theme=theme,
        labels=RU_ARENA_LABELS,
        title="⚔️ Арена · короткие нарды",
        minutes_left=17,
        paused={ids[6]},
        left={ids[5]},
        fmt=fmt,
    )


def short_finished(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return a finished short-nardy game: player 0 bore off all 15 (its last turn 2/off 1/off) and wins a gammon
    with the cube on 2 it owns (the caller's label "Победа: 4 оч."), player 1 has all 15 checkers on the board."""
    return render_board(
        Position(make_side({1: 3, 2: 2, 5: 4, 6: 3, 8: 3}), make_side({})),
        "short",
        mover=1,
        viewer=0,
        finished=True,
        winner=0,
        winner_label="Победа: 4 оч.",
        last_move=(Step(2, 0, 2), Step(1, 0, 1)),
        last_move_player=0,
        show_cube=True,
        cube_value=2,
        cube_owner=0,
        names=("Анна", "Boris"),
        match_score=(5, 1),
        match_length=5,
        labels=RU_BOARD_LABELS,
        theme=theme,
        width=width,
        fmt=fmt,
    )


_BUSY_LONG = Position(
    make_side({24: 9, 19: 1, 18: 2, 17: 1, 13: 1, 10: 1}),
    make_side({24: 8, 20: 2, 16: 2, 10: 1, 11: 2}),
)


def _encoding(theme: str, width: int, fmt: ImageFormat, quality: int | None) -> bytes:
    return render_board(
        _BUSY_LONG,
        "long",
        dice=(5, 3),
        last_move=(Step(24, 20, 4), Step(13, 10, 3)),
        names=(LONG_NAME, "Boris"),
        match_score=(2, 3),
        match_length=7,
        show_cube=True,
        cube_value=2,
        cube_owner=1,
        theme=theme,
        width=width,
        fmt=fmt,
        quality=quality,
    )


def encoding_before(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return a busy long-nardy board JPEG-encoded with the earlier settings (libjpeg quality 85), to compare with
    :func:`encoding_after`."""
    return _encoding(theme, width, fmt, 85)


def encoding_after(theme: str, width: int, fmt: ImageFormat) -> bytes:
    """Return the board of :func:`encoding_before` with the board's own JPEG tables (the default now)."""
    return _encoding(theme, width, fmt, None)


DE16_LABELS = BracketLabels(
    rounds={
        "W1": "1/8 финала",
        "W2": "Четвертьфинал",
        "W3": "Полуфинал",
        "W4": "Финал",
        **{f"L{r}": f"Тур {r}" for r in range(1, 6)},
        "L6": "Финал",
        "GF1": "",
        "GF2": "Решающий матч",
    },
    winners="Верхняя сетка",
    losers="Нижняя сетка",
    final="Суперфинал",
    champion="Чемпион",
    bye="без игры",
    in_play="идёт игра",
    forfeit="неявка",
    match_number="М{number}",
    loser_of="проигравший {match}",
    winner_of="победитель {match}",
)
"""The words the bot passes for the pages of a 16-player double elimination in Russian
(bot.services.tournaments.chat_views.bracket_page_labels: each round named without the section named above it)."""


def _double16() -> tuple[Elimination, dict[str, str]]:
    """Return a 16-player double elimination with 18 of its 30 matches played (upsets, a forfeit) and its names."""
    first = ["Александр", "Екатерина", "Владимир", "Анастасия", "Константин", "Маргарита", "Святослав", "Елизавета"]
    players = [Player(f"p{i}", 1700.0 - 13 * i) for i in range(16)]
    names = {p.id: f"{first[i % 8]} {'Преображенский' if i % 3 else 'Ли'} {i + 1}" for i, p in enumerate(players)}
    state = double_elimination(players)
    for n in range(18):
        match = state.playable()[0]
        winner = match.second if n % 4 == 1 else match.first
        if n == 6:
            state = state.record(Result(match.id, winner, forfeit=True))
        else:
            state = state.record(Result(match.id, winner, *((3, 1) if winner == match.first else (1, 3))))
    return state, names


def _double16_page(page: int) -> Scene:
    def scene(theme: str, width: int, fmt: ImageFormat) -> bytes:
        state, names = _double16()
        title = "Турнир: длинные нарды, двойное выбывание"
        return render_bracket_pages(state, names, labels=DE16_LABELS, theme=theme, title=title, fmt=fmt)[page]

    scene.__doc__ = f"""Return page {page + 1} of the album of a 16-player double elimination mid-way (``width`` is
    unused): the pictures the bot sends for its bracket, each at most 830 px wide."""
    return scene


DOUBLE16_PAGES = 5
"""The pages of the album of :func:`_double16` (the winners' bracket in two, the losers' with the grand final in
three)."""

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
    "hypergammon_midgame": hypergammon_midgame,
    "nackgammon_opening": nackgammon_opening,
    "portes_race": portes_race,
    "misere_bearoff": misere_bearoff,
    "plakoto_pins": plakoto_pins,
    "plakoto_last_move": plakoto_last_move,
    "plakoto_mother": plakoto_mother,
    "acey_deucey_start": acey_deucey_start,
    "acey_deucey_bar_and_reserve": acey_deucey_bar_and_reserve,
    "dutch_bar_and_reserve": dutch_bar_and_reserve,
    "fevga_midgame": fevga_midgame,
    "gulbara_double": gulbara_double,
    "short_finished": short_finished,
    "encoding_before_q85": encoding_before,
    "encoding_after": encoding_after,
    "hard_names_board": hard_names_board,
    "hard_names_standings": hard_names_standings,
    "hard_names_bracket": hard_names_bracket,
    "hard_names_leaderboard": hard_names_leaderboard,
    "hard_names_arena": hard_names_arena,
    **{f"bracket_double16_page{i + 1}": _double16_page(i) for i in range(DOUBLE16_PAGES)},
}

TOURNAMENT_SCENES: dict[str, Callable[[], Tournament]] = {
    "hard_names_standings": _hard_swiss,
    "hard_names_bracket": _hard_elimination,
    **{f"bracket_double16_page{i + 1}": lambda: _double16()[0] for i in range(DOUBLE16_PAGES)},
}
"""The tournament each standings or bracket scene of :data:`SCENES` draws (tests check it keeps the rules)."""
