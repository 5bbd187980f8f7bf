"""The Mini App's view of a tournament: what the chat's tournament card and standings picture show, as typed data.

:meth:`TournamentViews.view` reads the record (:class:`~bot.services.tournaments.records.TournamentRecordKeeper`)
and returns a :class:`TournamentView`: the format, status and round, the standings rows with the columns of the
chat's standings picture (:mod:`rendering.standings`, from the pure tournament's own standings), the pairings of the
current round (to play, playing with its game id, the result, a forfeit) and, for an elimination, the bracket
(rounds of :meth:`tournaments.Elimination.bracket`, named as :func:`~bot.services.tournaments.chat_views.bracket_labels`
names them). Every word comes from the catalogue in the viewer's language. Anyone signed in may see it: the chat's
card shows the same.
"""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal

from bot.model.tournament import TournamentRecord, TournamentRecordError
from bot.services.tournaments.chat_views import bracket_labels, format_title, match_label
from bot.services.tournaments.records import TournamentRecordKeeper
from bot.texts import table_labels, tr
from rendering.bracket import round_key
from tournaments import Elimination, Result, RoundRobin, Swiss, Tournament, TournamentError

MatchState = Literal["to_play", "playing", "result", "forfeit"]
"""A pairing's state: not started, its game running, decided by play, decided by a forfeit."""

TEXT_KEYS: Final = (
    "standings",
    "pairings",
    "bracket",
    "to_play",
    "playing",
    "forfeit",
    "open",
    "none",
    "waiting",
    "bye",
    "champion",
)
"""The page's own words (``webapp.tour.<key>``, ``bye`` and ``champion`` from ``tour.bracket.*``)."""


def _t(lang: str, key: str, **values: object) -> str:
    """Return a catalogue text as plain text (the page escapes what it shows)."""
    return html.unescape(str(tr(lang, key, **values)))


def score(value: float) -> str:
    """Return a score as the standings picture writes it: whole numbers plain, halves with ½ (``2½``)."""
    if value * 2 != int(value * 2):
        return f"{value:.2f}"
    whole = int(abs(value))
    half = "½" if abs(value) != whole else ""
    sign = "−" if value < 0 else ""
    return f"{sign}{whole if whole or not half else ''}{half}"


def _decimal(value: float) -> str:
    return f"{value:.1f}".replace("-", "−")


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One standings line: ``place``, the player's ``name``, ``cells`` (the columns after the name, as the
    picture shows them) and whether it is the viewer (``you``)."""

    place: int
    name: str
    cells: tuple[str, ...]
    you: bool = False


@dataclass(frozen=True, slots=True)
class PairingView:
    """One match of the current round: its ``id``, round ``label``, the players' names, ``state``, the
    ``game_id`` of its game (when started) and the ``score`` ("3–1") once decided."""

    id: str
    label: str
    first: str
    second: str
    state: MatchState
    game_id: str | None = None
    score: str = ""


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One node of the bracket: ``id``, the two slots' names (None: still to come; ``""``: a bye's empty slot),
    ``winner`` (0 or 1, the slot that went on), ``score``, ``game_id`` (a started match) and ``playing``."""

    id: str
    players: tuple[str | None, str | None]
    winner: int | None = None
    score: str = ""
    game_id: str | None = None
    playing: bool = False


