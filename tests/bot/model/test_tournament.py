"""The stored tournament record: round trip, refusal of malformed records, deterministic game ids, and the
tournament documents the code before the typed model wrote (fixtures/tournament_*.json) read back unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.model.tournament import Entrant, TournamentRecord, TournamentRecordError, TournamentSettings
from bot.services.tournaments.rules import build_tournament, match_outcome
from nardy import Match
from tournaments import tournament_to_dict


def _record() -> TournamentRecord:
    entrants = tuple(Entrant(f"u{i}", f"Игрок {i}", 1500.0 + i, i, None, "ru") for i in range(1, 6))
    record = TournamentRecord(chat_id=-100, organiser=1, settings=TournamentSettings(format="sw"), entrants=entrants)
    core = build_tournament(record)
    return record.with_changes(status="running", core=tournament_to_dict(core), games={"S1-1": "abcdefghij"})


def test_round_trip_through_json() -> None:
    record = _record()
    again = TournamentRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record
    assert again.tournament().playable() == record.tournament().playable()


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(schema=99),
        lambda d: d["settings"].update(length=2),
        lambda d: d["entrants"][0].pop("pid"),
        lambda d: d.update(chat_id="x"),
        lambda d: d.update(unknown=1),
    ],
)
def test_malformed_records_are_refused(change: object) -> None:
    data = _record().to_dict()
    change(data)  # type: ignore[operator]
    with pytest.raises(TournamentRecordError):
        TournamentRecord.from_dict(data)


def test_game_ids_depend_only_on_the_tournament_and_the_match() -> None:
    record = _record()
    first = record.game_id_for("T123456789", "S1-1")
    assert first == record.game_id_for("T123456789", "S1-1")
    assert first != record.game_id_for("T123456789", "S1-2")
    assert len(first) == 10


def test_match_outcome_of_a_finished_session() -> None:
    match = Match("short", 1)
    assert match_outcome(match.to_dict()) is None  # still going on
    match.game.roll()
    match.game.abandon(1)
    assert match_outcome(match.to_dict()) == (0, (1, 0))


FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("tournament_*.json"))


def test_the_fixtures_cover_registration_a_round_under_way_and_the_end() -> None:
    assert {path.stem for path in FIXTURES} == {
        "tournament_registration",
        "tournament_running",
        "tournament_finished",
    }


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_stored_tournament_loads_and_writes_back_the_same_document(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text())
    record = TournamentRecord.from_dict(data)
    assert record.to_dict() == data
    if record.core is not None:
        assert record.tournament().players  # the pure tournament rebuilds from it


def test_the_running_fixture_is_in_the_middle_of_its_rounds() -> None:
    record = TournamentRecord.from_dict(
        json.loads((Path(__file__).parent / "fixtures/tournament_running.json").read_text())
    )
    assert record.status == "running" and record.games
    results = [e for e in (record.core or {})["events"] if e.get("type") == "result"]
    assert 0 < len(results) < len(record.games) or record.outbox
