"""The tournaments' standings and brackets as text, for a chat that takes no pictures (:mod:`bot.services.media`).

The same words and numbers as the pictures, read from the Mini App's view of the tournament
(:func:`bot.services.tournaments.view_model.build_view`): the standings rows with the picture's columns, and the bracket
round by round (rounds nobody has reached yet are left out). Telegram HTML, names escaped, each text at most
:data:`MAX_MESSAGE` visible characters: whole lines are kept and the rest is counted ("… and 12 more").
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Final

from bot.keyboards.tournament import describe_settings
from bot.model.tournament import TournamentRecord
from bot.services.captions import visible_length
from bot.services.tournaments.chat_views import (
    bracket_caption,
    format_title,
    result_line,
    standings_shows_bracket,
)
from bot.services.tournaments.view_model import BracketMatch, build_view
from bot.texts import number, tr
from tournaments import Elimination, Tournament

MAX_MESSAGE: Final = 4096
"""Telegram's limit of a text message, in UTF-16 code units of the visible text."""
RECENT_RESULTS: Final = 12
"""An elimination's standings text ends with this many of its latest results (as the picture's caption does)."""


def fit_lines(lang: str, lines: Sequence[str], limit: int = MAX_MESSAGE) -> str:
    """Return ``lines`` joined, as many whole lines as fit in ``limit`` visible characters, the rest counted on a
    last line ("… and 3 more")."""
    text = "\n".join(lines)
    if visible_length(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        more = str(tr(lang, "tour.more", count=len(lines) - index))
        size = visible_length(line) + 1
        if used + size + visible_length(more) > limit:
            return "\n".join([*kept, more])
        kept.append(line)
        used += size
    return "\n".join(kept)  # not reached: the lines did not fit, so one of them stopped the loop


def standings_text(lang: str, record: TournamentRecord, tournament: Tournament) -> str:
    """Return the live standings as text: the title, one line per player with the picture's columns, for an
    elimination its latest results, and how many matches are being played. An elimination whose picture is its
    whole bracket (:func:`~bot.services.tournaments.chat_views.standings_shows_bracket`) gets its bracket instead, as
    the picture does."""
    if isinstance(tournament, Elimination) and standings_shows_bracket(tournament):
        return bracket_text(lang, record, tournament)
    view = build_view("", 0, record, None, lang)
    format_name = describe_settings(lang, record.settings)["format"]
    lines = [
        f"<b>{tr(lang, 'tour.standings.caption', format=format_name)}</b>",
        format_title(lang, record, tournament),
    ]
    for row in view.standings:
        cells = " · ".join(
            f"{html.escape(column)} {html.escape(cell)}" for column, cell in zip(view.columns, row.cells, strict=True)
        )
        lines.append(f"<b>{row.place}.</b> {html.escape(row.name)} · {cells}")
    if isinstance(tournament, Elimination):
        lines += [result_line(lang, record, m, r) for m, r in tournament.played()[-RECENT_RESULTS:]]
    playing = tournament.playable()
    if playing and not tournament.is_over:
        lines.append(tr(lang, "tour.standings.playing", count=len(playing)))
    return fit_lines(lang, lines)


def bracket_text(lang: str, record: TournamentRecord, tournament: Elimination) -> str:
    """Return the bracket of an elimination as text: its title, then every round someone has reached, named as
    players say it, one line per match (the winner in bold, the score, or "in play"), and the champion once there
    is one."""
    view = build_view("", 0, record, None, lang)
    lines = [f"<b>{bracket_caption(lang, record)}</b>"]
    for bracket_round in view.bracket or ():
        matches = [match_line(lang, m) for m in bracket_round.matches]
        known = [line for line in matches if line is not None]
        if known:
            lines += [f"<b>{html.escape(bracket_round.label)}</b>", *known]
    if tournament.is_over:
        names = record.names()
        lines += [tr(lang, "tour.text.champion", name=names.get(pid, "?")) for pid in tournament.winners()]
    return fit_lines(lang, lines)


def match_line(lang: str, match: BracketMatch) -> str | None:
    """Return one match of the bracket as a line in ``lang``: "<b>Anna</b> – Boris · 3–1" (the score in the
    players' order, "3:1" in Russian), "Anna – Boris · in play", "Anna · bye", "Anna – ?" (the other still to
    come); None when neither player is known yet."""
    first, second = match.players
    if first is None and second is None:
        return None

    def side(index: int) -> str:
        name = match.players[index]
        shown = html.escape(name) if name else "?"
        return f"<b>{shown}</b>" if match.winner == index else shown

    if first == "" or second == "":  # a bye: the empty slot is no player
        return f"{side(1 if first == '' else 0)} · {tr(lang, 'tour.bracket.bye')}"
    line = f"{side(0)} – {side(1)}"
    if match.score:
        points_first, _, points_second = match.score.partition("–")  # the view writes "3–1"
        first_shown, second_shown = number(lang, points_first), number(lang, points_second)
        return f"{line} · {tr(lang, 'tour.text.score', first=first_shown, second=second_shown)}"
    if match.playing:
        return f"{line} · {tr(lang, 'tour.bracket.in_play')}"
    return line
