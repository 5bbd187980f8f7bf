"""What tournaments look like in a chat: the cards' texts, announcements, result lines and the standings picture.

Pure functions of a :class:`~bot.services.tournament_record.TournamentRecord` (and the pure tournament it holds),
in the language asked for. Names are HTML-escaped by :func:`bot.texts.tr`; a person's name is a mention
(``tg://user?id=``) where the text is meant to reach them.
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence

from bot.keyboards.tournament import describe_settings
from bot.services.tournament_record import Entrant, TournamentRecord, TournamentSettings
from bot.texts import Html, tr
from rendering import render_bracket, render_cross_table, render_elimination, render_swiss_standings
from tournaments import Elimination, Match, Result, RoundRobin, Swiss, Tournament, default_rounds, match_points

MAX_PICTURE_BYTES = 200_000
"""A standings picture larger than this is replaced by a plainer one (a bracket by the elimination table)."""
MAX_LISTED = 40
"""At most this many lines of a list go into one message (the rest is summarised)."""


def mention(entrant: Entrant) -> Html:
    """Return the entrant's name as a mention (people) or plain (computer players), escaped."""
    if entrant.user_id is None:
        return Html(html.escape(entrant.name))
    return Html(f'<a href="tg://user?id={entrant.user_id}">{html.escape(entrant.name)}</a>')


def plain(entrant: Entrant | None, fallback: str = "?") -> str:
    """Return the entrant's display name (or ``fallback``)."""
    return entrant.name if entrant is not None else fallback


def settings_lines(lang: str, settings: TournamentSettings) -> list[str]:
    """Return the lines describing a tournament's settings."""
    values = describe_settings(lang, settings)
    line = tr(lang, "tour.summary", variant=values["variant"], format=values["format"], length=values["length"])
    if settings.format == "sw":
        line = Html(f"{line} · {tr(lang, 'tour.opt.rounds', value=values['rounds'])}")
    return [
        line,
        tr(lang, "tour.summary.more", deadline=values["deadline"], venue=values["venue"], limit=values["limit"]),
    ]


def setup_text(lang: str, settings: TournamentSettings) -> str:
    """Return the creation card's text."""
    return "\n".join([tr(lang, "tour.setup.title"), *settings_lines(lang, settings), "", tr(lang, "tour.setup.hint")])


def registration_text(lang: str, record: TournamentRecord) -> str:
    """Return the registration card's text: the settings and the players who joined (name and rating)."""
    lines: list[str] = [tr(lang, "tour.reg.title"), *settings_lines(lang, record.settings), ""]
    if record.status == "cancelled":
        lines.append(tr(lang, "tour.reg.cancelled"))
        return "\n".join(lines)
    if record.status != "registration":
        lines.append(tr(lang, "tour.reg.started", count=len(record.entrants)))
    lines.append(tr(lang, "tour.reg.players", count=len(record.entrants), limit=record.settings.limit))
    for number, entrant in enumerate(record.entrants[:MAX_LISTED], start=1):
        level = tr(lang, "level." + entrant.level) if entrant.level else ""
        suffix = f" · {level}" if level and level not in entrant.name else ""  # "Computer 1 (easy)" says it
        lines.append(
            tr(lang, "tour.reg.player", number=number, name=entrant.name, rating=round(entrant.rating))
            + html.escape(suffix)
        )
    if not record.entrants:
        lines.append(tr(lang, "tour.reg.nobody"))
    if record.status == "registration":
        lines += ["", tr(lang, "tour.reg.hint")]
    return "\n".join(lines)


def round_label(lang: str, match: Match, *, double: bool = False) -> str:
    """Return how the round of a match is called: "Round 2", or (``double``: a double elimination) "Winners' round
    1", "Losers' round 3", "Grand final" (the brackets of :mod:`tournaments.elimination`)."""
    if match.bracket in ("L", "losers"):
        return tr(lang, "tour.round.losers", n=match.round)
    if match.id == "GF2":
        return tr(lang, "tour.round.final_reset")
    if match.bracket in ("G", "final") or match.id.startswith("GF"):
        return tr(lang, "tour.round.final")
    if match.bracket in ("W", "winners") and double:
        return tr(lang, "tour.round.winners", n=match.round)
    return tr(lang, "tour.round", n=match.round)


