"""What tournaments look like in a chat: the cards' texts, announcements, result lines and the standings picture.

Pure functions of a :class:`~bot.model.tournament.TournamentRecord` (and the pure tournament it holds),
in the language asked for. Names are HTML-escaped by :func:`bot.texts.tr`; a person's name is a mention
(``tg://user?id=``) where the text is meant to reach them.
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence
from dataclasses import replace

from bot.keyboards.tournament import describe_settings
from bot.model.arena import DEFAULT_CLOCK, DEFAULT_MINUTES
from bot.model.tournament import Entrant, TournamentRecord, TournamentSettings
from bot.services.captions import cut_caption
from bot.texts import Html, table_labels, tr
from rendering import render_cross_table, render_elimination, render_swiss_standings
from rendering.bracket import ALBUM_SIZE, BracketLabels, bracket_pages, render_bracket_pages, round_key
from tournaments import Elimination, Match, Result, RoundRobin, Swiss, Tournament, default_rounds, match_points

MAX_PICTURE_BYTES = 200_000
"""A standings picture larger than this is replaced by a plainer one (a bracket by the elimination table)."""
STAGES: dict[int, str] = {1: "final", 2: "semifinal", 4: "quarterfinal", 8: "r16", 16: "r32"}
"""How players call a knock-out round by its number of matches (``tour.stage.*``; "1/8 финала" is 8 matches)."""
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
    lines: list[str] = [
        line,
        tr(lang, "tour.summary.more", deadline=values["deadline"], venue=values["venue"], limit=values["limit"]),
    ]
    if settings.clock is not None:  # docs/rules.md §1 "Time control"
        lines.append(tr(lang, "tour.clock", control=settings.clock.label))
    return lines


def setup_text(lang: str, settings: TournamentSettings) -> str:
    """Return the creation card's text (of an arena when its format is ``ar``: the game and the clock it starts
    with)."""
    if settings.format == "ar":
        clock = (settings.clock or DEFAULT_CLOCK).label
        variant = tr(lang, f"variant.{settings.variant}")
        summary = tr(lang, "arena.summary", variant=variant, minutes=DEFAULT_MINUTES, control=clock)
        hint = tr(lang, "arena.setup.hint", minutes=DEFAULT_MINUTES)
        return "\n".join([tr(lang, "tour.setup.title"), summary, "", hint])
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


def bracket_size(players: int) -> int:
    """Return the slots of the bracket of ``players`` (the smallest power of two that holds them)."""
    size = 1
    while size < players:
        size *= 2
    return size


def stage_name(lang: str, bracket: str, number: int, *, size: int, double: bool) -> str:
    """Return how players call round ``number`` of ``bracket`` (``"winners"`` or ``"losers"``) of an elimination
    with ``size`` slots: the final, the semifinal, the quarterfinal, the round of 16 ("1/8 финала"), of 32; in a
    double elimination the winners' bracket's ("Winners' semifinal", "Полуфинал верхней сетки"), the losers' final
    and the other losers' rounds by number; a round with more matches "Round N". Returns escaped HTML."""
    if bracket in ("L", "losers"):
        last = 2 * (size.bit_length() - 2)  # the losers' bracket of 2^k slots has 2(k − 1) rounds
        if number == last:
            return tr(lang, "tour.stage.l.final")
        return tr(lang, "tour.round.losers", n=number)
    stage = STAGES.get(size >> number)
    if stage is None:
        return tr(lang, "tour.round.winners" if double else "tour.round", n=number)
    return tr(lang, f"tour.stage.w.{stage}" if double else f"tour.stage.{stage}")


def round_label(lang: str, match: Match, *, double: bool = False, size: int | None = None) -> str:
    """Return how the round of a match is called: "Round 2", or (``double``: a double elimination) "Winners' round
    1", "Losers' round 3", "Grand final" (the brackets of :mod:`tournaments.elimination`); with ``size`` (the
    bracket's slots of an elimination) as players say it: "Semifinal", "1/8 финала", "Losers' final"
    (:func:`stage_name`)."""
    if size is not None and match.bracket in ("L", "losers", "W", "winners"):
        return stage_name(lang, match.bracket, match.round, size=size, double=double)
    if match.bracket in ("L", "losers"):
        return tr(lang, "tour.round.losers", n=match.round)
    if match.id == "GF2":
        return tr(lang, "tour.round.final_reset")
    if match.bracket in ("G", "final") or match.id.startswith("GF"):
        return tr(lang, "tour.round.final")
    if match.bracket in ("W", "winners") and double:
        return tr(lang, "tour.round.winners", n=match.round)
    return tr(lang, "tour.round", n=match.round)


