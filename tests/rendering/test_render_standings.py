"""Tournament tables as images: valid JPEGs for every format and size, hostile names, the cross-table's diagonal,
and one golden image per function (same mechanism and tolerance as the board goldens, see test_render_golden)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import test_render_golden as board_goldens
from PIL import Image
from render_helpers import decode, share_near

from rendering import (
    LeaderboardRow,
    render_cross_table,
    render_elimination,
    render_leaderboard,
    render_swiss_standings,
    standings,
    theme_names,
)
from rendering.scenes import RU_TABLE_LABELS
from rendering.standings import (
    HEADER_SIZE,
    MIN_CAP_HEIGHT,
    PREVIEW_WIDTH,
    TEXT_SIZE,
    TITLE_SIZE,
    TableLabels,
    cap_height,
    cross_table_fits,
    cross_table_layout,
    diagonal_colour,
)
from rendering.theme import get_theme
from tournaments import (
    CrossTable,
    Elimination,
    Player,
    Result,
    RoundRobin,
    Swiss,
    double_round_robin,
    forfeit,
    round_robin,
    single_elimination,
    swiss,
)

SIZES = (4, 9, 16)
LABELS = (RU_TABLE_LABELS, TableLabels())
HOSTILE = [
    "Eve\nAdams\r\n\u2029x",
    "\u202eשלום עליכם\u202c",
    "مرحبا بالعالم",
    "👨\u200d👩\u200d👧 🎲🔥",
    "x" * 200,
    "\x1c\x1d\x1e",
    "",
]


def players(count: int) -> list[Player]:
    return [Player(f"p{i}", 1500.0 + 37 * ((i * 7) % count)) for i in range(count)]


def play_round_robin(count: int, *, leave: int = 2) -> RoundRobin:
    """A round robin with every kind of result: wins, draws, a forfeit, and the last ``leave`` matches unplayed."""
    state = round_robin(players(count))
    total = sum(len(r.matches) for r in state.rounds)
    for n in range(total - leave):
        match = state.playable()[0]
        if n == 1:
            result = forfeit(match, match.second)
        elif n % 5 == 3:
            result = Result(match.id, None)
        else:
            result = Result(match.id, *((match.first, 1, 0) if n % 3 else (match.second, 0, 1)))
        state = state.record(result)
    return state


def play_swiss(count: int) -> Swiss:
    state = swiss(players(count), rounds=4)
    n = 0
    while not state.is_over:
        match = state.playable()[0]
        state = state.record(Result(match.id, None) if n % 7 == 4 else Result(match.id, match.first, 1, 0))
        n += 1
    return state


def play_elimination(count: int, *, matches: int = 100) -> Elimination:
    state = single_elimination(players(count))
    for n in range(matches):
        if state.is_over:
            break
        match = state.playable()[0]
        state = state.record(Result(match.id, *((match.first, 1, 0) if n % 3 else (match.second, 0, 1))))
    return state


def names_for(count: int, *, hostile: bool = False) -> dict[str, str]:
    if hostile:
        return {f"p{i}": HOSTILE[i % len(HOSTILE)] for i in range(count)}
    return {f"p{i}": f"Игрок {i}" if i % 2 else f"Player {i}" for i in range(count)}


def check_jpeg(data: bytes, min_width: int) -> Image.Image:
    assert data[:3] == b"\xff\xd8\xff"
    assert 2_000 < len(data) < 400_000
    image = decode(data)
    assert min_width <= image.width <= 2000
    assert 100 <= image.height <= 2000
    return image


@pytest.mark.parametrize("labels", LABELS)
@pytest.mark.parametrize("count", SIZES)
def test_cross_table_is_a_jpeg(count: int, labels: TableLabels) -> None:
    state = play_round_robin(count)
    data = render_cross_table(state.cross_table(), names_for(count), standings=state.standings(), labels=labels)
    image = check_jpeg(data, min(300 + 30 * count, 500))
    assert image.height > 34 * count


@pytest.mark.parametrize("labels", LABELS)
@pytest.mark.parametrize("count", SIZES)
def test_swiss_standings_are_a_jpeg(count: int, labels: TableLabels) -> None:
    rows = play_swiss(count).standings()
    image = check_jpeg(render_swiss_standings(rows, names_for(count), labels=labels, title="Swiss"), 400)
    assert image.height > 34 * count


@pytest.mark.parametrize("labels", LABELS)
@pytest.mark.parametrize("count", SIZES)
def test_elimination_is_a_jpeg(count: int, labels: TableLabels) -> None:
    rows = play_elimination(count).standings()
    image = check_jpeg(render_elimination(rows, names_for(count), labels=labels, title="Кубок"), 400)
    assert image.height > 34 * count


@pytest.mark.parametrize("theme", theme_names())
def test_hostile_names_and_titles_never_fail(theme: str) -> None:
    count = 9
    names = names_for(count, hostile=True)
    title = "Турнир\n" + "🎲" * 5 + "\u2029" + "y" * 200
    state = play_round_robin(count)
    check_jpeg(render_cross_table(state.cross_table(), names, theme=theme, title=title), 300)
    check_jpeg(render_swiss_standings(play_swiss(count).standings(), names, theme=theme, title=title), 300)
    check_jpeg(render_elimination(play_elimination(count).standings(), names, theme=theme, title=title), 300)


def test_missing_names_and_no_standings_still_draw() -> None:
    state = play_round_robin(4)
    check_jpeg(render_cross_table(state.cross_table(), {}), 300)


def test_unknown_theme_and_format_are_refused() -> None:
    table = play_round_robin(4).cross_table()
    with pytest.raises(ValueError, match="theme"):
        render_cross_table(table, {}, theme="neon")
    with pytest.raises(ValueError, match="format"):
        render_swiss_standings((), {}, fmt="gif")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "score", "decimal"),
    [
        (0.0, "0", "0"),
        (0.5, "½", "0.5"),
        (2.5, "2½", "2.5"),
        (3.0, "3", "3"),
        (69.25, "69.25", "69.25"),
        (-1.5, "−1½", "−1.5"),
    ],
)
def test_numbers_are_written_as_in_a_crosstable(value: float, score: str, decimal: str) -> None:
    assert standings._score(value) == score
    assert standings._decimal(value) == decimal


@pytest.mark.parametrize("theme", theme_names())
def test_the_diagonal_is_filled(theme: str) -> None:
    state = play_round_robin(6, leave=4)
    table: CrossTable = state.cross_table()
    image = decode(render_cross_table(table, names_for(6), theme=theme, title="t", fmt="png"))
    geo = cross_table_layout(table, title="t")
    assert image.size == (geo.width, geo.height)
    colour = diagonal_colour(theme)
    for i in range(len(table.players)):
        left, top, right, bottom = geo.cell_box(i, 2 + i)
        inner = (left + 3, top + 3, right - 3, bottom - 3)
        assert share_near(image, inner, colour, tolerance=8) > 0.95, f"diagonal cell {i}"
        off = geo.cell_box(i, 2 + (i + 1) % len(table.players))
        assert share_near(image, (off[0] + 3, off[1] + 3, off[2] - 3, off[3] - 3), colour, tolerance=8) < 0.5


GOLDENS = {
    "cross_table": lambda: render_cross_table(
        play_round_robin(6, leave=3).cross_table(),
        names_for(6),
        standings=play_round_robin(6, leave=3).standings(),
        labels=RU_TABLE_LABELS,
        title="Круговой турнир",
        fmt="png",
    ),
    "swiss": lambda: render_swiss_standings(
        play_swiss(8).standings(), names_for(8), theme="dark", title="Swiss, round 4", fmt="png"
    ),
    "elimination": lambda: render_elimination(
        play_elimination(8, matches=5).standings(), names_for(8), labels=RU_TABLE_LABELS, title="Олимпийка", fmt="png"
    ),
}


@pytest.mark.parametrize("name", list(GOLDENS))
def test_table_matches_golden(name: str) -> None:
    image = decode(GOLDENS[name]())
    path: Path = board_goldens.GOLDEN_DIR / f"standings__{name}.png"
    if board_goldens.update_requested():
        path.parent.mkdir(exist_ok=True)
        image.save(path, "PNG", optimize=True)
        pytest.skip(f"golden written: {path.name}")
    assert path.exists(), f"missing golden {path.name}: run UPDATE_GOLDENS=1 python -m pytest tests/rendering"
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size, f"size changed: {golden.size} -> {image.size}"
    diff = np.abs(np.asarray(image, dtype=np.int16) - np.asarray(golden, dtype=np.int16))
    mean = float(diff.mean())
    share = float((diff.max(axis=2) > board_goldens.PIXEL_TOLERANCE).mean())
    assert mean <= board_goldens.MEAN_TOLERANCE, f"{path.name}: mean difference {mean:.2f}"
    assert share <= board_goldens.MAX_SHARE, f"{path.name}: {share:.2%} of pixels differ too much"


@pytest.mark.parametrize("theme", theme_names())
def test_32_player_tables_stay_under_200_kb(theme: str) -> None:
    names = {f"p{i}": f"Константин Преображенский-Длинноименный №{i + 1}" for i in range(32)}
    swiss_jpeg = render_swiss_standings(
        play_swiss(32).standings(), names, theme=theme, labels=RU_TABLE_LABELS, title="Швейцарка"
    )
    elimination_jpeg = render_elimination(
        play_elimination(32).standings(), names, theme=theme, labels=RU_TABLE_LABELS, title="Кубок"
    )
    for data in (swiss_jpeg, elimination_jpeg):
        check_jpeg(data, 400)
        assert len(data) < 200 * 1024, f"{len(data) / 1024:.1f} KB"


def preview_cap_height(image: Image.Image) -> float:
    """The cap height of the table's smallest text (its headers) when the picture is shown 600 px wide."""
    smallest = min(HEADER_SIZE, TEXT_SIZE, TITLE_SIZE)
    return cap_height(smallest) * PREVIEW_WIDTH / image.width


