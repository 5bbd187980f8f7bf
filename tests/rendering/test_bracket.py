"""Elimination brackets as images: every node in its box with its players, winners highlighted, matches in play
outlined, 32 players under 200 KB, hostile names, and golden images (same mechanism and tolerance as the board
goldens, see test_render_golden)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import test_render_golden as board_goldens
from PIL import Image
from render_helpers import decode, share_near

from rendering import bracket, render_bracket, render_bracket_image, theme_names
from rendering.bracket import (
    ALBUM_SIZE,
    CHAMPION_SIZE,
    HEADER_SIZE,
    MAX_PAGE_WIDTH,
    NAME_SIZE,
    PAD,
    PAGE_NAME_WIDTH,
    SCORE_SIZE,
    SECTION_SIZE,
    SMALL_SIZE,
    BracketLabels,
    bracket_layout,
    bracket_pages,
    render_bracket_page_images,
    render_bracket_pages,
    round_key,
    winner_colour,
)
from rendering.standings import MIN_CAP_HEIGHT, PREVIEW_WIDTH, cap_height, title_height
from rendering.theme import get_theme
from tournaments import Elimination, Player, Result, double_elimination, forfeit, seeded, single_elimination

HOSTILE = ["Eve\nAdams\r\n\u2029x", "\u202eשלום עליכם\u202c", "👨\u200d👩\u200d👧 🎲🔥", "x" * 200, "\x1c\x1d", ""]
FIRST = ["Александр", "Екатерина", "Владимир", "Анастасия", "Константин", "Маргарита", "Святослав", "Елизавета"]
LAST = ["Преображенский", "Черноморская", "Рождественский", "Воскресенская", "Длинноименный-Оглы"]


def players(count: int) -> list[Player]:
    return [Player(f"p{i}", 1500.0 + 37 * ((i * 7) % count)) for i in range(count)]


def names_for(count: int) -> dict[str, str]:
    return {f"p{i}": f"Игрок {i}" if i % 2 else f"Player {i}" for i in range(count)}


def cyrillic(count: int) -> dict[str, str]:
    return {f"p{i}": f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}-Длинноименный №{i + 1}" for i in range(count)}


RU = BracketLabels(
    rounds={
        "W1": "Полуфинал верхней сетки",
        "W2": "Финал верхней сетки",
        "L1": "Нижняя сетка, тур 1",
        "L2": "Финал нижней сетки",
        "GF1": "Суперфинал",
        "GF2": "Решающий суперфинал",
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
)
"""The caller's words for a double elimination of 3 or 4 (the bot names the rounds so: bot.services)."""
RU8 = replace(
    RU,
    rounds={
        "W1": "1/4 финала верхней сетки",
        "W2": "Полуфинал верхней сетки",
        "W3": "Финал верхней сетки",
        "L1": "Нижняя сетка, тур 1",
        "L2": "Нижняя сетка, тур 2",
        "L3": "Нижняя сетка, тур 3",
        "L4": "Финал нижней сетки",
        "GF1": "Суперфинал",
        "GF2": "Решающий суперфинал",
    },
)
"""The same for a double elimination of 5 to 8."""
EN8 = BracketLabels(rounds={"W1": "Quarterfinal", "W2": "Semifinal", "W3": "Final"})


def ratings_of(state: Elimination) -> dict[str, float]:
    return {p.id: p.rating for p in state.players}


def favourite(state: Elimination) -> dict[str, int]:
    return {p.id: i for i, p in enumerate(seeded(state.players))}


def single_8_mid() -> Elimination:
    """A bracket of 8 for a field of 6 (two byes), mid-tournament: round 1 decided (a forfeit among the results),
    one semi-final decided, the other in play."""
    state = single_elimination(players(6))
    for n in range(3):
        match = state.playable()[0]
        if n == 1:
            state = state.record(forfeit(match, match.first))
        else:
            state = state.record(
                Result(match.id, match.second, 1, 3) if n == 2 else Result(match.id, match.first, 3, 1)
            )
    return state


