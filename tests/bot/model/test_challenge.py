"""Stored challenges: the documents the code before the typed model wrote load as their kind and write back the
same; a forged or garbled one is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.model.challenge import ChallengeError, ComputerOffer, GroupChallenge, PrivateChallenge, load_challenge
from bot.model.game import PlayerInfo

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("challenge_*.json"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_stored_challenge_loads_and_writes_back_the_same_document(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text())
    challenge = load_challenge(data)
    assert challenge.kind == data["kind"]
    assert challenge.to_dict() == data


def test_the_fixtures_hold_each_kind() -> None:
    kinds = {type(load_challenge(json.loads(path.read_text()))) for path in FIXTURES}
    assert kinds == {PrivateChallenge, GroupChallenge, ComputerOffer}


def test_an_addressed_card_names_its_opponent() -> None:
    alice, bob = PlayerInfo(1, "Alice", "en"), PlayerInfo(2, "Bob")
    card = GroupChallenge(alice, "long", -600, opponent=bob)
    assert load_challenge(card.to_dict()) == card
    assert "opponent" not in GroupChallenge(alice, "long", -600).to_dict()


_GOOD: dict[str, Any] = {"kind": "group", "challenger": {"id": 1, "name": "A"}, "variant": "short", "chat_id": -5}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "challenge"),
        ({"kind": "game"}, "'kind'"),
        ({**_GOOD, "chat_id": "x"}, "chat_id"),
        ({k: v for k, v in _GOOD.items() if k != "chat_id"}, "chat_id"),
        ({**_GOOD, "variant": "chess"}, "unknown variant"),
        ({**_GOOD, "challenger": {"id": "1", "name": "A"}}, "challenger.id"),
        ({**_GOOD, "challenger": {"id": 1}}, "challenger.name"),
        ({**_GOOD, "opponent": {"name": "B"}}, "opponent.id"),
        ({**_GOOD, "length": "3"}, "length"),
        ({"kind": "computer"}, "chat_id"),
    ],
)
def test_malformed_challenges_are_refused(data: object, message: str) -> None:
    with pytest.raises(ChallengeError) as caught:
        load_challenge(data)
    assert message in str(caught.value)