READABLE_SIZES = (2, 4, 5, 6, 8, 9, 12, 16, 24, 32)


@pytest.mark.parametrize("count", READABLE_SIZES)
@pytest.mark.parametrize("double", [False, True])
def test_cross_tables_are_readable_at_preview_size(count: int, double: bool) -> None:
    # every picture readable at a 600-px preview: the smallest text's cap height >= 7 px at 600 px wide
    state = (double_round_robin if double else round_robin)(players(count))
    for n in range(sum(len(r.matches) for r in state.rounds) - 1):
        match = state.playable()[0]
        state = state.record(Result(match.id, *((match.first, 1, 0) if n % 3 else (match.second, 0, 1))))
    table = state.cross_table()
    image = decode(render_cross_table(table, names_for(count), standings=state.standings(), title="Турнир"))
    geo = cross_table_layout(table, title="Турнир")
    assert image.size == (geo.width, geo.height)
    assert image.width <= 1280 and preview_cap_height(image) >= MIN_CAP_HEIGHT, image.size
    # the matrix as long as it is readable (8 players, 5 of a double round robin), a list beyond
    assert cross_table_fits(table) == (count <= (5 if double else 8))
    assert len(geo.widths) == (count + 6 if cross_table_fits(table) else 9)


@pytest.mark.parametrize("count", READABLE_SIZES)
def test_swiss_and_elimination_tables_are_readable_at_preview_size(count: int) -> None:
    names = {f"p{i}": "Константин Преображенский-Длинноименный" for i in range(count)}
    for data in (
        render_swiss_standings(play_swiss(count).standings(), names, labels=RU_TABLE_LABELS, title="Швейцарка"),
        render_elimination(play_elimination(count).standings(), names, labels=RU_TABLE_LABELS, title="Кубок"),
    ):
        image = decode(data)
        assert image.width <= 1280 and preview_cap_height(image) >= MIN_CAP_HEIGHT, image.size