def double_5_reset() -> Elimination:
    """A finished double elimination of 5: the favourite wins every match except GF1, so GF2 decides."""
    state = double_elimination(players(5))
    seed = favourite(state)
    while not state.is_over:
        match = state.playable()[0]
        if match.id == "GF1":
            state = state.record(Result(match.id, match.second, 2, 3))
            continue
        winner = min(match.first, match.second, key=seed.__getitem__)
        state = state.record(Result(match.id, winner, *((3, 1) if winner == match.first else (1, 3))))
    return state


def single_32(played: int) -> Elimination:
    state = single_elimination(players(32))
    for n in range(played):
        match = state.playable()[0]
        result = Result(match.id, match.second, 0, 3) if n % 3 == 0 else Result(match.id, match.first, 3, 1)
        state = state.record(result)
    return state


def play_out(state: Elimination, *, upset_final: bool = False, matches: int = 10_000) -> Elimination:
    """Play ``matches`` results (all, by default): the favourite wins, except GF1 when ``upset_final``; the scores
    vary (3–1, 1–3, a forfeit now and then)."""
    seed = favourite(state)
    for n in range(matches):
        if state.is_over:
            break
        match = state.playable()[n % len(state.playable())]
        winner = min(match.first, match.second, key=seed.__getitem__)
        if upset_final and match.id == "GF1":
            winner = match.second
        if n % 7 == 5:
            state = state.record(forfeit(match, match.opponent(winner)))
        else:
            state = state.record(Result(match.id, winner, *((3, 1) if winner == match.first else (1, 3))))
    return state


def check_jpeg(data: bytes) -> Image.Image:
    assert data[:3] == b"\xff\xd8\xff"
    image = decode(data)
    assert image.width >= 400 and image.height >= 100
    return image


def test_worked_examples_have_the_expected_structure() -> None:
    mid = single_8_mid()
    assert [b.player for b in mid.byes()] == ["p5", "p4"]  # seeds 1 and 2
    assert len(mid.bracket()) == 7 and {n.id for n in mid.bracket() if n.is_playable} == {"W2-2"}
    reset = double_5_reset()
    assert reset.is_over and [m.id for m, _ in reset.played()][-2:] == ["GF1", "GF2"]


@pytest.mark.parametrize(
    "state",
    [
        single_8_mid(),
        double_5_reset(),
        single_32(22),
        double_elimination(players(9)),
        single_elimination(players(2)),
        double_elimination(players(2)),
        double_elimination(players(3)).withdraw("p1"),
    ],
    ids=["single8", "double5", "single32", "double9", "single2", "double2", "double3_withdrawn"],
)
def test_every_known_match_is_drawn_with_its_players(state: Elimination) -> None:
    geo = bracket_layout(state, ratings=ratings_of(state), title="t")
    image = render_bracket_image(state, names_for(len(state.players)), ratings=ratings_of(state), title="t")
    assert image.size == (geo.width, geo.height)
    assert {b.node.id for b in geo.boxes} == {n.id for n in state.bracket()}
    boxes = [b.box for b in geo.boxes] + [geo.champion]
    for i, a in enumerate(boxes):  # inside the image and never overlapping
        assert 0 <= a[0] < a[2] <= geo.width and 0 <= a[1] < a[3] <= geo.height
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    felt = get_theme("classic").felt
    for match in state.matches():
        box = geo.box(match.id)
        assert box.node.players == (match.first, match.second)
        for side in (0, 1):
            left, top, right, bottom = box.name_box(side)
            text = share_near(image, (left + PAD, top + 4, right - PAD, bottom - 4), felt, tolerance=24)
            assert text < 0.97, f"{match.id} slot {side}: no name drawn"