def match_label(lang: str, record: TournamentRecord, match: Match) -> str:
    """Return the round label of ``match`` in the tournament of ``record`` (knock-out rounds as players say them)."""
    fmt = record.settings.format
    size = bracket_size(len(record.entrants)) if fmt in ("se", "de") else None
    return round_label(lang, match, double=fmt == "de", size=size)


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
        label = match_label(lang, record, match)
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
    label = match_label(lang, record, match)
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


def standings_image(lang: str, record: TournamentRecord, tournament: Tournament, theme: str = "classic") -> bytes:
    """Return the live standings picture (JPEG) in ``theme`` (the chat's, ``"classic"`` or ``"dark"``), readable at
    a phone's preview: the cross-table (round robin; a list for a large field), the Swiss table with Buchholz, or for
    an elimination its bracket when the bracket is one picture (:func:`bracket_pictures`: a single elimination of up
    to 8), else the elimination table (the bracket then goes out as an album, :func:`bracket_pictures`).
    Raises: whatever the renderer raises."""
    names = record.names()
    title = html.unescape(format_title(lang, record, tournament))
    labels = table_labels(lang)
    if isinstance(tournament, RoundRobin):
        return render_cross_table(
            tournament.cross_table(), names, standings=tournament.standings(), labels=labels, title=title, theme=theme
        )
    if isinstance(tournament, Swiss):
        return render_swiss_standings(tournament.standings(), names, labels=labels, title=title, theme=theme)
    if standings_shows_bracket(tournament):
        (bracket,) = bracket_pictures(lang, record, tournament, theme)
        if len(bracket) <= MAX_PICTURE_BYTES:
            return bracket
    return render_elimination(tournament.standings(), names, labels=labels, title=title, theme=theme)


def bracket_labels(lang: str, tournament: Elimination) -> BracketLabels:
    """Return the words of the bracket picture of ``tournament`` in ``lang``: each round named as players say it
    (:func:`stage_name`), the grand final and its deciding match, the sections, champion, bye, in play."""
    size = bracket_size(len(tournament.players))
    rounds: dict[str, str] = {}
    for node in tournament.bracket():
        key = round_key(node)
        if key in rounds:
            continue
        text: str
        if node.bracket == "final":
            text = tr(lang, "tour.round.final_reset" if node.id == "GF2" else "tour.round.final")
        else:
            text = stage_name(lang, node.bracket, node.round, size=size, double=tournament.double)
        rounds[key] = html.unescape(text)

    def word(key: str) -> str:
        return html.unescape(tr(lang, key))

    return BracketLabels(
        rounds=rounds,
        winners=word("tour.bracket.winners"),
        losers=word("tour.bracket.losers"),
        champion=word("tour.bracket.champion"),
        bye=word("tour.bracket.bye"),
        in_play=word("tour.bracket.in_play"),
    )


def bracket_page_labels(lang: str, tournament: Elimination) -> BracketLabels:
    """Return the words of the bracket's pages (:func:`bracket_pictures`): those of :func:`bracket_labels`, but a
    double elimination's round headers without the section the page names above them ("Semifinal" under "Winners'
    bracket", "Round 3" and "Final" under "Losers' bracket"; under "Grand final" no header for its first match and
    "Deciding match" for the second), and the pages' own words: a forfeit, match numbers, "Loser of M3", "Winner of
    M24" (a match on another page)."""
    labels = bracket_labels(lang, tournament)

    def word(key: str) -> str:
        return html.unescape(tr(lang, key))

    labels = replace(
        labels,
        final=word("tour.round.final"),
        forfeit=word("tour.bracket.forfeit"),
        match_number=word("tour.bracket.match"),
        loser_of=word("tour.bracket.loser_of"),
        winner_of=word("tour.bracket.winner_of"),
    )
    if not tournament.double:
        return labels
    size = bracket_size(len(tournament.players))
    last = 2 * (size.bit_length() - 2)  # the losers' bracket's last round (its final)
    rounds: dict[str, str] = {}
    for node in tournament.bracket():
        key = round_key(node)
        if node.bracket == "winners":
            rounds[key] = html.unescape(stage_name(lang, "winners", node.round, size=size, double=False))
        elif node.bracket == "losers":
            final = node.round == last
            rounds[key] = word("tour.stage.final") if final else html.unescape(tr(lang, "tour.round", n=node.round))
        else:
            rounds[key] = word("tour.bracket.deciding") if node.id == "GF2" else ""
    return replace(labels, rounds=rounds)