def deadline_text(lang: str, deadline: float) -> str:
    """Return a deadline as "02.12 22:00 UTC"."""
    return time.strftime("%d.%m %H:%M UTC", time.gmtime(deadline))


def pairing_line(record: TournamentRecord, match: Match, *, mentions: bool) -> str:
    """Return "A – B" for a match (mentions for people when ``mentions``)."""
    first, second = record.entrant(match.first), record.entrant(match.second)

    def show(entrant: Entrant | None) -> str:
        if mentions and entrant is not None:
            return mention(entrant)
        return html.escape(plain(entrant))

    return f"{show(first)} – {show(second)}"


def byes_of(tournament: Tournament, matches: Sequence[Match]) -> list[str]:
    """Return the players with a bye (or rest) in the rounds of ``matches``."""
    rounds = {m.round for m in matches}
    if isinstance(tournament, RoundRobin):
        return [b.player for r in tournament.rounds if r.number in rounds for b in r.byes]
    if isinstance(tournament, Swiss):
        return [b.player for b in tournament.byes() if b.round in rounds]
    return []


def announcement(
    lang: str, record: TournamentRecord, tournament: Tournament, matches: Sequence[Match], deadline: float
) -> str:
    """Return the announcement of newly started matches: their rounds, pairings (as mentions), byes, deadline and
    where the games are played."""
    lines: list[str] = []
    current = None
    for match in matches[:MAX_LISTED]:
        label = round_label(lang, match, double=record.settings.format == "de")
        if label != current:
            lines.append(f"<b>{html.escape(label)}</b>")
            current = label
        lines.append(pairing_line(record, match, mentions=True))
    if len(matches) > MAX_LISTED:
        lines.append(tr(lang, "tour.more", count=len(matches) - MAX_LISTED))
    byes = [plain(record.entrant(p)) for p in byes_of(tournament, matches)]
    if byes:
        kind = "tour.bye" if isinstance(tournament, Swiss) else "tour.rest"
        lines.append(tr(lang, kind, names=", ".join(byes)))
    lines.append(tr(lang, "tour.deadline", deadline=deadline_text(lang, deadline)))
    lines.append(tr(lang, f"tour.where.{record.settings.venue}"))
    return "\n".join(lines)


def result_line(lang: str, record: TournamentRecord, match: Match, result: Result) -> str:
    """Return one short result line: "Round 2: Anna beat Boris 3–1" (or by forfeit, or a draw)."""
    label = round_label(lang, match, double=record.settings.format == "de")
    if result.winner is None:
        first, second = plain(record.entrant(match.first)), plain(record.entrant(match.second))
        return tr(lang, "tour.result.draw", round=label, first=first, second=second)
    loser = match.opponent(result.winner)
    winner_name, loser_name = plain(record.entrant(result.winner)), plain(record.entrant(loser))
    if result.forfeit:
        return tr(lang, "tour.result.forfeit", round=label, winner=winner_name, loser=loser_name)
    won, lost = (
        (result.first_points, result.second_points)
        if result.winner == match.first
        else (result.second_points, result.first_points)
    )
    return tr(lang, "tour.result", round=label, winner=winner_name, loser=loser_name, won=won, lost=lost)


def format_title(lang: str, record: TournamentRecord, tournament: Tournament) -> str:
    """Return the title line of the standings picture."""
    values = describe_settings(lang, record.settings)
    if isinstance(tournament, Swiss):
        played = len({m.round for m, _ in tournament.played()})
        return tr(
            lang,
            "tour.title.swiss",
            format=values["format"],
            variant=values["variant"],
            done=played,
            rounds=tournament.rounds,
        )
    return tr(lang, "tour.title", format=values["format"], variant=values["variant"])


