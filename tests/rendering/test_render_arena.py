"""The arena's standings picture: valid, phone-sized JPEGs for 0, 1, 6 and 40 players in both themes, hostile names,
and what is drawn where (tested by the pixels of :func:`rendering.arena.arena_layout`'s boxes): the score sheet's
win squares, fire flames, bare losses and berserk bolts, each a shape of its own; the marks after the name; the header
line; the "+N more" line; the legend; and one golden image."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import test_render_golden as board_goldens
from PIL import Image
from render_helpers import decode, share_near

from rendering import ArenaLabels, render_arena_standings, render_arena_standings_image, theme_names
from rendering.arena import (
    MAX_ROWS,
    SHEET_GAMES,
    ArenaLayout,
    arena_layout,
    palette,
)
from rendering.colour_vision import simulate_image
from rendering.layout import Box
from rendering.scenes import RU_ARENA_LABELS, SCENES
from rendering.standings import HEADER_SIZE, LEGEND_SIZE, MIN_CAP_HEIGHT, PREVIEW_WIDTH, cap_height, readable_width
from rendering.theme import get_theme
from tournaments.arena import ArenaGame, ArenaStanding, arena_standings

HARD = [
    "👨\u200d👩\u200d👧 🎲🔥",
    "李小龍 さくら 김민준",
    "\u202eשלום עליכם\u202c",
    "مرحبا بالعالم",
    "🇺🇦 Олеся 🏳️\u200d🌈",
    "Eve\nAdams\r\n\u2029x",
    "x" * 200,
    "\x1c\x1d\x1e",
    "",
]


def crowd(count: int, games: int | None = None) -> tuple[list[ArenaStanding], dict[str, str]]:
    """An arena of ``count`` players after a fixed round of games: streaks, statuses, berserks (won and lost)."""
    players = [f"p{i}" for i in range(count)]
    played: list[ArenaGame] = []
    for n in range(games if games is not None else 3 * count):
        if count < 2:
            break
        a, b = players[(n * 7) % count], players[(n * 7 + 1 + n % (count - 1)) % count]
        if a == b:
            continue
        played.append(
            ArenaGame(
                (a, b), winner=0 if n % 3 else 1, points=1 + n % 3, berserk=(n % 4 == 0, n % 6 == 1), moves=(9, 9)
            )
        )
    names = {p: f"{HARD[i % len(HARD)]} {i}" for i, p in enumerate(players)}
    return arena_standings(players, played, {}), names


def fixed() -> tuple[list[ArenaStanding], dict[str, str]]:
    """ "a" beats b, c, d, e in a row (the third and fourth on fire, the second berserk), then loses to f berserk."""
    games = [
        ArenaGame(("a", "b"), winner=0),
        ArenaGame(("a", "c"), winner=0, berserk=(True, False), moves=(9, 9)),
        ArenaGame(("a", "d"), winner=0),
        ArenaGame(("a", "e"), winner=0),
        ArenaGame(("a", "f"), winner=1, berserk=(True, False)),
    ]
    rows = arena_standings(["a", "b", "c", "d", "e", "f"], games, {})
    return rows, {p: p.upper() for p in "abcdef"}


def inset(box: Box, by: int = 2) -> Box:
    return (box[0] + by, box[1] + by, box[2] - by, box[3] - by)


def ink(image: Image.Image, box: Box, background: tuple[int, int, int], tolerance: int = 24) -> float:
    """The share of pixels of ``box`` that are not the ``background``: something is drawn there."""
    return 1.0 - share_near(image, box, background, tolerance)


def row_background(theme: str, row: int) -> tuple[int, int, int]:
    colours = get_theme(theme)
    return colours.felt if row % 2 == 0 else colours.felt_edge


def mask(image: Image.Image, box: Box, background: tuple[int, int, int]) -> np.ndarray:
    crop = np.asarray(image.crop(box), dtype=np.int32)
    return np.abs(crop - np.array(background, dtype=np.int32)).max(axis=2) > 40  # type: ignore[no-any-return]


@pytest.mark.parametrize("theme", theme_names())
@pytest.mark.parametrize("count", [0, 1, 6, 40])
def test_renders_a_phone_sized_jpeg(count: int, theme: str) -> None:
    rows, names = crowd(count)
    data = render_arena_standings(rows, names, theme=theme, labels=RU_ARENA_LABELS, title="Арена", minutes_left=12)
    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG"
    geo = arena_layout(rows, labels=RU_ARENA_LABELS, title="Арена")
    assert image.size == (geo.width, geo.height)
    assert geo.shown == min(count, MAX_ROWS) and geo.hidden == max(0, count - MAX_ROWS)
    # readable at a chat's preview: the smallest text's cap height at 600 px wide, and not too tall for a phone
    smallest = min(HEADER_SIZE, LEGEND_SIZE)
    assert image.width <= readable_width(smallest)
    assert cap_height(smallest) * PREVIEW_WIDTH / image.width >= MIN_CAP_HEIGHT
    assert image.height <= 1000 and image.height / image.width < 1.6
    assert len(data) < 200 * 1024


@pytest.mark.parametrize("theme", theme_names())
def test_forty_players_are_cut_with_a_more_line(theme: str) -> None:
    rows, names = crowd(40)
    image = render_arena_standings_image(rows, names, theme=theme, minutes_left=3)
    geo = arena_layout(rows)
    line = geo.line_box()
    assert line is not None and geo.hidden == 20
    assert ink(image, line, get_theme(theme).frame) > 0.005  # "+20 more" is written there
    fewer = arena_layout(rows, max_rows=40)
    assert fewer.line_box() is None and fewer.shown == 40


def test_nobody_yet_is_said_under_an_empty_table() -> None:
    image = render_arena_standings_image([], {}, minutes_left=60)
    geo = arena_layout([])
    line = geo.line_box()
    assert line is not None and geo.shown == 0 and geo.legend == ()
    assert ink(image, line, get_theme("classic").frame) > 0.005


@pytest.mark.parametrize("theme", theme_names())
def test_hard_names_are_drawn(theme: str) -> None:
    rows = arena_standings([f"p{i}" for i in range(len(HARD))], [], {})
    names = {f"p{i}": name for i, name in enumerate(HARD)}
    image = render_arena_standings_image(rows, names, theme=theme, title="Арена 🎲 بطولة " * 8, minutes_left=5)
    geo = arena_layout(rows, title="Арена 🎲 بطولة " * 8)
    assert geo.title_lines == 2
    for r in range(len(HARD)):
        assert ink(image, inset(geo.cell_box(r, 1), 3), row_background(theme, r)) > 0.003, HARD[
            r
        ]  # at least its number


@pytest.mark.parametrize("theme", theme_names())
def test_the_sheet_draws_wins_fire_losses_and_berserk_by_shape(theme: str) -> None:
    rows, names = fixed()
    assert rows[0].player == "a"
    image = render_arena_standings_image(rows, names, theme=theme, minutes_left=1)
    geo = arena_layout(rows)
    arena = palette(theme)
    back = row_background(theme, 0)
    # sheet of "a": win, win (berserk), fire win, fire win, loss (berserk)
    win, win_berserk, fire, fire2, loss = (geo.mark_box(0, slot) for slot in range(5))
    assert share_near(image, inset(win), arena.win, 30) > 0.5
    assert share_near(image, inset(win_berserk, 4), arena.win, 30) > 0.4
    assert share_near(image, inset(win), arena.fire, 40) < 0.02
    for box in (fire, fire2):
        assert share_near(image, inset(box), arena.fire, 40) > 0.3
        assert share_near(image, inset(box), arena.win, 30) < 0.2  # at most the digit's
    assert share_near(image, inset(loss), arena.win, 30) < 0.15  # at most the digit's
    assert share_near(image, inset(loss), arena.fire, 40) < 0.02
    assert ink(image, inset(loss), back) > 0.03  # the bare 0
    # the bolt sits on the berserk games alone
    for slot in (1, 4):
        assert share_near(image, geo.bolt_box(0, slot), arena.bolt, 40) > 0.04, slot
    for slot in (0, 2, 3):
        assert share_near(image, geo.bolt_box(0, slot), arena.bolt, 40) < 0.01, slot
    # never colour alone: the flame and the square differ in shape, and stay apart for red-green colour blindness
    square, flame = mask(image, win, back), mask(image, fire, back)
    overlap = (square & flame).sum() / (square | flame).sum()
    assert overlap < 0.8
    for deficiency in ("protanopia", "deuteranopia"):
        seen = simulate_image(image, deficiency)
        a = np.asarray(seen.crop(inset(win, 5)), dtype=np.int32).reshape(-1, 3).mean(axis=0)
        b = np.asarray(seen.crop(inset(fire, 6)), dtype=np.int32).reshape(-1, 3).mean(axis=0)
        assert np.abs(a - b).max() > 25, deficiency


@pytest.mark.parametrize("theme", theme_names())
def test_marks_after_the_name_fire_paused_left(theme: str) -> None:
    rows, names = fixed()  # "a" lost its last game: not on fire; give "b" a streak instead
    games = [ArenaGame(("b", "c"), winner=0), ArenaGame(("b", "d"), winner=0), ArenaGame(("e", "f"), winner=0)]
    rows = arena_standings(["b", "c", "d", "e", "f"], games, {})
    assert [r.player for r in rows[:1]] == ["b"] and rows[0].fire
    image = render_arena_standings_image(rows, names, theme=theme, paused={"c", "e"}, left={"d", "e"})
    geo = arena_layout(rows, paused={"c", "e"}, left={"d", "e"})
    arena = palette(theme)
    by_player = {r.player: i for i, r in enumerate(rows)}
    b = by_player["b"]
    assert share_near(image, geo.icon_box(b, 0), arena.fire, 40) > 0.2  # the flame: on fire now
    for player in ("c", "d", "e"):  # paused, left, left (who left is not paused)
        r = by_player[player]
        assert ink(image, geo.icon_box(r, 0), row_background(theme, r)) > 0.2, player
        assert ink(image, geo.icon_box(r, 1), row_background(theme, r)) < 0.05, player
    # the pause's two bars and the door differ
    c, d = by_player["c"], by_player["d"]
    assert (
        mask(image, geo.icon_box(c, 0), row_background(theme, c))
        != mask(image, geo.icon_box(d, 0), row_background(theme, d))
    ).mean() > 0.2
    f = by_player["f"]
    assert ink(image, inset(geo.cell_box(f, 2)), row_background(theme, f)) < 0.02  # nothing for a plain player
    assert [list(line) for line in geo.legend] in ([["fire", "paused", "left"]], [["fire", "paused"], ["left"]])


def test_the_legend_lists_only_the_marks_drawn() -> None:
    games = [ArenaGame(("a", "b"), winner=0)]
    assert arena_layout(arena_standings(["a", "b"], games, {})).legend == ()
    berserk = [ArenaGame(("a", "b"), winner=1, berserk=(True, False))]
    assert arena_layout(arena_standings(["a", "b"], berserk, {})).legend == (("berserk",),)
    rows, _ = fixed()
    geo = arena_layout(rows, left={"f"})
    assert geo.legend == (("fire", "berserk", "left"),)
    box = geo.legend_box()
    assert box is not None
    image = render_arena_standings_image(rows, {}, left={"f"})
    assert ink(image, box, get_theme("classic").frame) > 0.03


def test_a_long_sheet_shows_its_last_games_after_an_ellipsis() -> None:
    games = [ArenaGame(("a", "b"), winner=0 if n < 14 else 1) for n in range(15)]  # the last game lost
    rows = arena_standings(["a", "b"], games, {})
    geo = arena_layout(rows)
    image = render_arena_standings_image(rows, {})
    arena = palette("classic")
    first = geo.mark_box(0, 0)
    assert (
        share_near(image, inset(first), arena.fire, 40) < 0.02 and share_near(image, inset(first), arena.win, 30) < 0.2
    )
    assert ink(image, inset(first), row_background("classic", 0)) > 0.01  # the ellipsis
    for slot in range(1, SHEET_GAMES - 1):
        assert share_near(image, inset(geo.mark_box(0, slot)), arena.fire, 40) > 0.3  # wins on fire
    assert share_near(image, inset(geo.mark_box(0, SHEET_GAMES - 1)), arena.fire, 40) < 0.02  # the loss


def test_the_header_line_says_time_left_or_finished() -> None:
    rows, names = fixed()
    geo: ArenaLayout = arena_layout(rows, title="Arena")
    left = render_arena_standings_image(rows, names, title="Arena", minutes_left=7)
    over = render_arena_standings_image(rows, names, title="Arena", minutes_left=None)
    box = geo.status_box()
    assert ink(left, box, get_theme("classic").frame) > 0.02
    assert ink(over, box, get_theme("classic").frame) > 0.02
    difference = np.abs(np.asarray(left.crop(box), np.int32) - np.asarray(over.crop(box), np.int32)).max()
    assert difference > 100
    outside = (0, box[3], geo.width, geo.height)
    assert np.array_equal(np.asarray(left.crop(outside)), np.asarray(over.crop(outside)))


def test_labels_are_the_callers_words() -> None:
    rows, names = fixed()
    plain = render_arena_standings_image(rows, names, minutes_left=3)
    words = render_arena_standings_image(rows, names, minutes_left=3, labels=ArenaLabels(time_left="{minutes} минуты"))
    box = arena_layout(rows).status_box()
    assert not np.array_equal(np.asarray(plain.crop(box)), np.asarray(words.crop(box)))


def test_bad_options_are_refused() -> None:
    rows, names = fixed()
    with pytest.raises(ValueError):
        render_arena_standings(rows, names, theme="neon")
    with pytest.raises(ValueError):
        render_arena_standings(rows, names, fmt="gif")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        render_arena_standings(rows, names, minutes_left=-1)
    with pytest.raises(ValueError):
        render_arena_standings(rows, names, max_rows=0)


def test_the_arena_is_in_the_gallery() -> None:
    for theme in theme_names():
        assert decode(SCENES["hard_names_arena"](theme, 480, "png")).width > 400


def test_arena_matches_golden() -> None:
    image = decode(SCENES["hard_names_arena"]("classic", 480, "png"))
    path: Path = board_goldens.GOLDEN_DIR / "arena__hard_names.png"
    if board_goldens.update_requested():
        path.parent.mkdir(exist_ok=True)
        image.save(path, "PNG", optimize=True)
        pytest.skip(f"golden written: {path.name}")
    assert path.exists(), f"missing golden {path.name}: run UPDATE_GOLDENS=1 python -m pytest tests/rendering"
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size, f"size changed: {golden.size} -> {image.size}"
    diff = np.abs(np.asarray(image, dtype=np.int16) - np.asarray(golden, dtype=np.int16))
    assert float(diff.mean()) <= board_goldens.MEAN_TOLERANCE
    assert float((diff.max(axis=2) > board_goldens.PIXEL_TOLERANCE).mean()) <= board_goldens.MAX_SHARE