def test_big_round_robin_list_counts_results() -> None:
    # the list of a large round robin: played, won, drawn and lost per player agree with the standings
    state = play_round_robin(12, leave=5)
    table = state.cross_table()
    assert not cross_table_fits(table)
    rows = {r.player: r for r in state.standings()}
    for player, line in zip(table.players, table.cells, strict=True):
        marks = [p for cell in line if cell is not None for p in cell.points]
        row = rows[player]
        assert (len(marks), marks.count(1.0), marks.count(0.5), marks.count(0.0)) == (
            row.played,
            row.wins,
            row.draws,
            row.losses,
        )
    image = decode(
        render_cross_table(table, names_for(12), standings=state.standings(), labels=RU_TABLE_LABELS, fmt="png")
    )
    geo = cross_table_layout(table, labels=RU_TABLE_LABELS)
    assert image.size == (geo.width, geo.height) and len(geo.widths) == 9


LONG_TITLES = {
    "swiss": [
        "Турнир: длинные нарды, швейцарская система, тур 2 из 3",
        "Турнир: голландский триктрак, швейцарская система, тур 10 из 12",
        "Tournament: misère (backgammon to lose), Swiss, round 10 of 12",
    ],
    "elimination": [
        "Турнир: длинные нарды, до двух поражений",
        "Турнир: голландский триктрак, олимпийская система",
        "Tournament: misère (backgammon to lose), double elimination",
    ],
    "cross": [
        "Турнир: голландский триктрак, двухкруговая система",
        "Tournament: misère (backgammon to lose), double round robin",
    ],
    "leaderboard": ["Рейтинг чата: голландский триктрак", "Leaderboard of this chat: misère (backgammon to lose)"],
}
"""Titles the bot gives each kind of table (its catalogue's longest formats and variants), in both languages."""


