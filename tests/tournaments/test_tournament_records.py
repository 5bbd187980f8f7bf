"""Saving and loading tournaments: JSON round trips at every step of random tournaments, and malformed records."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import field, play_out

from tournaments import (
    FORMATS,
    SCHEMA_VERSION,
    Elimination,
    InvalidRecordError,
    NotPlayableError,
    Result,
    RoundRobin,
    Swiss,
    Tournament,
    TournamentError,
    double_elimination,
    double_round_robin,
    format_name,
    round_robin,
    single_elimination,
    swiss,
    tournament_from_dict,
    tournament_to_dict,
)


def _new(name: str, n: int, length: int, reset: bool) -> Tournament:
    players = field(n)
    if name == "round_robin":
        return round_robin(players, length=length)
    if name == "double_round_robin":
        return double_round_robin(players, length=length)
    if name == "swiss":
        return swiss(players, length=length)
    if name == "single_elimination":
        return single_elimination(players, length=length)
    return double_elimination(players, bracket_reset=reset, length=length)


def _reload(t: Tournament) -> Tournament:
    return tournament_from_dict(json.loads(json.dumps(tournament_to_dict(t))))


def _assert_same(t: Tournament, loaded: Tournament) -> None:
    assert type(loaded) is type(t)
    assert loaded == t
    assert loaded.playable() == t.playable()
    assert loaded.standings() == t.standings()
    assert loaded.is_over == t.is_over
    assert loaded.winners() == t.winners()
    assert loaded.results == t.results and loaded.withdrawn == t.withdrawn and loaded.events == t.events
    assert tournament_to_dict(loaded) == tournament_to_dict(t)


def _can_withdraw(t: Tournament) -> list[str]:
    out = {r.player for r in t.standings() if r.eliminated} if isinstance(t, Elimination) else set()
    return [p.id for p in t.players if p.id not in t.withdrawn and p.id not in out]


_SIZES = {"round_robin": 7, "double_round_robin": 5, "swiss": 9, "single_elimination": 9, "double_elimination": 7}


@settings(max_examples=100, deadline=None)
@given(
    name=st.sampled_from(FORMATS),
    n=st.integers(2, 9),
    seed=st.integers(0, 2**32 - 1),
    length=st.sampled_from((1, 1, 3)),
    withdrawals=st.integers(0, 2),
    reset=st.booleans(),
)
def test_json_round_trip_at_every_step(
    name: str, n: int, seed: int, length: int, withdrawals: int, reset: bool
) -> None:
    rng = random.Random(seed)
    t = _new(name, min(n, _SIZES[name]), length, reset)
    draws = length == 1 and not isinstance(t, Elimination)
    _assert_same(t, _reload(t))
    while not t.is_over:
        still = _can_withdraw(t)
        if withdrawals and still and rng.random() < 0.1:
            t = t.withdraw(rng.choice(still))
            withdrawals -= 1
        else:
            match = rng.choice(t.playable())
            winner = rng.choice((match.first, match.second, None) if draws else (match.first, match.second))
            low, high = sorted((rng.randint(0, 3), rng.randint(0, 3)))  # the winner never scored fewer
            first, second = (low, high) if winner == match.second else (high, low)
            t = t.record(Result(match.id, winner, first, second, winner is not None and rng.random() < 0.1))
        _assert_same(t, _reload(t))
    assert t.winners()


def test_record_layout() -> None:
    t = swiss(field(3), rounds=2)
    t = t.record(Result(t.playable()[0].id, "p2", 0, 1)).withdraw("p3")
    record = tournament_to_dict(t)
    assert record == {
        "schema": SCHEMA_VERSION,
        "format": "swiss",
        "players": [{"id": "p1", "rating": 1600.0}, {"id": "p2", "rating": 1590.0}, {"id": "p3", "rating": 1580.0}],
        "options": {"length": 1, "rounds": 2},
        "events": [
            {
                "type": "result",
                "match": "S1-1",
                "winner": "p2",
                "first_points": 0,
                "second_points": 1,
                "forfeit": False,
            },
            {"type": "withdraw", "player": "p3"},
        ],
    }
    assert t.events == (Result("S1-1", "p2", 0, 1), "p3")
    assert format_name(t) == "swiss"


def test_options_survive() -> None:
    players = field(5)
    for t in (
        double_round_robin(players, length=5),
        swiss(players, rounds=6, length=3),
        single_elimination(players, length=7),
        double_elimination(players, bracket_reset=False, length=9),
    ):
        loaded = _reload(play_out(t))
        assert loaded == play_out(t) and loaded.length == t.length
    loaded_swiss = _reload(swiss(players, rounds=6))
    assert isinstance(loaded_swiss, Swiss) and loaded_swiss.rounds == 6
    loaded_de = _reload(double_elimination(players, bracket_reset=False))
    assert isinstance(loaded_de, Elimination) and loaded_de.double and not loaded_de.bracket_reset
    loaded_rr = _reload(double_round_robin(players))
    assert isinstance(loaded_rr, RoundRobin) and loaded_rr.cycles == 2


def test_withdrawal_order_is_kept() -> None:
    # the same results and the same withdrawal, in a different order, are different tournaments
    t = round_robin(field(4))
    first = t.playable()[0]
    a = t.record(Result(first.id, first.first)).withdraw("p4")
    b = t.withdraw("p4")
    b = b.record(Result(first.id, first.first)) if first.id in {m.id for m in b.playable()} else b
    for x in (a, b):
        _assert_same(x, _reload(x))
    assert tournament_to_dict(a)["events"] != tournament_to_dict(b)["events"]


def test_hand_built_state_is_refused() -> None:
    t = round_robin(field(3))
    match = t.playable()[0]
    with pytest.raises(InvalidRecordError, match="events"):
        tournament_to_dict(RoundRobin(t.players, results=(Result(match.id, match.first),)))
    with pytest.raises(InvalidRecordError, match="events"):
        tournament_to_dict(Elimination(t.players, withdrawn=("p1",)))


def _base() -> dict[str, Any]:
    t = round_robin(field(3))
    t = t.record(Result(t.playable()[0].id, t.playable()[0].first))
    return tournament_to_dict(t)


def _edit(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    record = _base()
    change(record)
    return record


_RESULT = {"type": "result", "match": "R1-1", "winner": "p1", "first_points": 0, "second_points": 0, "forfeit": False}

MALFORMED: list[tuple[str, object, str]] = [
    ("not an object", [1, 2], "must be an object"),
    ("missing field", _edit(lambda r: r.pop("events")), "lacks events"),
    ("unknown field", _edit(lambda r: r.update(extra=1)), "unknown fields"),
    ("schema 2", _edit(lambda r: r.update(schema=2)), "unknown record schema 2"),
    ("schema as text", _edit(lambda r: r.update(schema="1")), "unknown record schema"),
    ("schema true", _edit(lambda r: r.update(schema=True)), "unknown record schema"),
    ("unknown format", _edit(lambda r: r.update(format="ladder")), "unknown tournament format 'ladder'"),
    ("unhashable format", _edit(lambda r: r.update(format=["swiss"])), "unknown tournament format"),
    ("swiss without rounds", _edit(lambda r: r.update(format="swiss")), "lacks rounds"),
    ("option of another format", _edit(lambda r: r["options"].update(rounds=3)), "unknown fields 'rounds'"),
    ("length zero", _edit(lambda r: r["options"].update(length=0)), "cannot build.*match length"),
    ("length as text", _edit(lambda r: r["options"].update(length="1")), "length must be an integer"),
    ("players not a list", _edit(lambda r: r.update(players="p1")), "players must be a list"),
    ("one player", _edit(lambda r: r.update(players=r["players"][:1], events=[])), "cannot build.*at least 2"),
    ("repeated player", _edit(lambda r: r["players"].append(r["players"][0])), "cannot build.*twice"),
    ("rating true", _edit(lambda r: r["players"][0].update(rating=True)), "rating must be a number"),
    ("rating nan", _edit(lambda r: r["players"][0].update(rating=math.nan)), "cannot build.*not finite"),
    ("player id number", _edit(lambda r: r["players"][0].update(id=7)), "id must be a string"),
    ("event type", _edit(lambda r: r["events"].append({"type": "draw"})), "event 1: unknown type 'draw'"),
    ("event not object", _edit(lambda r: r["events"].append("p1")), "event 1 must be an object"),
    ("event lacks forfeit", _edit(lambda r: r["events"][0].pop("forfeit")), "event 0 lacks forfeit"),
    ("points as text", _edit(lambda r: r["events"][0].update(first_points="1")), "first_points must be an integer"),
    ("replayed result", _edit(lambda r: r["events"].append(r["events"][0])), "event 1 does not apply.*not playable"),
    ("unknown match", _edit(lambda r: r["events"].append({**_RESULT, "match": "X9"})), "event 1 does not apply"),
    ("wrong winner", _edit(lambda r: r["events"][0].update(winner="p9")), "event 0 does not apply.*neither"),
    ("unknown player", _edit(lambda r: r["events"].append({"type": "withdraw", "player": "p9"})), "event 1 does"),
    (
        "withdraw twice",
        _edit(lambda r: r["events"].extend([{"type": "withdraw", "player": "p2"}] * 2)),
        "event 2 does not apply",
    ),
]


@pytest.mark.parametrize(("record", "message"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_records_are_refused(record: object, message: str) -> None:
    with pytest.raises(InvalidRecordError, match=message) as caught:
        tournament_from_dict(json.loads(json.dumps(record)))
    assert isinstance(caught.value, TournamentError) and isinstance(caught.value, ValueError)


def test_event_errors_keep_their_cause() -> None:
    record = _edit(lambda r: r["events"].append(r["events"][0]))
    with pytest.raises(InvalidRecordError) as caught:
        tournament_from_dict(record)
    assert isinstance(caught.value.__cause__, NotPlayableError)


def test_draw_refused_where_impossible_and_after_the_end() -> None:
    t = single_elimination(field(2))
    match = t.playable()[0]
    draw = _edit(lambda r: None)
    draw.update(format="single_elimination", players=tournament_to_dict(t)["players"][:2])
    draw["events"] = [{**_RESULT, "match": match.id, "winner": None}]
    with pytest.raises(InvalidRecordError, match=r"event 0 does not apply.*drawn"):
        tournament_from_dict(draw)
    over = tournament_to_dict(t.record(Result(match.id, match.first)))
    over["events"].append({"type": "withdraw", "player": match.second})
    with pytest.raises(InvalidRecordError, match=r"event 1 does not apply.*over"):
        tournament_from_dict(over)