def standings_image(lang: str, record: TournamentRecord, tournament: Tournament) -> bytes:
    """Return the standings picture (JPEG): the cross-table (round robin), the Swiss table with Buchholz, or the
    bracket with its results (elimination; the elimination table when the bracket would exceed
    :data:`MAX_PICTURE_BYTES`). Raises: whatever the renderer raises."""
    names = record.names()
    title = html.unescape(format_title(lang, record, tournament))
    if isinstance(tournament, RoundRobin):
        return render_cross_table(
            tournament.cross_table(), names, standings=tournament.standings(), lang=lang, title=title
        )
    if isinstance(tournament, Swiss):
        return render_swiss_standings(tournament.standings(), names, lang=lang, title=title)
    ratings = {e.pid: e.rating for e in record.entrants}
    bracket = render_bracket(tournament, names, ratings=ratings, lang=lang, title=title)
    if len(bracket) <= MAX_PICTURE_BYTES:
        return bracket
    # a large double elimination's bracket is too big to read as one photo: its standings table instead
    return render_elimination(tournament.standings(), names, lang=lang, title=title)


def standings_caption(lang: str, record: TournamentRecord, tournament: Tournament) -> str:
    """Return the caption under the standings picture: the leaders, what is still being played, and for an
    elimination the bracket's results so far."""
    lines: list[str] = [tr(lang, "tour.standings.caption", format=describe_settings(lang, record.settings)["format"])]
    if isinstance(tournament, Elimination):
        for match, result in tournament.played()[-12:]:
            lines.append(result_line(lang, record, match, result))
    playing = tournament.playable()
    if playing and not tournament.is_over:
        lines.append(tr(lang, "tour.standings.playing", count=len(playing)))
    return "\n".join(lines)[:1000]


def pairings_text(lang: str, record: TournamentRecord, tournament: Tournament, now: float) -> str:
    """Return the matches being played now, with their deadlines."""
    playing = tournament.playable()
    if not playing:
        return tr(lang, "tour.pairs.none")
    lines: list[str] = [tr(lang, "tour.pairs.title")]
    for match in playing[:MAX_LISTED]:
        started = record.started.get(match.id)
        due = "" if started is None else f" · {deadline_text(lang, started + record.settings.deadline_seconds)}"
        label = round_label(lang, match, double=record.settings.format == "de")
        lines.append(f"{html.escape(label)}: {pairing_line(record, match, mentions=False)}{due}")
    return "\n".join(lines)


def final_text(lang: str, record: TournamentRecord, tournament: Tournament, ratings_after: dict[str, float]) -> str:
    """Return the closing announcement: the winner(s), the top of the table and the rating changes."""
    winners = [plain(record.entrant(p)) for p in tournament.winners()]
    lines: list[str] = [tr(lang, "tour.final.title")]
    if winners:
        lines.append(tr(lang, "tour.final.winner", names=", ".join(winners)))
    changes: list[str] = []
    for entrant in record.entrants:
        before = record.ratings_before.get(entrant.pid)
        after = ratings_after.get(entrant.pid)
        if entrant.user_id is None or before is None or after is None:
            continue
        delta = after - before
        changes.append(
            tr(
                lang,
                "tour.final.rating",
                name=entrant.name,
                before=round(before),
                after=round(after),
                delta=f"{delta:+.1f}",
            )
        )
    if changes:
        lines += ["", tr(lang, "tour.final.ratings"), *changes[:MAX_LISTED]]
    return "\n".join(lines)


def swiss_rounds(settings: TournamentSettings, players: int) -> int:
    """Return the number of Swiss rounds: the organiser's choice or the §8 default for the field."""
    return settings.rounds or default_rounds(players)


def points_of(tournament: Tournament, pid: str) -> float:
    """Return a player's match points so far."""
    return sum(match_points(m, r, pid) for m, r in tournament.played() if pid in (m.first, m.second))