def _picture(kind: str, labels: TableLabels, title: str) -> bytes:
    if kind == "swiss":
        return render_swiss_standings(play_swiss(8).standings(), names_for(8), labels=labels, title=title, fmt="png")
    if kind == "elimination":
        rows = play_elimination(8).standings()
        return render_elimination(rows, names_for(8), labels=labels, title=title, fmt="png")
    if kind == "cross":
        state = play_round_robin(4)
        return render_cross_table(state.cross_table(), names_for(4), labels=labels, title=title, fmt="png")
    return render_leaderboard([LeaderboardRow(1, "Анна", 1500.0, 0, 3)], labels=labels, title=title, fmt="png")


ELIMINATION_COLUMNS = [("Место", 62), ("Игрок", 230), ("Рейтинг", 76), ("Раунд", 66), ("Статус", 90)]
"""The elimination table's columns in Russian (:func:`rendering.standings.render_elimination_image`)."""


def ink_rows(image: Image.Image, box: tuple[int, int, int, int], background: tuple[int, int, int]) -> list[int]:
    """Return the rows (image y) of ``box`` holding a pixel far from ``background``."""
    crop = np.asarray(image.crop(box), dtype=np.int32)
    far = np.abs(crop - np.array(background, dtype=np.int32)).max(axis=2) > 90
    return [box[1] + int(y) for y in np.nonzero(far.any(axis=1))[0]]


@pytest.mark.parametrize(("kind", "title"), [(kind, title) for kind, titles in LONG_TITLES.items() for title in titles])
@pytest.mark.parametrize("labels", LABELS, ids=["ru", "en"])
def test_a_long_title_wraps_instead_of_being_cut(kind: str, title: str, labels: TableLabels) -> None:
    """At the width of each table the bot sends, its title loses no word: one line, or two."""
    image = decode(_picture(kind, labels, title))
    width = image.width - 2 * standings.MARGIN - 2 * standings.PAD
    lines = standings.title_lines(title, width)
    assert "…" not in "".join(lines) and 1 <= len(lines) <= 2
    assert " ".join(lines) == title  # every word is there, in order
    assert all(standings._width(line, TITLE_SIZE, True) <= width for line in lines)
    frame = get_theme("classic").frame
    second = standings.MARGIN + standings.TITLE_HEIGHT  # where a second line goes (above the header row)
    inked = share_near(image, (standings.MARGIN, second - 4, image.width - standings.MARGIN, second + 18), frame) < 0.97
    assert inked == (len(lines) == 2)