def bracket_pictures(
    lang: str, record: TournamentRecord, tournament: Elimination, theme: str = "classic"
) -> tuple[bytes, ...]:
    """Return the bracket of an elimination as JPEG pictures readable on a phone in ``theme``, in album order (one
    for a small single elimination; :func:`rendering.bracket.bracket_pages`), with the words of
    :func:`bracket_page_labels`. Raises: whatever the renderer raises."""
    title = html.unescape(format_title(lang, record, tournament))
    labels = bracket_page_labels(lang, tournament)
    return render_bracket_pages(tournament, record.names(), labels=labels, title=title, theme=theme)


def bracket_album_due(tournament: Tournament, announced: Sequence[str], new: Sequence[Match]) -> bool:
    """Return whether the bracket album goes out with the announcement of ``new`` matches (``announced``: the ids
    announced before): for an elimination whose bracket takes several pictures, with the first announcement and
    with the final's (the grand final's first match). Other rounds only edit the live table; an album on every
    round would cost five pictures a round of a 16-player double elimination, in bursts when computer players'
    matches are simulated at once."""
    if not isinstance(tournament, Elimination) or standings_shows_bracket(tournament):
        return False
    if not announced:
        return True
    final = "GF1" if tournament.double else f"W{bracket_size(len(tournament.players)).bit_length() - 1}-1"
    return any(m.id == final for m in new)


def standings_shows_bracket(tournament: Tournament) -> bool:
    """Return whether the live standings picture of ``tournament`` is its whole bracket (an elimination whose
    bracket is one picture), so that no album is needed."""
    return isinstance(tournament, Elimination) and len(bracket_pages(tournament)) == 1


def bracket_caption(lang: str, record: TournamentRecord) -> str:
    """Return the heading of the bracket album's caption: "Bracket (double elimination)"."""
    return tr(lang, "tour.bracket.caption", format=describe_settings(lang, record.settings)["format"])


def album_caption(lang: str, record: TournamentRecord, tournament: Elimination) -> str:
    """Return the caption under the bracket album: its heading (:func:`bracket_caption`), then, for each page
    showing matches being played, the page's number, the round and the pairings ("Page 2, Winners' semifinal:
    Anna – Boris, Vera – Gleb"), so that a player finds the picture of their match among the small album tiles
    without opening them all. One caption for everyone (the album goes to the group, or to whoever asked for it):
    names plain, not mentions, which would notify. Cut to Telegram's caption limit."""
    lines = [bracket_caption(lang, record)]
    playing = {m.id: m for m in tournament.playable()}
    pages = bracket_pages(tournament, labels=bracket_page_labels(lang, tournament))
    for number, page in enumerate(pages, start=1):
        by_round: dict[str, list[Match]] = {}
        for box in page.boxes:
            match = playing.get(box.node.id)
            if match is not None:
                by_round.setdefault(match_label(lang, record, match), []).append(match)
        for label, matches in by_round.items():
            pairs = ", ".join(pairing_line(record, m, mentions=False) for m in matches)
            lines.append(tr(lang, "tour.bracket.page", page=number, round=Html(label), pairs=Html(pairs)))
    return cut_caption("\n".join(lines))


def album_chunks(pictures: Sequence[bytes]) -> list[list[bytes]]:
    """Return ``pictures`` in albums of at most :data:`rendering.bracket.ALBUM_SIZE` (Telegram's limit)."""
    return [list(pictures[i : i + ALBUM_SIZE]) for i in range(0, len(pictures), ALBUM_SIZE)]


def standings_caption(lang: str, record: TournamentRecord, tournament: Tournament) -> str:
    """Return the caption under the standings picture: the leaders, what is still being played, and for an
    elimination the bracket's results so far; cut to Telegram's caption limit (never inside a tag or an entity)."""
    lines: list[str] = [tr(lang, "tour.standings.caption", format=describe_settings(lang, record.settings)["format"])]
    if isinstance(tournament, Elimination):
        for match, result in tournament.played()[-12:]:
            lines.append(result_line(lang, record, match, result))
    playing = tournament.playable()
    if playing and not tournament.is_over:
        lines.append(tr(lang, "tour.standings.playing", count=len(playing)))
    return cut_caption("\n".join(lines))


def pairings_text(lang: str, record: TournamentRecord, tournament: Tournament, now: float) -> str:
    """Return the matches being played now, with their deadlines."""
    playing = tournament.playable()
    if not playing:
        return tr(lang, "tour.pairs.none")
    lines: list[str] = [tr(lang, "tour.pairs.title")]
    for match in playing[:MAX_LISTED]:
        started = record.started.get(match.id)
        due = "" if started is None else f" · {deadline_text(lang, started + record.settings.deadline_seconds)}"
        label = match_label(lang, record, match)
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