@pytest.mark.parametrize("theme", theme_names())
def test_winners_are_highlighted_and_matches_in_play_outlined(theme: str) -> None:
    state = single_8_mid()
    image = decode(render_bracket(state, names_for(6), theme=theme, fmt="png"))
    geo = bracket_layout(state)
    highlight = winner_colour(theme)
    played = dict(state.played())
    for node in state.bracket():
        box = geo.box(node.id)
        for side, player in enumerate(node.players):
            left, top, right, bottom = box.name_box(side)
            edge = (right - PAD + 2, top + 4, right - 2, bottom - 4)  # right of the longest name: the bare fill
            lit = share_near(image, edge, highlight, tolerance=10) > 0.9
            winner = player is not None and player == node.winner
            assert lit == winner, f"{node.id} slot {side}"
        if node.id in played:
            assert node.winner == played[node.id].winner
    live = get_theme(theme).pending
    left, top, right, bottom = geo.box("W2-2").box
    assert share_near(image, (left, top + 8, left + 3, bottom - 8), live, tolerance=10) > 0.9
    left, top, right, bottom = geo.box("W2-1").box
    assert share_near(image, (left, top + 8, left + 3, bottom - 8), live, tolerance=10) < 0.1
    assert geo.legend is not None
    assert bracket_layout(double_5_reset()).legend is None


def test_labels_come_from_the_caller() -> None:
    state = play_out(double_elimination(players(4)), upset_final=True)
    assert [m.id for m, _ in state.played()][-1] == "GF2"
    ru = [label.text for label in bracket_layout(state, labels=RU).labels]
    assert ru[:3] == ["Верхняя сетка", "Полуфинал верхней сетки", "Финал верхней сетки"]
    assert {"Нижняя сетка", "Финал нижней сетки", "Суперфинал", "Решающий суперфинал", "Чемпион"} <= set(ru)
    paged = {label.text for page in bracket_pages(state, labels=RU) for label in page.labels}
    assert paged == set(ru)  # the grand final's section is RU.final, «Суперфинал»
    bare = [label.text for label in bracket_layout(state).labels]  # no words given: the keys, nothing invented
    assert {"W1", "W2", "L1", "L2", "GF1", "GF2"} <= set(bare)
    assert [round_key(n) for n in state.bracket()] == ["W1", "W1", "W2", "L1", "L2", "GF1", "GF2"]


@pytest.mark.parametrize("played", [22, 31])
@pytest.mark.parametrize("theme", theme_names())
def test_32_players_stay_under_200_kb(theme: str, played: int) -> None:
    state = single_32(played)
    data = render_bracket(state, cyrillic(32), ratings=ratings_of(state), theme=theme, title="Кубок чата")
    geo = bracket_layout(state, ratings=ratings_of(state), title="Кубок чата")
    assert check_jpeg(data).size == (geo.width, geo.height)
    assert len(data) < 200 * 1024, f"{len(data) / 1024:.1f} KB"


@pytest.mark.parametrize("theme", theme_names())
def test_hostile_names_and_titles_never_fail(theme: str) -> None:
    names = {f"p{i}": HOSTILE[i % len(HOSTILE)] for i in range(9)}
    title = "Кубок\n" + "🎲" * 5 + "\u2029" + "y" * 200
    for state in (single_elimination(players(9)), double_elimination(players(9)), single_8_mid()):
        check_jpeg(render_bracket(state, names, theme=theme, title=title))
    check_jpeg(render_bracket(single_8_mid(), {}))  # ids drawn as themselves


def test_unknown_theme_and_format_are_refused() -> None:
    with pytest.raises(ValueError, match="theme"):
        render_bracket(single_8_mid(), {}, theme="neon")
    with pytest.raises(ValueError, match="format"):
        render_bracket(single_8_mid(), {}, fmt="gif")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="quality"):
        render_bracket(single_8_mid(), {}, quality=0)


GOLDENS = {
    "single8_mid": lambda: render_bracket(
        single_8_mid(), names_for(6), ratings=ratings_of(single_8_mid()), labels=EN8, title="Cup", fmt="png"
    ),
    "double5_reset": lambda: render_bracket(
        double_5_reset(), names_for(5), theme="dark", labels=RU8, title="Двойное выбывание", fmt="png"
    ),
    "single32_cyrillic": lambda: render_bracket(
        single_32(22), cyrillic(32), ratings=ratings_of(single_32(0)), title="Кубок чата", fmt="png"
    ),
}