def test_the_legend_under_the_swiss_table_explains_its_columns() -> None:
    rows = play_swiss(8).standings()
    for labels in LABELS:
        image = decode(render_swiss_standings(rows, names_for(8), labels=labels, title="t", fmt="png"))
        columns = [standings.Column("x", w) for w in (62, standings.NAME_WIDTH, 76, 62, 66, 62, 70)]
        geo = standings.table_layout(columns, len(rows), "t", labels.legend_swiss)
        box = geo.legend_box()
        assert box is not None and geo.legend_lines >= 1 and image.height == geo.height
        frame = get_theme("classic").frame
        assert share_near(image, box, frame, tolerance=30) < 0.97  # text in the legend's box
        assert share_near(image, (box[0], box[3], box[2], image.height), frame, tolerance=30) > 0.97  # nothing below
    assert "Бух−1" in RU_TABLE_LABELS.legend_swiss and "Бергер" in RU_TABLE_LABELS.legend_swiss
    assert "BH−1" in TableLabels().legend_swiss and "SB" in TableLabels().legend_round_robin
    bare = decode(render_swiss_standings(rows, names_for(8), labels=TableLabels(legend_swiss=""), title="t", fmt="png"))
    assert bare.height == geo.height - standings.PAD - geo.legend_lines * standings.LEGEND_LINE


def test_headers_sit_on_one_baseline_and_keep_their_padding() -> None:
    """«Место», «Игрок», «Рейтинг», «Раунд», «Статус»: each one's capital letter ends on the same row, whatever
    descenders or breves the rest has; every header keeps PAD pixels from its column's edges ("Matches" too)."""
    rows = play_elimination(8, matches=5).standings()
    image = decode(render_elimination(rows, names_for(8), labels=RU_TABLE_LABELS, fmt="png"))
    geo = standings.table_layout([standings.Column(h, w) for h, w in ELIMINATION_COLUMNS], len(rows))
    strip = get_theme("classic").strip
    baselines, tops = [], []
    for c in range(len(ELIMINATION_COLUMNS)):
        box = geo.header_box(c)
        crop = np.asarray(image.crop(box), dtype=np.int32)
        far = np.abs(crop - np.array(strip, dtype=np.int32)).max(axis=2) > 90
        xs = np.nonzero(far.any(axis=0))[0]
        assert xs[0] >= standings.PAD - 1 and xs[-1] <= box[2] - box[0] - standings.PAD, c
        capital = np.nonzero(far[:, xs[0] : xs[0] + 5].any(axis=1))[0]  # the first letter, a capital
        tops.append(int(capital[0]))
        baselines.append(int(capital[-1]))
    assert len(set(baselines)) == 1 and len(set(tops)) == 1, (baselines, tops)
    wide = standings.fitted([standings.Column("Matches", 70)])[0]
    assert wide.width >= standings._width("Matches", HEADER_SIZE, True) + 2 * standings.PAD


def test_players_still_in_an_elimination_have_no_place_yet() -> None:
    rows = play_elimination(8, matches=5).standings()
    still = [i for i, row in enumerate(rows) if not row.eliminated]
    out = [i for i, row in enumerate(rows) if row.eliminated]
    assert len(still) >= 2 and out
    image = decode(render_elimination(rows, names_for(8), labels=RU_TABLE_LABELS, fmt="png"))
    columns = [standings.Column(h, w) for h, w in ELIMINATION_COLUMNS]
    geo = standings.table_layout(columns, len(rows))

    def place(row: int) -> np.ndarray:
        box = geo.cell_box(row, 0)
        return np.asarray(image.crop((box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)).convert("L"), dtype=np.int32)

    theme = get_theme("classic")
    first = geo.cell_box(still[0], 0)
    assert share_near(image, (first[0] + 2, first[1] + 2, first[2] - 2, first[3] - 2), theme.accent, 20) < 0.2
    same_shade = [i for i in still if i % 2 == still[0] % 2]
    assert all(np.abs(place(i) - place(same_shade[0])).max() < 40 for i in same_shade)  # all "—"
    assert np.abs(place(out[0]) - place(out[-1])).max() > 100 or len(out) == 1  # numbered places differ
    over = play_elimination(8)
    assert over.is_over
    champion = decode(render_elimination(over.standings(), names_for(8), fmt="png"))
    box = geo.cell_box(0, 0)
    assert share_near(champion, (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2), theme.accent, 20) > 0.5
