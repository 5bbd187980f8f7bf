"""Tournaments as text for a chat that takes no pictures (:mod:`bot.services.tournaments.text_views`): the standings
with the pictures' columns, the bracket round by round, in one message Telegram takes however large the field and
long the names; and the standings picture's caption cut where Telegram allows."""

from __future__ import annotations

import pytest

from bot.model.tournament import Entrant, TournamentRecord, TournamentSettings
from bot.services.captions import visible_length
from bot.services.tournaments.chat_views import standings_caption
from bot.services.tournaments.text_views import MAX_MESSAGE, bracket_text, fit_lines, match_line, standings_text
from bot.services.tournaments.view_model import BracketMatch
from tests.bot.fake_telegram import MAX_CAPTION_LENGTH, check_formatted, telegram_visible_text
from tournaments import (
    Elimination,
    Player,
    Result,
    Tournament,
    double_elimination,
    round_robin,
    single_elimination,
    swiss,
)
from tournaments.records import tournament_to_dict


def _players(count: int) -> list[Player]:
    return [Player(f"p{i}", 1500.0 - i) for i in range(count)]


def _record(
    fmt: str, tournament: Tournament, players: list[Player], names: dict[str, str] | None = None
) -> TournamentRecord:
    names = names or {}
    return TournamentRecord(
        chat_id=-1,
        organiser=1,
        settings=TournamentSettings(format=fmt),
        status="running",
        entrants=tuple(Entrant(p.id, names.get(p.id, p.id.upper()), p.rating) for p in players),
        core=tournament_to_dict(tournament),
        lang="en",
    )


def _play(tournament: Tournament, matches: int) -> Tournament:
    """Record ``matches`` results, the first player of each winning 1–0."""
    for _ in range(matches):
        playable = tournament.playable()
        if not playable:
            break
        match = playable[0]
        tournament = tournament.record(Result(match.id, match.first, 1, 0))
    return tournament


def _takes(text: str, limit: int = MAX_MESSAGE) -> None:
    assert check_formatted(text, "HTML", limit) is None, text


@pytest.mark.parametrize("name", ["&" * 129, "<b>" * 43, "😀" * 64], ids=["ampersands", "tags", "emoji"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_largest_field_with_the_longest_names_fits_one_message(name: str, lang: str) -> None:
    players = _players(32)
    tournament = _play(double_elimination(players), 40)
    record = _record("de", tournament, players, {p.id: f"{name}{p.id}" for p in players})
    assert isinstance(tournament, Elimination)
    for text in (bracket_text(lang, record, tournament), standings_text(lang, record, tournament)):
        _takes(text)
        last = telegram_visible_text(text).splitlines()[-1]
        assert last.startswith("… and ") if lang == "en" else last.startswith("… и ещё ")  # the rest, counted
        assert visible_length(text) > MAX_MESSAGE - 600  # nearly all the room is used
    standings = standings_text(lang, record, tournament)
    assert f"{name}p0" in telegram_visible_text(standings)


def test_the_bracket_names_its_rounds_marks_winners_and_crowns_the_champion() -> None:
    players = _players(4)
    tournament: Tournament = single_elimination(players)
    record = _record("se", tournament, players)
    assert isinstance(tournament, Elimination)
    text = bracket_text("en", record, tournament)
    assert text.splitlines()[:3] == ["<b>Bracket (single elimination)</b>", "<b>Semifinal</b>", "P0 – P3"]
    assert "Final" not in text  # nobody has reached it yet
    tournament = _play(tournament, 3)
    assert isinstance(tournament, Elimination) and tournament.is_over
    record = _record("se", tournament, players)
    text = bracket_text("ru", record, tournament)
    assert "<b>Полуфинал</b>\n<b>P0</b> – P3 · 1:0" in text
    assert text.endswith("<b>Финал</b>\n<b>P0</b> – P1 · 1:0\n🏆 Чемпион: P0")
    _takes(text)


def test_a_small_elimination_shows_its_bracket_as_its_standings() -> None:
    players = _players(5)
    tournament = _play(single_elimination(players), 1)
    record = _record("se", tournament, players)
    assert isinstance(tournament, Elimination)
    text = standings_text("en", record, tournament)
    assert text == bracket_text("en", record, tournament)
    assert text.splitlines()[1:7] == [
        "<b>Quarterfinal</b>",
        "<b>P0</b> · bye",  # a bye goes on, like a winner
        "<b>P3</b> – P4 · 1–0",
        "<b>P1</b> · bye",
        "<b>P2</b> · bye",
        "<b>Semifinal</b>",
    ]


def test_match_lines() -> None:
    assert match_line("en", BracketMatch("W1-1", (None, None))) is None
    assert match_line("en", BracketMatch("W1-1", ("Anna", ""))) == "Anna · bye"
    assert match_line("ru", BracketMatch("W1-1", ("", "Anna"), winner=1)) == "<b>Anna</b> · без игры"
    assert match_line("en", BracketMatch("W2-1", ("A&B", None))) == "A&amp;B – ?"
    assert match_line("en", BracketMatch("W1-2", ("Anna", "Boris"), playing=True)) == "Anna – Boris · in play"
    decided = BracketMatch("W1-2", ("Anna", "Boris"), winner=1, score="1–3")
    assert match_line("en", decided) == "Anna – <b>Boris</b> · 1–3"
    assert match_line("ru", decided) == "Anna – <b>Boris</b> · 1:3"


def test_round_robin_and_swiss_standings_carry_the_pictures_columns() -> None:
    players = _players(4)
    robin = _play(round_robin(players), 2)
    text = standings_text("en", _record("rr", robin, players), robin)
    lines = text.splitlines()
    assert lines[0] == "<b>Standings (round robin)</b>"
    assert lines[2].startswith("<b>1.</b> P0 · Pl 1 · W 1 · D 0 · L 0 · Pts 1 · SB ")
    assert lines[-1] == "Matches being played: 2"
    tour = _play(swiss(players, rounds=3), 2)
    russian = standings_text("ru", _record("sw", tour, players), tour)
    assert "тур 1 из 3" in russian.splitlines()[1] and "Рейтинг 1500" in russian
    _takes(text)
    _takes(russian)


def test_fit_lines_keeps_whole_lines() -> None:
    lines = [f"line {n} " + "x" * 90 for n in range(100)]
    text = fit_lines("en", lines, limit=1000)
    kept = text.splitlines()
    assert kept[:-1] == lines[: len(kept) - 1] and kept[-1] == f"… and {100 - len(kept) + 1} more"
    assert visible_length(text) <= 1000
    assert fit_lines("en", lines[:3], limit=1000) == "\n".join(lines[:3])


def test_the_standings_caption_is_cut_where_telegram_allows() -> None:
    """It was cut at 1,000 characters of HTML: inside "&amp;" when names are full of ampersands."""
    players = _players(16)
    tournament = _play(single_elimination(players), 12)
    for fill in ("&", "&&", "<>"):
        record = _record("se", tournament, players, {p.id: fill * 40 + p.id for p in players})
        caption = standings_caption("en", record, tournament)
        _takes(caption, MAX_CAPTION_LENGTH)
        assert visible_length(caption) > MAX_CAPTION_LENGTH - 100