@dataclass(frozen=True, slots=True)
class BracketRound:
    """One round of the bracket: ``key`` (``W1``, ``L2``, ``GF``), ``label`` as players say it, ``section``
    (``winners``, ``losers`` or ``final``) and its ``matches`` top to bottom."""

    key: str
    label: str
    section: str
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament as the Mini App shows it (see the module docstring); :meth:`to_json` is the API's answer."""

    id: str
    version: int
    format: str
    status: str
    status_text: str
    title: str
    round: int | None
    columns: tuple[str, ...]
    standings: tuple[StandingRow, ...]
    pairings: tuple[PairingView, ...]
    bracket: tuple[BracketRound, ...] | None
    texts: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the view as JSON-ready data."""
        return asdict(self)


def _result_score(result: Result) -> str:
    return f"{result.first_points}–{result.second_points}"


def _standings(
    lang: str, record: TournamentRecord, tournament: Tournament, viewer: int | None
) -> tuple[tuple[str, ...], tuple[StandingRow, ...]]:
    """Return the columns after the name and the rows of the standings picture of ``tournament``."""
    labels = table_labels(lang)
    names = record.names()
    mine = record.person(viewer) if viewer is not None else None

    def row(place: int, pid: str, cells: tuple[str, ...]) -> StandingRow:
        return StandingRow(place, names.get(pid, "?"), cells, mine is not None and mine.pid == pid)

    if isinstance(tournament, RoundRobin):
        columns: tuple[str, ...] = (
            labels.played,
            labels.wins,
            labels.draws,
            labels.losses,
            labels.points,
            labels.sb,
            labels.diff,
        )
        return columns, tuple(
            row(
                r.place,
                r.player,
                (
                    str(r.played),
                    str(r.wins),
                    str(r.draws),
                    str(r.losses),
                    score(r.points),
                    _decimal(r.sonneborn_berger),
                    f"{r.game_point_difference:+d}".replace("-", "−"),
                ),
            )
            for r in tournament.standings()
        )
    if isinstance(tournament, Swiss):
        columns = (labels.rating, labels.points, labels.cut1, labels.buchholz, labels.sb)
        return columns, tuple(
            row(
                r.place,
                r.player,
                (
                    str(round(r.rating)),
                    score(r.points),
                    score(r.buchholz_cut1),
                    score(r.buchholz),
                    _decimal(r.sonneborn_berger),
                ),
            )
            for r in tournament.standings()
        )
    columns = (labels.rating, labels.round, labels.status)
    return columns, tuple(
        row(r.place, r.player, (str(round(r.rating)), str(r.reached), labels.out if r.eliminated else labels.in_play))
        for r in tournament.standings()
    )


def _pairings(
    lang: str, record: TournamentRecord, tournament: Tournament
) -> tuple[int | None, tuple[PairingView, ...]]:
    """Return the current round (the lowest round with a match to play, else the last played) and its pairings
    (every match of the rounds being played: a double elimination plays two brackets at once)."""
    names = record.names()
    playable = tournament.playable()
    played = tournament.played()
    if playable:
        rounds = {(m.bracket, m.round) for m in playable}
        current: int | None = min(m.round for m in playable)
    elif played:
        last = played[-1][0]
        rounds = {(last.bracket, last.round)}
        current = last.round
    else:
        return None, ()
    results = {m.id: r for m, r in played}
    matches = [m for m, _ in played if (m.bracket, m.round) in rounds] + list(playable)
    views: list[PairingView] = []
    for match in matches:
        result = results.get(match.id)
        state: MatchState
        if result is not None:
            state = "forfeit" if result.forfeit else "result"
        elif match.id in record.started:
            state = "playing"
        else:
            state = "to_play"
        game_id = record.games.get(match.id)
        views.append(
            PairingView(
                match.id,
                html.unescape(match_label(lang, record, match)),
                names.get(match.first, "?"),
                names.get(match.second, "?"),
                state,
                game_id,
                _result_score(result) if result is not None else "",
            )
        )
    return current, tuple(views)


def _bracket(lang: str, record: TournamentRecord, tournament: Elimination) -> tuple[BracketRound, ...]:
    """Return the whole bracket of an elimination, round by round (known or not yet)."""
    labels = bracket_labels(lang, tournament)
    names = record.names()
    playing = {m.id for m in tournament.playable()}
    rounds: dict[str, list[BracketMatch]] = {}
    sections: dict[str, str] = {}
    for node in tournament.bracket():
        key = round_key(node)
        sections.setdefault(key, node.bracket)
        players = tuple(
            "" if empty and pid is None else (names.get(pid, "?") if pid is not None else None)
            for pid, empty in zip(node.players, node.empty, strict=True)
        )
        winner = None
        if node.winner is not None:
            winner = 0 if node.players[0] == node.winner else 1 if node.players[1] == node.winner else None
        started = node.id in record.started
        rounds.setdefault(key, []).append(
            BracketMatch(
                node.id,
                (players[0], players[1]),
                winner,
                _result_score(node.result) if node.result is not None else "",
                record.games.get(node.id) if node.is_match else None,
                node.id in playing and started,
            )
        )
    return tuple(
        BracketRound(key, labels.rounds.get(key, key), sections[key], tuple(matches)) for key, matches in rounds.items()
    )


class TournamentViews:
    """The Mini App's views of tournaments, read from the records of ``keeper``."""

    def __init__(self, keeper: TournamentRecordKeeper) -> None:
        """Read the records through ``keeper``."""
        self.keeper = keeper

    async def version(self, tournament_id: str) -> int | None:
        """Return the stored version of the tournament (it grows with every change), or None when there is none.

        Raises: StoreUnavailableError."""
        stored = await self.keeper.store.get_tournament(tournament_id)
        return None if stored is None else stored.version

    async def view(self, tournament_id: str, viewer: int | None, lang: str) -> TournamentView | None:
        """Return the tournament as the Mini App shows it to ``viewer`` in ``lang``, or None when there is no such
        tournament (or its record cannot be read).

        Raises: StoreUnavailableError."""
        try:
            loaded = await self.keeper.load(tournament_id)
        except TournamentRecordError:
            return None
        if loaded is None:
            return None
        stored, record = loaded
        return build_view(tournament_id, stored.version, record, viewer, lang)


def build_view(
    tournament_id: str, version: int, record: TournamentRecord, viewer: int | None, lang: str
) -> TournamentView:
    """Return the view of ``record`` (stored at ``version``) for ``viewer`` in ``lang`` (see the module
    docstring); a tournament not started (or whose pairings cannot be read) has its entrants as standings and no
    pairings."""
    texts = {key: _t(lang, f"webapp.tour.{key}") for key in TEXT_KEYS if key not in ("bye", "champion")}
    texts["bye"] = _t(lang, "tour.bracket.bye")
    texts["champion"] = _t(lang, "tour.bracket.champion")
    fmt = record.settings.format
    status_text = _t(lang, f"webapp.tour.status.{record.status}")
    format_name = _t(lang, f"tour.format.{fmt}")
    try:
        tournament = record.tournament()
    except (TournamentRecordError, TournamentError):
        labels = table_labels(lang)
        mine = record.person(viewer) if viewer is not None else None
        rows = tuple(
            StandingRow(n, e.name, (str(round(e.rating)),), mine is not None and mine.pid == e.pid)
            for n, e in enumerate(record.entrants, start=1)
        )
        return TournamentView(
            tournament_id,
            version,
            fmt,
            record.status,
            status_text,
            format_name,
            None,
            (labels.rating,),
            rows,
            (),
            None,
            texts,
        )
    columns, rows = _standings(lang, record, tournament, viewer)
    current, pairings = _pairings(lang, record, tournament)
    bracket = _bracket(lang, record, tournament) if isinstance(tournament, Elimination) else None
    return TournamentView(
        tournament_id,
        version,
        fmt,
        record.status,
        status_text,
        html.unescape(format_title(lang, record, tournament)),
        current,
        columns,
        rows,
        pairings,
        bracket,
        texts,
    )