@pytest.mark.parametrize("name", list(GOLDENS))
def test_bracket_matches_golden(name: str) -> None:
    image = decode(GOLDENS[name]())
    path: Path = board_goldens.GOLDEN_DIR / f"bracket__{name}.png"
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


SMALLEST = min(SMALL_SIZE, HEADER_SIZE, NAME_SIZE, SCORE_SIZE, SECTION_SIZE, CHAMPION_SIZE)
PAGE_SIZES = (2, 3, 4, 5, 8, 12, 16, 24, 32, 64)


def page_states() -> list[tuple[str, Elimination]]:
    """Brackets of 2..64 players, single and double, fresh, half played and finished (double: with a reset)."""
    out = []
    for count in PAGE_SIZES:
        for kind, make in (("single", single_elimination), ("double", double_elimination)):
            fresh = make(players(count))
            out.append((f"{kind}{count}_fresh", fresh))
            out.append((f"{kind}{count}_half", play_out(fresh, matches=count)))
            out.append((f"{kind}{count}_done", play_out(fresh, upset_final=True)))
    return out


@pytest.mark.parametrize(("label", "state"), page_states(), ids=[name for name, _ in page_states()])
def test_pages_are_readable_and_hold_every_node_once(label: str, state: Elimination) -> None:
    # every bracket picture at most 1,280 px wide (here 830) and readable at a 600-px preview: the smallest
    # text's cap height is >= 7 px when the picture is scaled to 600 px wide
    pages = bracket_pages(state, labels=RU, title="Кубок чата")
    assert 1 <= len(pages) <= (ALBUM_SIZE if len(state.players) <= 32 else 2 * ALBUM_SIZE)
    seen = [b.node.id for page in pages for b in page.boxes]
    assert sorted(seen) == sorted(n.id for n in state.bracket())  # each node on exactly one page
    assert [page.champion is not None for page in pages].count(True) == 1 and pages[-1].champion is not None
    for page in pages:
        assert page.width <= MAX_PAGE_WIDTH and cap_height(SMALLEST) * PREVIEW_WIDTH / page.width >= MIN_CAP_HEIGHT
        assert page.height <= 1000  # no strip too tall to show either
        boxes = [b.box for b in page.boxes] + ([page.champion] if page.champion else [])
        for i, a in enumerate(boxes):  # inside the page and never overlapping
            assert 0 <= a[0] < a[2] <= page.width and 0 <= a[1] < a[3] <= page.height
            for b in boxes[i + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    images = [decode(data) for data in render_bracket_pages(state, names_for(len(state.players)), title="Кубок")]
    assert [image.size for image in images] == [
        (p.width, p.height) for p in bracket_pages(state, labels=None, title="Кубок")
    ]


def test_double_16_pages_show_each_match_with_its_players() -> None:
    state = play_out(double_elimination(players(16)), matches=20)
    pages = bracket_pages(state, labels=RU, title="t")
    images = render_bracket_page_images(state, names_for(16), labels=RU, title="t")
    assert len(pages) == len(images) == 5
    sections = [next(label.text for label in page.labels if label.size == SECTION_SIZE) for page in pages]
    assert sections == ["Верхняя сетка"] * 2 + ["Нижняя сетка"] * 3
    felt = get_theme("classic").felt
    drawn = 0
    for page, image in zip(pages, images, strict=True):
        assert image.size == (page.width, page.height)
        for match_box in page.boxes:
            for side, player in enumerate(match_box.node.players):
                if player is None:
                    continue
                left, top, right, bottom = match_box.name_box(side)
                assert share_near(image, (left + PAD, top + 4, right - PAD, bottom - 4), felt, tolerance=24) < 0.97
                drawn += 1
    assert drawn == sum(1 for n in state.bracket() for p in n.players if p is not None)


def test_pages_use_their_width_for_names() -> None:
    """A page of one or two rounds widens its names to fill the 830 px of a page of three (170 px names)."""
    assert bracket.page_name_width(3) == PAGE_NAME_WIDTH == 170
    assert bracket.page_name_width(2) == bracket.page_name_width(1) == bracket.MAX_PAGE_NAME_WIDTH > 290
    state = play_out(double_elimination(players(16)), matches=20)
    for page in bracket_pages(state, labels=RU, title="t"):
        columns = len({b.box[0] for b in page.boxes})
        assert page.width <= bracket.PAGE_WIDTH and {b.name_width for b in page.boxes if b.score_width == 34} == {
            bracket.page_name_width(columns)
        }
        if columns < 3:
            assert page.width >= bracket.PAGE_WIDTH - 10


def test_double_elimination_pages_number_matches_and_name_the_grand_final() -> None:
    state = play_out(double_elimination(players(16)), matches=8)  # the winners' first round played
    numbers = bracket.match_numbers(state)
    assert sorted(numbers.values()) == list(range(1, 31)) and numbers["W1-1"] == 1 and numbers["GF1"] == 30
    assert bracket.match_numbers(single_elimination(players(16))) == {}
    pages = bracket_pages(state, labels=RU, title="t")
    for page in pages:
        shown = {label.text for label in page.numbers}
        assert shown == {RU.number(numbers[b.node.id]) for b in page.boxes}
        for label, match_box in zip(page.numbers, page.boxes, strict=True):  # each just above its box
            assert label.box[3] == match_box.box[1] and label.box[0] == match_box.box[0]
    last = pages[-1]
    sections = [label for label in last.labels if label.size == SECTION_SIZE]
    assert [s.text for s in sections] == ["Нижняя сетка", "Суперфинал"]
    final_box = last.box("GF1").box
    assert sections[1].box[0] == final_box[0] and sections[0].box[2] < final_box[0]  # over the grand final only
    # a losers' slot waiting for a winners' match's loser says whose: more ink than a bare "—"
    images = render_bracket_page_images(state, names_for(16), labels=RU, title="t")
    felt = get_theme("classic").felt
    at = next(n for n, p in enumerate(pages) if any(b.node.id == "L2-1" for b in p.boxes))
    page, image = pages[at], images[at]
    waiting = page.box("L2-1")
    assert waiting.node.players[0] is None and waiting.node.sources[0].kind == "loser"
    left, top, right, bottom = waiting.name_box(0)
    labelled = share_near(image, (left + PAD, top + 4, right - PAD, bottom - 4), felt, tolerance=40)
    bare = render_bracket_page_images(state, names_for(16), labels=replace(RU, loser_of="—"), title="t")[at]
    plain = share_near(bare, (left + PAD, top + 4, right - PAD, bottom - 4), felt, tolerance=40)
    assert labelled < plain - 0.02, (labelled, plain)


def test_a_forfeit_says_so_on_the_pages() -> None:
    state = single_8_mid()  # W1-3 (the second match played) was lost by forfeit
    (page,) = bracket_pages(state, labels=RU)
    node = next(b for b in page.boxes if b.node.result is not None and b.node.result.forfeit)
    assert node.score_width > bracket.SCORE_WIDTH and node.score_width >= bracket.measure("неявка", SMALL_SIZE)
    (image,) = render_bracket_page_images(state, names_for(6), labels=RU)
    loser = 0 if node.node.players[0] != node.node.winner else 1
    box = node.score_box(loser)
    strip = get_theme("classic").strip
    assert share_near(image, (box[0] + 2, box[1] + 2, box[0] + 8, box[3] - 2), strip, 12) > 0.9


@pytest.mark.parametrize(
    "title",
    [
        "Турнир: голландский триктрак, до двух поражений",
        "Tournament: misère (backgammon to lose), double elimination",
        "Турнир: длинные нарды, олимпийская система",
    ],
)
def test_page_titles_are_never_cut(title: str) -> None:
    for state in (play_out(double_elimination(players(16)), matches=8), single_elimination(players(2))):
        for page in bracket_pages(state, labels=RU, title=title):
            assert page.title is not None and 1 <= len(page.title_lines) <= 2
            assert "…" not in "".join(page.title_lines) and " ".join(page.title_lines) == title
            assert page.title[3] - page.title[1] == title_height(len(page.title_lines))
