"""The typed game record reads every stored game document the code before it wrote, and writes it back as the
same JSON document (fixtures captured by ``capture_fixtures.py``); any record it writes reads back equal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.model.game import SCHEMA, ChatLink, FairSeeds, GameRecord, PlayerInfo, RecordError, StatsEntry, TournamentLink
from nardy import Match, SeededDice, Step

FIXTURES = Path(__file__).parent / "fixtures"
GAMES = sorted(FIXTURES.glob("game_*.json"))


def _document(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_the_fixtures_cover_the_kinds_of_games() -> None:
    names = {path.stem for path in GAMES}
    assert names >= {
        "game_finished",
        "game_running_match_cube",
        "game_computer",
        "game_forfeit",
        "game_rating_plan",
        "game_tournament",
        "game_fairness",
    }


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_stored_game_loads_and_writes_back_the_same_document(path: Path) -> None:
    data = _document(path)
    record = GameRecord.from_dict(data)
    assert record.extra == {}  # every key the bot writes is a declared field
    assert record.to_dict() == data
    assert json.loads(record.to_json()) == data
    assert GameRecord.from_json(json.dumps(data)) == record


def test_the_fixtures_hold_what_their_names_say() -> None:
    cube = GameRecord.from_dict(_document(FIXTURES / "game_running_match_cube.json"))
    assert cube.match["length"] == 3 and cube.match["game"]["state"]["cube"] == [2, 0]
    forfeit = GameRecord.from_dict(_document(FIXTURES / "game_forfeit.json"))
    assert forfeit.forfeit in (0, 1) and forfeit.tournament is not None and forfeit.stats_plan == []
    rated = GameRecord.from_dict(_document(FIXTURES / "game_rating_plan.json"))
    assert rated.rating_planned and rated.rating_plan is not None
    assert set(rated.rating_plan) == {"variant", "length", "winner", "loser", "chats"}
    computer = GameRecord.from_dict(_document(FIXTURES / "game_computer.json"))
    assert computer.against_computer
    fair = GameRecord.from_dict(_document(FIXTURES / "game_fairness.json"))
    assert isinstance(fair.fairness, FairSeeds)


def test_an_unrated_finish_keeps_its_null_plan_and_a_running_game_has_none() -> None:
    data = _document(FIXTURES / "game_computer.json")
    data.pop("rating_plan", None)
    record = GameRecord.from_dict(data)
    assert "rating_plan" not in record.to_dict() and not record.rating_planned
    record.plan_rating(None)
    assert record.to_dict()["rating_plan"] is None
    assert GameRecord.from_dict(record.to_dict()).rating_planned


def test_keys_of_a_newer_version_survive_a_save() -> None:
    data = {**_document(FIXTURES / "game_finished.json"), "future": {"x": [1, 2]}, "schema": SCHEMA}
    record = GameRecord.from_dict(data)
    assert record.extra == {"future": {"x": [1, 2]}}
    assert record.to_dict() == data


def test_a_newer_schema_is_refused() -> None:
    with pytest.raises(RecordError, match="schema 3"):
        GameRecord.from_dict({**_document(FIXTURES / "game_finished.json"), "schema": 3})


_MATCH = Match("short", dice=SeededDice(3)).to_dict()
_ids = st.integers(min_value=-(2**53), max_value=2**53)
_text = st.text(max_size=12)
_optional_text = st.none() | st.text(min_size=1, max_size=8)
_times = st.none() | st.floats(min_value=0, max_value=2e9, allow_nan=False)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
_players = st.builds(PlayerInfo, _ids, _text, st.sampled_from(["ru", "en"]), st.none() | st.just("hard"))
_chats = st.builds(ChatLink, _ids, st.none() | st.sampled_from([0, 1]), st.none() | _ids, _optional_text)
_steps = st.builds(Step, st.integers(1, 26), st.integers(0, 24), st.integers(1, 6), st.booleans())
_stats = st.builds(
    StatsEntry, _ids, st.dictionaries(_ids, st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9)))
)


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    record = GameRecord(
        match=_MATCH,
        players=draw(st.lists(_players, min_size=2, max_size=2)),
        chats=draw(st.lists(_chats, min_size=1, max_size=3)),
        kind=draw(st.sampled_from(["group", "private"])),
        confirm=draw(st.booleans()),
        pending_steps=draw(st.lists(_steps, max_size=4)),
        chosen=draw(st.integers(0, 4)),
        turn_base=draw(st.none() | st.integers(0, 4)),
        events=draw(st.lists(st.dictionaries(st.text(max_size=4), _json, max_size=3), max_size=3)),
        reminded=draw(st.booleans()),
        last_action=draw(_times),
        turn_deadline=draw(_times),
        op=draw(st.none() | _text),
        stats_plan=draw(st.none() | st.lists(_stats, max_size=2)),
        rematch=draw(st.none() | _text),
        tournament=draw(st.none() | st.builds(TournamentLink, _text, _text)),
        fairness=draw(st.none() | st.builds(FairSeeds, _text, _text, _text)),
        forfeit=draw(st.none() | st.sampled_from([0, 1])),
        extra=draw(st.dictionaries(st.sampled_from(["future", "later", "x1"]), _json, max_size=2)),
    )
    if draw(st.booleans()):
        record.plan_rating(draw(st.none() | st.dictionaries(st.text(max_size=4), _json, max_size=3)))
    return record


@given(records())
def test_any_record_reads_back_equal(record: GameRecord) -> None:
    data = record.to_dict()
    assert json.loads(json.dumps(data)) == data  # JSON-compatible as it is
    again = GameRecord.from_dict(data)
    assert again == record
    assert again.to_dict() == data
    assert GameRecord.from_json(record.to_json()) == record


def test_the_record_reads_its_match_through_typed_accessors() -> None:
    cube = GameRecord.from_dict(_document(FIXTURES / "game_running_match_cube.json"))
    assert cube.variant == cube.match["variant"] and cube.match_kind == cube.match["variant"]
    assert cube.match_length == 3
    assert cube.match_games == [*cube.match["finished_games"], cube.match["game"]]
    finished = GameRecord.from_dict(_document(FIXTURES / "game_finished.json"))
    assert finished.moves_played
    fresh = GameRecord.new(Match("short", dice=SeededDice(3)).to_dict(), cube.players, cube.chats, kind="group")
    assert fresh.variant == "short" and fresh.match_length == 0 and not fresh.moves_played
    assert len(fresh.match_games) == 1
    rotating = GameRecord.new({"variant": "long", "kind": "mixed", "length": 0}, cube.players, cube.chats, kind="group")
    assert rotating.match_kind == "mixed" and rotating.match_games == [{}]
    assert not cube.rotating
    assert GameRecord.new({"rotation": ["long", "short"]}, cube.players, cube.chats, kind="group").rotating
    assert cube.match_options == Match.from_dict(cube.match).options
    assert cube.final_score == list(Match.from_dict(cube.match).score)  # a game still played adds nothing
    for name in ("game_finished", "game_forfeit"):
        over = GameRecord.from_dict(_document(FIXTURES / f"{name}.json"))
        assert tuple(over.final_score) == Match.from_dict(over.match).score_after_game()
    assert over.kind_name is None and over.match_kind == over.variant
    assert GameRecord.new({"variant": 1}, cube.players, cube.chats, kind="group").variant is None


def test_a_chat_link_says_what_kind_of_chat_it_is() -> None:
    private, group = ChatLink(5, 0), ChatLink(-100123)
    inline = ChatLink(-(2**52) - 7, inline="AgAAAbc")
    assert private.is_private and not private.is_group and not private.is_inline and not private.is_shared
    assert group.is_group and group.is_shared and not group.is_private and not group.is_inline
    assert inline.is_inline and inline.is_shared and not inline.is_group and not inline.is_private
    assert ChatLink.from_dict(inline.to_dict()).is_inline
