"""The compact form of history records: every record a game writes reads back the same; a match stays small."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import Game, Match, SeededDice
from nardy.errors import GameStateError
from nardy.game_record import replay
from nardy.records import decode_record, encode_record, read_record
from tests.nardy.test_game import play_random


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["short", "long"]))
def test_every_record_of_a_game_round_trips(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    game = Game(variant, dice=SeededDice(seed))
    play_random(game, rng, cube_rate=0.05)
    for record in game.history:
        assert decode_record(encode_record(record)) == record
    compact = json.loads(json.dumps(game.to_dict(compact=True)))
    assert all(isinstance(r, str) for r in compact["history"])
    assert Game.from_dict(compact).to_dict() == game.to_dict()
    assert replay(compact)[-1].snapshot() == game.snapshot()


@pytest.mark.parametrize(
    "record",
    [
        {"t": "resign", "player": 1, "level": "gammon"},
        {"t": "abandon", "player": 0},
        {"t": "accept"},
        {"t": "decline"},
        {"t": "beaver"},
        {"t": "raccoon"},
        {"t": "pass"},
        {"t": "move", "steps": [[25, 22, 3, True], [6, 0, 6, False]]},
    ],
)
def test_rare_records_round_trip(record: dict[str, object]) -> None:
    assert decode_record(encode_record(record)) == record
    assert read_record(record) == record


@pytest.mark.parametrize("text", ["", "z", "o5", "o567", "m1.2", "mx.y.z", "s2gammon", "s0", "q3", "dd"])
def test_bad_compact_records_are_refused(text: str) -> None:
    with pytest.raises(GameStateError):
        decode_record(text)


def test_unknown_records_cannot_be_encoded() -> None:
    with pytest.raises(GameStateError):
        encode_record({"t": "teleport"})
    with pytest.raises(GameStateError):
        read_record(42)


def test_a_long_match_record_stays_small() -> None:
    """A match to 25 keeps its finished games compact: well under half the size of full records."""
    rng = random.Random(4)
    match = Match("short", 25, dice=SeededDice(4))
    while True:
        play_random(match.game, rng, cube_rate=0.05)
        if max(match.score_after_game()) >= 25:
            break
        match.next_game()
    compact = len(json.dumps(match.finished_games))
    full = len(json.dumps([Game.from_dict(g).to_dict() for g in match.finished_games]))
    assert len(match.finished_games) >= 5
    assert compact < 0.4 * full, (compact, full)
    loaded = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert loaded.to_dict() == match.to_dict()
