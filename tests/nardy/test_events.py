"""The history events: each kind reads and writes exactly the record a game has always saved, in its dict and its
compact text form, and a game's history is its events."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.dice import SeededDice
from nardy.errors import GameStateError
from nardy.events import (
    EVENT_TYPES,
    Abandoned,
    Beavered,
    Doubled,
    DoubleNamed,
    Dropped,
    GameEvent,
    Moved,
    OpeningRolled,
    Passed,
    Raccooned,
    ResignationAccepted,
    ResignationDeclined,
    Resigned,
    Rolled,
    Taken,
    event_from_dict,
    read_event,
)
from nardy.game import Game, Phase
from nardy.move import Step
from nardy.options import Options
from nardy.records import decode_record, encode_record

# every kind of record a game writes, as saved games hold it
SAVED_RECORDS: list[tuple[dict[str, Any], GameEvent]] = [
    ({"t": "open", "dice": [5, 3]}, OpeningRolled((5, 3))),
    ({"t": "roll", "dice": [6, 6]}, Rolled((6, 6))),
    (
        {"t": "move", "steps": [[13, 8, 5, False], [6, 5, 1, True]]},
        Moved((Step(13, 8, 5, False), Step(6, 5, 1, True))),
    ),
    ({"t": "move", "steps": []}, Moved(())),
    ({"t": "pass"}, Passed()),
    ({"t": "choose", "die": 3}, DoubleNamed(3)),
    ({"t": "double"}, Doubled()),
    ({"t": "take"}, Taken()),
    ({"t": "drop"}, Dropped()),
    ({"t": "beaver"}, Beavered()),
    ({"t": "raccoon"}, Raccooned()),
    ({"t": "resign", "player": 0, "level": "gammon"}, Resigned(0, "gammon")),
    ({"t": "accept"}, ResignationAccepted()),
    ({"t": "decline"}, ResignationDeclined()),
    ({"t": "abandon", "player": 1}, Abandoned(1)),
]


def test_there_is_one_event_class_per_record_kind() -> None:
    kinds = [cls.kind for cls in EVENT_TYPES]
    assert len(set(kinds)) == len(kinds) == 14
    assert set(kinds) == {event.kind for _, event in SAVED_RECORDS}


@pytest.mark.parametrize(("record", "event"), SAVED_RECORDS, ids=lambda value: str(value)[:40])
def test_each_saved_record_reads_as_its_event_and_is_written_back_unchanged(
    record: dict[str, Any], event: GameEvent
) -> None:
    read = event_from_dict(record)
    assert read == event
    assert type(read) is type(event)
    assert read.to_dict() == record
    assert list(read.to_dict()) == list(record)  # the same keys in the same order: the same JSON
    assert type(event).from_dict(record) == event


@pytest.mark.parametrize(("record", "event"), SAVED_RECORDS, ids=lambda value: str(value)[:40])
def test_each_event_reads_from_its_compact_form(record: dict[str, Any], event: GameEvent) -> None:
    compact = encode_record(event.to_dict())
    assert compact == encode_record(record)
    assert read_event(compact) == event
    assert decode_record(compact) == event.to_dict()


def test_events_are_immutable() -> None:
    event = Rolled((5, 6))
    with pytest.raises(AttributeError):
        event.dice = (1, 1)  # type: ignore[misc]


@pytest.mark.parametrize(
    "record",
    [
        {"t": "jump"},
        {"kind": "roll", "dice": [1, 2]},
        {"t": ["roll"], "dice": [1, 2]},
        {"t": "roll", "dice": [0, 7]},
        {"t": "open", "dice": [True, 2]},
    ],
)
def test_a_record_no_game_writes_is_refused(record: dict[str, Any]) -> None:
    with pytest.raises(GameStateError):
        event_from_dict(record)


@pytest.mark.parametrize("record", [{"t": "roll"}, {"t": "move", "steps": [[1, 2]]}, {"t": "resign", "player": "x"}])
def test_a_record_with_a_missing_or_malformed_field_is_refused(record: dict[str, Any]) -> None:
    with pytest.raises((KeyError, TypeError, ValueError)):
        event_from_dict(record)


dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
steps = st.lists(
    st.builds(Step, st.integers(1, 26), st.integers(0, 25), st.integers(1, 6), st.booleans()), max_size=4
).map(tuple)
events = st.one_of(
    dice.map(OpeningRolled),
    dice.map(Rolled),
    steps.map(Moved),
    st.integers(1, 6).map(DoubleNamed),
    st.builds(Resigned, st.integers(0, 1), st.sampled_from(["single", "gammon", "backgammon", "oin", "mars"])),
    st.integers(0, 1).map(Abandoned),
    st.sampled_from(
        [Passed(), Doubled(), Taken(), Dropped(), Beavered(), Raccooned(), ResignationAccepted(), ResignationDeclined()]
    ),
)


def _old_shape(event: GameEvent) -> dict[str, Any]:
    """The record as the game wrote it before its events were typed."""
    match event:
        case OpeningRolled() | Rolled():
            return {"t": event.kind, "dice": [event.dice[0], event.dice[1]]}
        case Moved():
            return {"t": "move", "steps": [[s.src, s.dst, s.die, s.hit] for s in event.steps]}
        case DoubleNamed():
            return {"t": "choose", "die": event.die}
        case Resigned():
            return {"t": "resign", "player": event.player, "level": event.level}
        case Abandoned():
            return {"t": "abandon", "player": event.player}
        case _:
            return {"t": event.kind}


@given(events)
def test_every_event_round_trips_through_the_old_record_shape(event: GameEvent) -> None:
    record = event.to_dict()
    assert record == _old_shape(event)
    assert event_from_dict(record) == event
    assert read_event(encode_record(record)) == event


@pytest.mark.parametrize("variant", ["short", "long", "acey_deucey", "gulbara", "plakoto"])
def test_a_games_history_is_its_events_as_records(variant: str) -> None:
    game = Game(variant, options=Options(), dice=SeededDice(7))
    while game.phase is not Phase.OVER and len(game.events) < 120:
        if game.phase is Phase.MOVE:
            game.play(game.legal_moves()[0])
        elif game.phase is Phase.CHOOSE:
            game.choose_double(4)
        else:
            game.roll()
    assert game.history == [event.to_dict() for event in game.events]
    assert isinstance(game.events[0], OpeningRolled)
    assert any(isinstance(event, Moved) for event in game.events)
    saved = game.to_dict()
    assert saved["history"] == game.history
    assert Game.from_dict(saved).events == game.events
    assert Game.from_dict(saved, verify=True).events == game.events
    assert Game.from_dict(game.to_dict(compact=True)).events == game.events
