"""An elimination tournament as its bracket with results, single and double elimination.

Pure functions from a :class:`tournaments.Elimination` to encoded images (JPEG by default): :func:`render_bracket_pages`
gives the pictures a chat gets (pages readable at a phone's 600-px preview: at most three rounds and eight first-column
boxes each, at most 830 px wide; :func:`bracket_pages` lays them out), :func:`render_bracket` the whole bracket on one
picture. Every word (round headers, sections, champion, bye, in play, forfeit, "Loser of M3") comes from the caller
(:class:`BracketLabels`).
The bracket is drawn from :meth:`tournaments.Elimination.bracket`, future nodes included: rounds are columns left to
right, each node a box of two slots (seed number, name, rating if given, the match score), the winner highlighted,
byes marked, slots still to come shown as ``—``, matches in play outlined; connector lines lead each winner to the
next round. On one picture the champion stands at the right, and double elimination draws the winners' bracket on top,
the losers' bracket below and the grand final (``GF1``, and ``GF2`` once it is needed) between them, to the right; on
pages the champion stands under the last match.

Names, fonts, the title and the theme colours are those of the standings tables (:mod:`rendering.standings`), so a
name is cleaned and shortened exactly as there. Tests use :func:`bracket_layout` (and :class:`BracketLayout`) to find
every node's box.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from rendering import sprites
from rendering.encode import ImageFormat, check_format, encode
from rendering.fonts import fit_text, font
from rendering.layout import Box
from rendering.names import PLACEHOLDER, name_sprite
from rendering.standings import (
    MARGIN,
    PAD,
    TITLE_LINE,
    TITLE_SIZE,
    _contrast,
    _paste,
    draw_lines,
    title_height,
    title_lines,
)
from rendering.text_layout import measure
from rendering.theme import RGB, Theme, get_theme
from tournaments.elimination import BracketNode, Elimination
from tournaments.model import Result, seeded

QUALITY: Final = 70
"""The default JPEG quality of a bracket, below the standings' 85 and the leaderboard's 75: a finished 32-player
single elimination of long names with ratings is about 240 KB at 85, 200 KB at 75 and 190 KB at 70, under the 200 KB
a chat image should stay within; its flat boxes and text look the same."""

ROW_HEIGHT: Final = 28
"""The height of one slot (a player's line) of a match box; a box is two slots."""
BOX_HEIGHT: Final = 2 * ROW_HEIGHT
GAP: Final = 14
"""The vertical space between two boxes of the first round."""
PITCH: Final = BOX_HEIGHT + GAP
SEED_WIDTH: Final = 30
NAME_WIDTH: Final = 200
RATING_WIDTH: Final = 48
SCORE_WIDTH: Final = 34
LINK_WIDTH: Final = 36
"""The horizontal space between two columns, where the connector lines run."""
HEADER_HEIGHT: Final = 30
SECTION_HEIGHT: Final = 34
SECTION_GAP: Final = 18
CHAMPION_WIDTH: Final = 230
CHAMPION_HEIGHT: Final = 40
LEGEND_HEIGHT: Final = 32
NAME_SIZE: Final = 16
SMALL_SIZE: Final = 14
SCORE_SIZE: Final = 16
HEADER_SIZE: Final = 15
SECTION_SIZE: Final = 18
CHAMPION_SIZE: Final = 18
LINE: Final = 2
"""The width of the connector lines and of a match-in-play's outline (doubled)."""

PAGE_COLUMNS: Final = 3
"""The most rounds (columns) one page of :func:`bracket_pages` holds."""
PAGE_BOXES: Final = 8
"""The most boxes of a page's first column; a longer round is split over pages (each its own part of the bracket)."""
PAGE_NAME_WIDTH: Final = 170
"""The width of a name in a box of a page of three rounds (pages draw no rating column), so that it stays 830 px
wide; a page of fewer rounds widens its names to the same width (:func:`page_name_width`)."""
PAGE_WIDTH: Final = 830
"""The width a page of three rounds takes, and that a page of fewer rounds fills with wider names."""
MAX_PAGE_NAME_WIDTH: Final = 300
"""The widest name box of a page (one or two rounds)."""
MIN_PAGE_WIDTH: Final = 600
"""The narrowest page (a final alone): room for a two-line title."""
NUMBER_BAND: Final = 18
"""The band above a box of a double elimination's page that holds its match number ("M3")."""
MAX_PAGE_WIDTH: Final = 1280
"""No page of :func:`bracket_pages` is wider."""
ALBUM_SIZE: Final = 10
"""The most pictures Telegram puts into one album (``sendMediaGroup``)."""


@dataclass(frozen=True, slots=True)
class BracketLabels:
    """The words of a bracket picture, given by the caller in its language (the renderer has none of its own but
    these plain English defaults, for tests and the gallery).

    ``rounds`` maps a round's key to its header: ``"W1"``, ``"W2"``, ... the rounds of a single elimination or of the
    winners' bracket, ``"L1"``, ... the losers' rounds, ``"GF1"`` and ``"GF2"`` the grand final and its deciding
    match (:func:`round_key`); a key it lacks is shown as itself.
    """

    rounds: Mapping[str, str] = field(default_factory=dict)
    winners: str = "Winners' bracket"
    losers: str = "Losers' bracket"
    final: str = "Grand final"
    """The section of a page holding the grand final (and its deciding match) and the champion."""
    champion: str = "Champion"
    bye: str = "bye"
    in_play: str = "in play"
    forfeit: str = "forfeit"
    """The score of the player who lost a match by forfeit (the winner's is "+")."""
    match_number: str = "M{number}"
    """A match's number on a double elimination's page (``{number}``), as the "loser of" slots name it."""
    loser_of: str = "Loser of {match}"
    """A losers' bracket slot still waiting for the loser of a winners' match (``{match}``: its number)."""
    winner_of: str = "Winner of {match}"
    """A slot still waiting for the winner of a match drawn on another page (``{match}``: its number)."""

    def number(self, number: int) -> str:
        """Return match ``number`` as shown ("M3")."""
        return self.match_number.replace("{number}", str(number))

    def loser(self, number: int) -> str:
        """Return the placeholder of a slot waiting for the loser of match ``number`` ("Loser of M3")."""
        return self.loser_of.replace("{match}", self.number(number))

    def winner(self, number: int) -> str:
        """Return the placeholder of a slot waiting for the winner of match ``number`` on another page."""
        return self.winner_of.replace("{match}", self.number(number))

    def round_name(self, node: BracketNode) -> str:
        """Return the header of the round of ``node``."""
        key = round_key(node)
        return self.rounds.get(key, key)


def round_key(node: BracketNode) -> str:
    """Return the key of the round of ``node`` in :attr:`BracketLabels.rounds`: ``"W<round>"``, ``"L<round>"``, or
    the grand final's id (``"GF1"``, ``"GF2"``)."""
    if node.bracket == "final":
        return node.id
    return f"{'L' if node.bracket == 'losers' else 'W'}{node.round}"


_name = lru_cache(maxsize=1024)(name_sprite)
""":func:`rendering.names.name_sprite`, cached: a player's name is drawn in every round they reach, on every render."""


@dataclass(frozen=True, slots=True)
class MatchBox:
    """One node of the bracket and where its box is: two slots one above the other (``players[0]`` on top)."""

    node: BracketNode
    box: Box
    rating: bool
    """Whether the slots have a rating column."""
    name_width: int = NAME_WIDTH
    score_width: int = SCORE_WIDTH
    """The width of the score column (wider for a forfeit's word, the name narrower by as much)."""

    def slot_box(self, side: int) -> Box:
        """Return the box of slot ``side`` (0 = top, 1 = bottom)."""
        left, top, right, _ = self.box
        return (left, top + side * ROW_HEIGHT, right, top + (side + 1) * ROW_HEIGHT)

    def name_box(self, side: int) -> Box:
        """Return the box of the name in slot ``side`` (after the seed number)."""
        left, top, _, bottom = self.slot_box(side)
        return (left + SEED_WIDTH, top, left + SEED_WIDTH + self.name_width, bottom)

    def score_box(self, side: int) -> Box:
        """Return the box of the score of slot ``side`` (at the right end)."""
        _, top, right, bottom = self.slot_box(side)
        return (right - self.score_width, top, right, bottom)

    def rating_box(self, side: int) -> Box | None:
        """Return the box of the rating of slot ``side``, None without ratings."""
        if not self.rating:
            return None
        _, top, right, bottom = self.slot_box(side)
        return (right - SCORE_WIDTH - RATING_WIDTH, top, right - SCORE_WIDTH, bottom)


@dataclass(frozen=True, slots=True)
class Label:
    """A line of text of the bracket (a section, a round header, the champion's header) and its box."""

    text: str
    box: Box
    size: int


Point = tuple[int, int]


@dataclass(frozen=True, slots=True)
class BracketLayout:
    """Every measure of a bracket image: its size, each node's box, the labels, the connector lines."""

    width: int
    height: int
    boxes: tuple[MatchBox, ...]
    labels: tuple[Label, ...]
    links: tuple[tuple[Point, ...], ...]
    """Connector polylines, each from a box's right edge to a slot of the box of the next round."""
    champion: Box | None
    """The champion's box (None on a page without the last match)."""
    title: Box | None
    legend: Box | None
    """Where the "in play" key is drawn (only when some match is playable)."""
    numbers: tuple[Label, ...] = ()
    """The match numbers above the boxes (a double elimination's pages: :func:`match_numbers`)."""
    title_lines: tuple[str, ...] = ()
    """The title's lines (one, or two when it does not fit in one: :func:`rendering.standings.title_lines`)."""

    def box(self, node_id: str) -> MatchBox:
        """Return the box of the node ``node_id`` (``"W1-2"``, ``"L3-1"``, ``"GF1"``). Raises KeyError if none."""
        for match_box in self.boxes:
            if match_box.node.id == node_id:
                return match_box
        raise KeyError(node_id)


def _box_width(rating: bool) -> int:
    return SEED_WIDTH + NAME_WIDTH + (RATING_WIDTH if rating else 0) + SCORE_WIDTH


def _column_centres(rounds: Sequence[Sequence[BracketNode]], top: int) -> dict[str, int]:
    """Return the centre y of every node of one bracket: the first round stacked at :data:`PITCH`, each later node
    between its two feeders, or level with its one feeder from the same bracket (the losers' even rounds)."""
    centres: dict[str, int] = {}
    previous: list[int] = []
    for r, nodes in enumerate(rounds):
        if r == 0:
            current = [top + i * PITCH + BOX_HEIGHT // 2 for i in range(len(nodes))]
        elif len(nodes) == len(previous):
            current = list(previous)
        else:
            current = [(previous[2 * i] + previous[2 * i + 1]) // 2 for i in range(len(nodes))]
        for node, y in zip(nodes, current, strict=True):
            centres[node.id] = y
        previous = current
    return centres


def _by_round(nodes: Sequence[BracketNode], bracket: str) -> list[list[BracketNode]]:
    rounds: dict[int, list[BracketNode]] = {}
    for node in nodes:
        if node.bracket == bracket:
            rounds.setdefault(node.round, []).append(node)
    return [sorted(rounds[r], key=lambda n: n.index) for r in sorted(rounds)]


def _elbow(start: Point, end: Point) -> tuple[Point, ...]:
    middle = end[0] - LINK_WIDTH // 2
    return (start, (middle, start[1]), (middle, end[1]), end)


def bracket_layout(
    tournament: Elimination,
    *,
    ratings: Mapping[str, float] | None = None,
    labels: BracketLabels | None = None,
    title: str | None = None,
) -> BracketLayout:
    """Return the layout of the whole bracket on one image (see :func:`render_bracket`): a box for every node of
    :meth:`tournaments.Elimination.bracket`, each known match's players in its slots."""
    labels = labels or BracketLabels()
    nodes = tournament.bracket()
    rating = ratings is not None
    box_width = _box_width(rating)
    column = box_width + LINK_WIDTH
    winners = _by_round(nodes, "winners")
    losers = _by_round(nodes, "losers")
    finals = _by_round(nodes, "final")
    double = tournament.double
    finals_count = sum(len(round_nodes) for round_nodes in finals)
    last_column = max(len(winners), len(losers)) + finals_count - 1 if finals else len(winners) - 1
    full_width = 2 * MARGIN + last_column * column + box_width + LINK_WIDTH + CHAMPION_WIDTH
    lines = title_lines(title, full_width - 2 * MARGIN - 2 * PAD) if title is not None else ()
    top = MARGIN + (title_height(len(lines)) if title is not None else 0)
    texts: list[Label] = []

    def headers(rounds: Sequence[Sequence[BracketNode]], y: int) -> None:
        for r in range(len(rounds)):
            x = MARGIN + r * column
            name = labels.round_name(rounds[r][0])
            texts.append(Label(name, (x, y, x + box_width, y + HEADER_HEIGHT), HEADER_SIZE))

    y = top
    if double:
        texts.append(Label(labels.winners, (MARGIN, y, MARGIN + 2 * box_width, y + SECTION_HEIGHT), SECTION_SIZE))
        y += SECTION_HEIGHT
    headers(winners, y)
    y += HEADER_HEIGHT
    centres = _column_centres(winners, y)
    y += len(winners[0]) * PITCH - GAP
    if losers:
        y += SECTION_GAP
        texts.append(Label(labels.losers, (MARGIN, y, MARGIN + 2 * box_width, y + SECTION_HEIGHT), SECTION_SIZE))
        y += SECTION_HEIGHT
        headers(losers, y)
        y += HEADER_HEIGHT
        centres |= _column_centres(losers, y)
        y += len(losers[0]) * PITCH - GAP
    bottom = y
    columns = {n.id: r for r, round_nodes in enumerate(winners) for n in round_nodes}
    columns |= {n.id: r for r, round_nodes in enumerate(losers) for n in round_nodes}
    final_column = max(len(winners), len(losers))
    wb_final = winners[-1][0]
    if finals:
        lb_final_y = centres[losers[-1][0].id] if losers else centres[wb_final.id] + PITCH
        gf_y = (centres[wb_final.id] + lb_final_y) // 2
        gf_nodes = [n for round_nodes in finals for n in round_nodes]
        for i, node in enumerate(gf_nodes):
            columns[node.id] = final_column + i
            centres[node.id] = gf_y
            x = MARGIN + (final_column + i) * column
            name = labels.round_name(node)
            box_top = gf_y - BOX_HEIGHT // 2
            texts.append(Label(name, (x, box_top - HEADER_HEIGHT, x + box_width, box_top), HEADER_SIZE))
        last = gf_nodes[-1]
    else:
        last = wb_final
    boxes: list[MatchBox] = []
    for node in nodes:
        x = MARGIN + columns[node.id] * column
        centre = centres[node.id]
        boxes.append(MatchBox(node, (x, centre - BOX_HEIGHT // 2, x + box_width, centre + BOX_HEIGHT // 2), rating))
    by_id = {b.node.id: b for b in boxes}
    links: list[tuple[Point, ...]] = []
    for match_box in boxes:
        for side, source in enumerate(match_box.node.sources):
            feeder = by_id.get(source.ref) if source.kind == "winner" else None
            if feeder is None or feeder.node.empty == (True, True):  # nobody comes from a node nobody reaches
                continue
            start = (feeder.box[2], (feeder.box[1] + feeder.box[3]) // 2)
            slot = match_box.slot_box(side)
            links.append(_elbow(start, (slot[0], (slot[1] + slot[3]) // 2)))
    champion_x = by_id[last.id].box[2] + LINK_WIDTH
    champion_y = centres[last.id]
    champion = (
        champion_x,
        champion_y - CHAMPION_HEIGHT // 2,
        champion_x + CHAMPION_WIDTH,
        champion_y + CHAMPION_HEIGHT // 2,
    )
    links.append(_elbow((by_id[last.id].box[2], champion_y), (champion_x, champion_y)))
    texts.append(
        Label(
            labels.champion,
            (champion_x, champion[1] - HEADER_HEIGHT, champion[2], champion[1]),
            HEADER_SIZE,
        )
    )
    width = champion[2] + MARGIN
    legend = None
    if tournament.playable():
        legend = (MARGIN, bottom + GAP, width - MARGIN, bottom + GAP + LEGEND_HEIGHT)
        bottom = legend[3]
    height = max(bottom, champion[3], *(b.box[3] for b in boxes)) + MARGIN
    title_box = (MARGIN, MARGIN, width - MARGIN, top) if title is not None else None
    return BracketLayout(
        width, height, tuple(boxes), tuple(texts), tuple(links), champion, title_box, legend, title_lines=lines
    )


def _mix(colour: RGB, other: RGB, amount: float) -> RGB:
    r, g, b = (round(c + (o - c) * amount) for c, o in zip(colour, other, strict=True))
    return (r, g, b)


@dataclass(frozen=True, slots=True)
class _Palette:
    """The colours of a bracket in one theme."""

    background: RGB
    box: RGB
    seed: RGB
    text: RGB
    muted: RGB
    winner: RGB
    border: RGB
    divider: RGB
    score: RGB
    score_text: RGB
    empty: RGB
    line: RGB
    heading: RGB
    live: RGB
    accent: RGB


def winner_colour(theme: str) -> RGB:
    """Return the fill of a decided match's winner's slot (and of a bye's player's) in ``theme``."""
    return _palette(get_theme(theme)).winner


def _palette(theme: Theme) -> _Palette:
    return _Palette(
        background=theme.frame,
        box=theme.felt,
        seed=theme.felt_edge,
        text=theme.felt_text,
        muted=_mix(theme.felt_text, theme.felt, 0.45),
        winner=_mix(theme.felt, theme.accent, 0.55),
        border=theme.frame_dark,
        divider=theme.felt_edge,
        score=theme.strip,
        score_text=theme.strip_text,
        empty=_mix(theme.frame, theme.felt, 0.25),
        line=theme.number,
        heading=theme.number,
        live=theme.pending,
        accent=theme.accent,
    )


def _score_marks(node: BracketNode, forfeit: str = "−") -> tuple[str, str]:
    """Return the two slots' scores: game points, or for a forfeit "+" and the word ``forfeit`` (the loser's)."""
    result: Result | None = node.result
    if result is None:
        return "", ""
    if result.forfeit:
        first_won = result.winner == node.players[0]
        return ("+", forfeit) if first_won else (forfeit, "+")
    if result.first_points == 0 and result.second_points == 0:
        return "", ""
    return str(result.first_points), str(result.second_points)


def _draw_slot(
    canvas: Image.Image,
    match_box: MatchBox,
    side: int,
    names: Mapping[str, str],
    ratings: Mapping[str, float] | None,
    seeds: Mapping[str, int],
    colours: _Palette,
    bye_label: str,
    score: str,
    waiting: str = PLACEHOLDER,
) -> None:
    node = match_box.node
    player = node.players[side]
    draw = ImageDraw.Draw(canvas)
    slot = match_box.slot_box(side)
    won = player is not None and node.winner == player and (node.result is not None or node.is_bye)
    lost = player is not None and node.result is not None and node.winner != player
    fill = colours.winner if won else colours.box
    draw.rectangle((slot[0], slot[1], slot[2] - 1, slot[3] - 1), fill=fill)
    seed_box = (slot[0], slot[1], slot[0] + SEED_WIDTH, slot[3])
    draw.rectangle((seed_box[0], seed_box[1], seed_box[2] - 1, seed_box[3] - 1), fill=colours.seed)
    text = _contrast(fill) if won else colours.muted if lost else colours.text
    name_box = match_box.name_box(side)
    if player is None:
        shown = bye_label if node.empty[side] else waiting
        _paste(canvas, _name(shown, SMALL_SIZE, match_box.name_width - 2 * PAD, colours.muted), name_box, "left")
        return
    _paste(canvas, sprites.text(str(seeds.get(player, "")), SMALL_SIZE, colours.text), seed_box, "center")
    sprite = _name(names.get(player, player), NAME_SIZE, match_box.name_width - 2 * PAD, text)
    _paste(canvas, sprite, name_box, "left")
    rating_box = match_box.rating_box(side)
    if rating_box is not None and ratings is not None and player in ratings:
        _paste(canvas, sprites.text(str(round(ratings[player])), SMALL_SIZE, text), rating_box, "center")
    if score:
        box = match_box.score_box(side)
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=colours.score)
        size = SCORE_SIZE if len(score) <= 3 else SMALL_SIZE  # a word (a forfeit) in the small size
        _paste(canvas, sprites.text(score, size, colours.score_text, bold=won), box, "center")


def _draw_box(
    canvas: Image.Image,
    match_box: MatchBox,
    names: Mapping[str, str],
    ratings: Mapping[str, float] | None,
    seeds: Mapping[str, int],
    colours: _Palette,
    labels: BracketLabels,
    numbers: Mapping[str, int] | None = None,
    on_page: frozenset[str] = frozenset(),
) -> None:
    node = match_box.node
    draw = ImageDraw.Draw(canvas)
    left, top, right, bottom = match_box.box
    if node.empty == (True, True):  # nobody ever reaches this node: a faint empty box
        draw.rectangle((left, top, right - 1, bottom - 1), fill=colours.empty, outline=colours.border)
        return
    marks = _score_marks(node, labels.forfeit if numbers is not None else "−")
    for side in (0, 1):
        source = node.sources[side]
        waiting = PLACEHOLDER
        if numbers is not None and source.kind == "loser" and source.ref in numbers:
            waiting = labels.loser(numbers[source.ref])
        elif numbers is not None and source.kind == "winner" and source.ref in numbers and source.ref not in on_page:
            waiting = labels.winner(numbers[source.ref])
        _draw_slot(canvas, match_box, side, names, ratings, seeds, colours, labels.bye, marks[side], waiting)
    draw.line((left, top + ROW_HEIGHT, right - 1, top + ROW_HEIGHT), fill=colours.divider)
    if node.is_playable:
        draw.rectangle((left, top, right - 1, bottom - 1), outline=colours.live, width=2 * LINE)
    else:
        draw.rectangle((left, top, right - 1, bottom - 1), outline=colours.border)


def _draw(
    geo: BracketLayout,
    tournament: Elimination,
    names: Mapping[str, str],
    ratings: Mapping[str, float] | None,
    theme: str,
    labels: BracketLabels,
    title: str | None,
    numbers: Mapping[str, int] | None = None,
) -> Image.Image:
    """Draw one bracket layout (the whole bracket or one page; ``numbers``: the match numbers a page shows, which
    its "loser of" slots name)."""
    colours = _palette(get_theme(theme))
    canvas = Image.new("RGB", (geo.width, geo.height), colours.background)
    draw = ImageDraw.Draw(canvas)
    if geo.title is not None and title is not None:
        draw_lines(canvas, geo.title_lines, geo.title, TITLE_SIZE, TITLE_LINE, colours.heading, bold=True)
    for label in geo.numbers:
        sprite = sprites.text(label.text, label.size, colours.heading)
        _paste(canvas, sprite, (label.box[0] - PAD, label.box[1], label.box[2], label.box[3]), "left")
    for label in geo.labels:  # on a common baseline (not centred as cropped), so a row of headers lines up
        face = font(label.size, bold=True)
        room = label.box[2] - label.box[0] + LINK_WIDTH - 2 * LINE
        shown = fit_text(label.text, label.size, room, bold=True)
        draw.text(
            (label.box[0], (label.box[1] + label.box[3]) // 2), shown, font=face, fill=colours.heading, anchor="lm"
        )
    for link in geo.links:
        draw.line(link, fill=colours.line, width=LINE)
    seeds = {p.id: i + 1 for i, p in enumerate(seeded(tournament.players))}
    on_page = frozenset(b.node.id for b in geo.boxes)
    for match_box in geo.boxes:
        _draw_box(canvas, match_box, names, ratings, seeds, colours, labels, numbers, on_page)
    if geo.champion is not None:
        left, top, right, bottom = geo.champion
        champion = tournament.champion
        fill = colours.accent if champion is not None else colours.box
        draw.rectangle((left, top, right - 1, bottom - 1), fill=fill, outline=colours.border)
        if champion is None:
            _paste(canvas, sprites.text(PLACEHOLDER, SMALL_SIZE, colours.muted), geo.champion, "left")
        else:
            width = right - left - 2 * PAD
            sprite = _name(names.get(champion, champion), CHAMPION_SIZE, width, _contrast(fill))
            _paste(canvas, sprite, geo.champion, "left")
    if geo.legend is not None:
        x, y0, x1, y1 = geo.legend
        mid = (y0 + y1) // 2
        draw.rectangle((x, mid - 9, x + 34, mid + 9), fill=colours.box, outline=colours.live, width=2 * LINE)
        _paste(canvas, sprites.text(labels.in_play, HEADER_SIZE, colours.heading), (x + 34, y0, x1, y1), "left")
    return canvas


def render_bracket_image(
    tournament: Elimination,
    names: Mapping[str, str],
    *,
    ratings: Mapping[str, float] | None = None,
    theme: str = "classic",
    labels: BracketLabels | None = None,
    title: str | None = None,
) -> Image.Image:
    """Return the whole bracket on one RGB image; see :func:`render_bracket`."""
    labels = labels or BracketLabels()
    geo = bracket_layout(tournament, ratings=ratings, labels=labels, title=title)
    return _draw(geo, tournament, names, ratings, theme, labels, title)


def render_bracket(
    tournament: Elimination,
    names: Mapping[str, str],
    *,
    ratings: Mapping[str, float] | None = None,
    theme: str = "classic",
    labels: BracketLabels | None = None,
    title: str | None = None,
    fmt: ImageFormat = "jpeg",
    quality: int = QUALITY,
) -> bytes:
    """Return the whole bracket of an elimination (single or double) with its results on one JPEG (default) or PNG.

    Too wide to read in a chat from 8 players on (1,294 px): a chat gets :func:`render_bracket_pages`. Every node
    of :meth:`tournaments.Elimination.bracket` is a box of two slots: the seed number, the name (``names``
    maps player ids to display names, cleaned and shortened as in the standings; a missing id is drawn as itself),
    the rating when ``ratings`` (player id -> rating) is given, and the score of a decided match (game points, ``+`` /
    ``−`` for a forfeit won / lost) with the winner highlighted. A bye shows its player and the ``bye`` label, a slot
    still to come ``—``; matches in play are outlined (a key below says so). Rounds are columns left to right, headed
    by ``labels`` (:class:`BracketLabels`, the caller's words), connector lines lead each winner on, the champion
    stands at the right. Double elimination: the winners' bracket on top, the losers' bracket below, the grand final
    (and its second match once needed) at the right. ``theme`` is ``"classic"`` or ``"dark"``, ``title`` an optional
    line above; ``quality`` the JPEG quality (default :data:`QUALITY`).

    Raises:
        ValueError: unknown theme or format, or a JPEG quality outside 1..95.
    """
    fmt = check_format(fmt)
    image = render_bracket_image(tournament, names, ratings=ratings, theme=theme, labels=labels, title=title)
    return encode(image, fmt, quality=quality)


def _bands(count: int) -> list[int]:
    """Return how many columns each page's band takes: as even as possible, at most :data:`PAGE_COLUMNS`."""
    bands = -(-count // PAGE_COLUMNS)
    base, extra = divmod(count, bands)
    return [base + (1 if i < extra else 0) for i in range(bands)]


def page_name_width(columns: int) -> int:
    """Return the width of a name in the boxes of a page of ``columns`` rounds: what fills :data:`PAGE_WIDTH` (170 px
    for three rounds), at most :data:`MAX_PAGE_NAME_WIDTH`."""
    room = (PAGE_WIDTH - 2 * MARGIN) // max(1, columns) - SEED_WIDTH - SCORE_WIDTH - LINK_WIDTH
    return max(PAGE_NAME_WIDTH, min(MAX_PAGE_NAME_WIDTH, room))


def match_numbers(tournament: Elimination) -> dict[str, int]:
    """Return the number of every node of a double elimination that is or will be a match (both slots to be filled),
    1, 2, ... in bracket order (the winners' rounds, the losers', the grand final): fixed from the draw on, so a
    losers' slot can say whose loser it waits for ("Loser of M3"). Empty for a single elimination, whose slots
    wait only for winners (their lines show whose)."""
    if not tournament.double:
        return {}
    numbered = [node.id for node in tournament.bracket() if not any(node.empty)]
    return {node_id: i + 1 for i, node_id in enumerate(numbered)}


def _forfeit_width(labels: BracketLabels) -> int:
    return max(SCORE_WIDTH, math.ceil(measure(labels.forfeit, SMALL_SIZE)) + 2 * (PAD - 2))


def _page(
    columns: Sequence[Sequence[BracketNode]],
    sections: Sequence[tuple[int, int, str]],
    champion: bool,
    labels: BracketLabels,
    title: str | None,
    numbers: Mapping[str, int],
) -> BracketLayout:
    """Lay out one page: ``columns`` of nodes left to right (each a part of one round), the ``sections`` above them
    (first column, number of columns, name), the champion's box under the last column's (single) box when
    ``champion``; a box of ``numbers`` gets its match number above it."""
    name_width = page_name_width(len(columns))
    box_width = SEED_WIDTH + name_width + SCORE_WIDTH
    column = box_width + LINK_WIDTH
    width = max(2 * MARGIN + len(columns) * column, MIN_PAGE_WIDTH)
    lines = title_lines(title, width - 2 * MARGIN - 2 * PAD) if title is not None else ()
    top = MARGIN + (title_height(len(lines)) if title is not None else 0)
    y = top
    texts: list[Label] = []
    if sections:
        for first, count, name in sections:
            x = MARGIN + first * column
            texts.append(Label(name, (x, y, x + count * column - LINK_WIDTH, y + SECTION_HEIGHT), SECTION_SIZE))
        y += SECTION_HEIGHT
    for c, nodes in enumerate(columns):
        x = MARGIN + c * column
        texts.append(Label(labels.round_name(nodes[0]), (x, y, x + box_width, y + HEADER_HEIGHT), HEADER_SIZE))
    y += HEADER_HEIGHT
    band = NUMBER_BAND if numbers else 0
    y += band
    boxes: list[MatchBox] = []
    previous: list[int] = []
    forfeit_width = _forfeit_width(labels)
    for c, nodes in enumerate(columns):
        if c == 0:
            current = [y + i * (PITCH + band) + BOX_HEIGHT // 2 for i in range(len(nodes))]
        elif len(nodes) == len(previous):
            current = list(previous)
        else:
            current = [(previous[2 * i] + previous[2 * i + 1]) // 2 for i in range(len(nodes))]
        x = MARGIN + c * column
        for node, centre in zip(nodes, current, strict=True):
            box = (x, centre - BOX_HEIGHT // 2, x + box_width, centre + BOX_HEIGHT // 2)
            score = forfeit_width if node.result is not None and node.result.forfeit else SCORE_WIDTH
            boxes.append(MatchBox(node, box, False, name_width - (score - SCORE_WIDTH), score))
        previous = current
    number_labels = tuple(
        Label(labels.number(numbers[b.node.id]), (b.box[0], b.box[1] - band, b.box[2], b.box[1]), SMALL_SIZE)
        for b in boxes
        if b.node.id in numbers
    )
    by_id = {b.node.id: b for b in boxes}
    links: list[tuple[Point, ...]] = []
    for match_box in boxes:
        for side, source in enumerate(match_box.node.sources):
            feeder = by_id.get(source.ref) if source.kind == "winner" else None
            if feeder is None or feeder.node.empty == (True, True):
                continue
            slot = match_box.slot_box(side)
            start = (feeder.box[2], (feeder.box[1] + feeder.box[3]) // 2)
            links.append(_elbow(start, (slot[0], (slot[1] + slot[3]) // 2)))
    bottom = max(b.box[3] for b in boxes)
    champion_box: Box | None = None
    if champion:
        last = boxes[-1].box
        header_top = last[3] + GAP
        texts.append(Label(labels.champion, (last[0], header_top, last[2], header_top + HEADER_HEIGHT), HEADER_SIZE))
        champion_box = (
            last[0],
            header_top + HEADER_HEIGHT,
            last[2],
            header_top + HEADER_HEIGHT + CHAMPION_HEIGHT,
        )
        turn = last[2] + LINK_WIDTH // 2
        middle = (champion_box[1] + champion_box[3]) // 2
        links.append(
            ((last[2], (last[1] + last[3]) // 2), (turn, (last[1] + last[3]) // 2), (turn, middle), (last[2], middle))
        )
        bottom = max(bottom, champion_box[3])
    legend = None
    if any(b.node.is_playable for b in boxes):
        legend = (MARGIN, bottom + GAP, width - MARGIN, bottom + GAP + LEGEND_HEIGHT)
        bottom = legend[3]
    title_box = (MARGIN, MARGIN, width - MARGIN, top) if title is not None else None
    return BracketLayout(
        width,
        bottom + MARGIN,
        tuple(boxes),
        tuple(texts),
        tuple(links),
        champion_box,
        title_box,
        legend,
        number_labels,
        lines,
    )


def _sections(band: Sequence[Sequence[BracketNode]], labels: BracketLabels) -> list[tuple[int, int, str]]:
    """Return the sections over a double elimination page's columns: runs of the winners', the losers' bracket and
    the grand final, each (first column, number of columns, name)."""
    names = {"winners": labels.winners, "losers": labels.losers, "final": labels.final}
    runs: list[tuple[int, int, str]] = []
    for c, nodes in enumerate(band):
        name = names.get(nodes[0].bracket, labels.winners)
        if runs and runs[-1][2] == name:
            first, count, _ = runs[-1]
            runs[-1] = (first, count + 1, name)
        else:
            runs.append((c, 1, name))
    return runs


def bracket_pages(
    tournament: Elimination, *, labels: BracketLabels | None = None, title: str | None = None
) -> tuple[BracketLayout, ...]:
    """Return the layouts of the pages of :func:`render_bracket_pages`, in album order.

    Single elimination: its rounds left to right, at most :data:`PAGE_COLUMNS` a page (as even as possible), a page
    per :data:`PAGE_BOXES` boxes of its first round (each a part of the bracket with what follows from it), the
    champion under the final. Double elimination: the winners' bracket's pages, then the losers' bracket's with the
    grand final (and its deciding match) as further rounds under a section of their own (``labels.final``) and the
    champion under the last; every match numbered above its box (:func:`match_numbers`). A page of fewer rounds has
    wider names (:func:`page_name_width`); every page is at most :data:`PAGE_WIDTH` wide (830 px). Raises nothing.
    """
    labels = labels or BracketLabels()
    nodes = tournament.bracket()
    winners = _by_round(nodes, "winners")
    finals = [[node] for round_nodes in _by_round(nodes, "final") for node in round_nodes]
    numbers = match_numbers(tournament)
    sequences: list[list[list[BracketNode]]] = []
    if tournament.double:
        sequences.append(winners)
        sequences.append(_by_round(nodes, "losers") + finals)
    else:
        sequences.append(winners)
    pages: list[BracketLayout] = []
    for s, columns in enumerate(sequences):
        start = 0
        for size in _bands(len(columns)):
            band = columns[start : start + size]
            start += size
            parts = -(-len(band[0]) // PAGE_BOXES)
            for part in range(parts):
                cut = [col[part * len(col) // parts : (part + 1) * len(col) // parts] for col in band]
                sections = _sections(cut, labels) if tournament.double else []
                last = s == len(sequences) - 1 and start == len(columns)
                pages.append(_page(cut, sections, last, labels, title, numbers))
    return tuple(pages)


def render_bracket_page_images(
    tournament: Elimination,
    names: Mapping[str, str],
    *,
    theme: str = "classic",
    labels: BracketLabels | None = None,
    title: str | None = None,
) -> tuple[Image.Image, ...]:
    """Return the pages of the bracket as RGB images; see :func:`render_bracket_pages`."""
    labels = labels or BracketLabels()
    numbers = match_numbers(tournament)
    return tuple(
        _draw(geo, tournament, names, None, theme, labels, title, numbers)
        for geo in bracket_pages(tournament, labels=labels, title=title)
    )


def render_bracket_pages(
    tournament: Elimination,
    names: Mapping[str, str],
    *,
    theme: str = "classic",
    labels: BracketLabels | None = None,
    title: str | None = None,
    fmt: ImageFormat = "jpeg",
    quality: int = QUALITY,
) -> tuple[bytes, ...]:
    """Return the bracket of an elimination as pictures readable in a chat: one for a small bracket, several (an
    album) for a large one, each at most :data:`MAX_PAGE_WIDTH` (830 px) wide, so that its smallest text (14 px,
    a cap height of 10 px) keeps a cap height of at least 7 px when shown 600 px wide.

    The boxes are those of :func:`render_bracket` without the rating column; :func:`bracket_pages` says how the
    rounds are split. ``labels`` are the caller's words (section, round headers, champion, bye, in play); ``title``
    goes on every page. More than :data:`ALBUM_SIZE` pages (a double elimination of 64) need two albums.

    Raises:
        ValueError: unknown theme or format, or a JPEG quality outside 1..95.
    """
    fmt = check_format(fmt)
    images = render_bracket_page_images(tournament, names, theme=theme, labels=labels, title=title)
    return tuple(encode(image, fmt, quality=quality) for image in images)
