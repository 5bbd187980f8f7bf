"""The chat rating leaderboard image: valid JPEGs, the ru/en headers, at most 50 rows, hostile and very long names,
the first place highlighted, and golden images (same mechanism and tolerance as the board goldens, see
test_render_golden; regenerate with ``UPDATE_GOLDENS=1 python -m pytest tests/rendering/test_leaderboard.py``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import test_render_golden as board_goldens
from PIL import Image
from render_helpers import decode, share_near

import rendering
from rendering import LeaderboardRow, render_leaderboard, render_leaderboard_image, theme_names
from rendering import leaderboard as board
from rendering.scenes import RU_TABLE_LABELS
from rendering.standings import (
    HEADER_HEIGHT,
    HEADER_SIZE,
    MARGIN,
    MIN_CAP_HEIGHT,
    PREVIEW_WIDTH,
    ROW_HEIGHT,
    TableLabels,
    cap_height,
    title_height,
)
from rendering.theme import get_theme

CYRILLIC = ["Александр Преображенский", "Екатерина", "Владимир Рождественский", "Анастасия", "Святослав"]
LONG = "Константин Константинопольский-Длинноименный-Оглы Третий из Рода Длинных Имён"
HOSTILE = ["Eve\nAdams\r\n\u2029x", "\u202eשלום עליכם\u202c", "👨\u200d👩\u200d👧 🎲🔥", "x" * 300, "\x1c\x1d", ""]


def rows(count: int, names: list[str] | None = None) -> list[LeaderboardRow]:
    """``count`` rows, best first, ratings falling from 1712.3 (some of them whole, one tie for a place)."""
    shown = names or CYRILLIC
    out = []
    for i in range(count):
        place = i if i == 2 else i + 1  # places 1, 2, 2, 4, ...
        rating = 1712.3 - 17.45 * i if i % 4 else 1700.0 - 17 * i
        out.append(LeaderboardRow(place, shown[i % len(shown)], rating, 40 * (count - i), 3 + (i * 7) % 40))
    return out


def check_jpeg(data: bytes) -> Image.Image:
    assert data[:3] == b"\xff\xd8\xff"
    image = decode(data)
    assert 400 <= image.width <= 1000
    return image


def body_rows(image: Image.Image, *, title: int) -> int:
    """The number of body rows an image of the leaderboard holds, from its height (``title``: its lines, 0: none)."""
    top = MARGIN + (title_height(title) if title else 0) + HEADER_HEIGHT
    count, rest = divmod(image.height - top - MARGIN, ROW_HEIGHT)
    assert rest == 0
    return count


@pytest.mark.parametrize("labels", [RU_TABLE_LABELS, TableLabels()])
@pytest.mark.parametrize("theme", theme_names())
def test_leaderboard_is_a_jpeg(labels: TableLabels, theme: str) -> None:
    image = check_jpeg(render_leaderboard(rows(12), title="Рейтинг чата", labels=labels, theme=theme))
    assert body_rows(image, title=1) == 12


def test_exported_from_rendering() -> None:
    assert rendering.render_leaderboard is board.render_leaderboard
    assert rendering.render_leaderboard_image is board.render_leaderboard_image
    assert rendering.LeaderboardRow is board.LeaderboardRow
    assert {"LeaderboardRow", "render_leaderboard", "render_leaderboard_image"} <= set(rendering.__all__)


def test_row_is_a_small_frozen_value() -> None:
    row = LeaderboardRow(1, "Анна", 1500.0, 0, 0)
    with pytest.raises(AttributeError):
        row.rating = 1600.0  # type: ignore[misc]
    assert row == LeaderboardRow(1, "Анна", 1500.0, 0, 0) and hash(row) == hash(LeaderboardRow(1, "Анна", 1500.0, 0, 0))


def test_at_most_50_rows_are_drawn() -> None:
    assert body_rows(render_leaderboard_image(rows(50)), title=0) == 50
    assert body_rows(render_leaderboard_image(rows(80)), title=0) == board.MAX_ROWS == 50
    assert body_rows(render_leaderboard_image([]), title=0) == 0
    assert render_leaderboard_image(rows(80)).tobytes() == render_leaderboard_image(rows(50)).tobytes()


@pytest.mark.parametrize(
    ("value", "text"),
    [(1500.0, "1500.0"), (1523.44, "1523.4"), (1523.46, "1523.5"), (-0.01, "0.0"), (-12.0, "−12.0")],
)
def test_ratings_have_one_decimal(value: float, text: str) -> None:
    assert board._rating(value) == text


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_a_rating_that_is_not_finite_draws_a_dash(value: float) -> None:
    assert board._rating(value) == "—"
    check_jpeg(render_leaderboard([LeaderboardRow(1, "x", value, 0, 0)]))


@pytest.mark.parametrize("theme", theme_names())
def test_hostile_and_very_long_names_and_titles_never_fail(theme: str) -> None:
    title = "Рейтинг\n" + "🎲" * 5 + "\u2029" + "y" * 300
    image = check_jpeg(render_leaderboard(rows(12, [*HOSTILE, LONG]), title=title, theme=theme, labels=RU_TABLE_LABELS))
    assert body_rows(image, title=2) == 12  # a title too long for one line takes two
    plain = render_leaderboard_image(rows(3, ["a"]), theme=theme)
    assert render_leaderboard_image(rows(3, [LONG * 3]), theme=theme).size == plain.size  # cut, never wider


@pytest.mark.parametrize("theme", theme_names())
def test_the_first_place_is_highlighted(theme: str) -> None:
    image = render_leaderboard_image(rows(3), theme=theme)
    accent = get_theme(theme).accent
    top = MARGIN + HEADER_HEIGHT
    first = (MARGIN + 3, top + 3, MARGIN + 59, top + ROW_HEIGHT - 3)
    second = (MARGIN + 3, top + ROW_HEIGHT + 3, MARGIN + 59, top + 2 * ROW_HEIGHT - 3)
    assert share_near(image, first, accent, tolerance=8) > 0.6
    assert share_near(image, second, accent, tolerance=8) < 0.1


def test_unknown_theme_format_and_quality_are_refused() -> None:
    with pytest.raises(ValueError, match="theme"):
        render_leaderboard(rows(2), theme="neon")
    with pytest.raises(ValueError, match="format"):
        render_leaderboard(rows(2), fmt="gif")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        render_leaderboard(rows(2), quality=0)


@pytest.mark.parametrize("script", ["cyrillic", "cjk"])
@pytest.mark.parametrize("theme", theme_names())
def test_50_rows_stay_under_200_kb(theme: str, script: str) -> None:
    if script == "cjk":  # the densest names: every cell of the name column full of strokes
        names = ["王小明的超级长名字中国人名字很长很长很长"] * 50
    else:
        names = [f"{LONG} №{i + 1}" if i % 2 else f"Святослав Рождественский №{i + 1}" for i in range(50)]
    data = render_leaderboard(
        rows(50, names), title="Рейтинг чата «Длинные нарды»", labels=RU_TABLE_LABELS, theme=theme
    )
    assert body_rows(check_jpeg(data), title=1) == 50
    assert len(data) < 200 * 1024, f"{len(data) / 1024:.1f} KB"


GOLDENS: dict[str, Callable[[], bytes]] = {
    "classic_ru": lambda: render_leaderboard(rows(10), title="Рейтинг чата", labels=RU_TABLE_LABELS, fmt="png"),
    "dark_en_long_names": lambda: render_leaderboard(
        rows(7, [LONG, "Eve\nAdams", "x" * 300, "Анастасия", "Bob", "", "Ωmega Ёжиков"]),
        title="Chat rating — the longest title ever written for a leaderboard of this chat, cut to fit",
        theme="dark",
        fmt="png",
    ),
    "classic_en_untitled": lambda: render_leaderboard(rows(3, ["Alice", "Bob", "Carol"]), fmt="png"),
}


@pytest.mark.parametrize("name", list(GOLDENS))
def test_leaderboard_matches_golden(name: str) -> None:
    image = decode(GOLDENS[name]())
    path: Path = board_goldens.GOLDEN_DIR / f"leaderboard__{name}.png"
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


@pytest.mark.parametrize("count", [1, 10, 50])
def test_leaderboard_is_readable_at_preview_size(count: int) -> None:
    # the smallest text (the 14-px headers) keeps a cap height >= 7 px when the picture is shown 600 px wide
    image = decode(render_leaderboard(rows(count, [LONG]), title="Рейтинг чата", labels=RU_TABLE_LABELS))
    assert image.width <= 1280
    assert cap_height(HEADER_SIZE) * PREVIEW_WIDTH / image.width >= MIN_CAP_HEIGHT, image.size
