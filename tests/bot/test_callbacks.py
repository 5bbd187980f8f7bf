"""Callback data: packed sizes within Telegram's 64 bytes, and a parser that refuses anything malformed."""

from __future__ import annotations

import pytest
from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH
from hypothesis import given
from hypothesis import strategies as st

from bot.keyboards.callbacks import (
    ChallengeCb,
    ComputerCb,
    GameCb,
    LangCb,
    MenuCb,
    SettingsCb,
    parse_callback,
)
from bot.storage import new_id

LONGEST = [
    GameCb(game_id="Z" * 10, version=999_999_999, action="x" * 20),
    GameCb(game_id="a-b_c-d_e-", version=1, action="bar/22+24>18"),
    ChallengeCb(challenge_id="Z" * 10, action="decline"),
    LangCb(code="en"),
    MenuCb(action="m" * 16),
    SettingsCb(key="k" * 16, value="v" * 16),
]


@pytest.mark.parametrize("cb", LONGEST, ids=lambda cb: type(cb).__name__)
def test_longest_values_fit_and_round_trip(cb: object) -> None:
    packed = cb.pack()  # type: ignore[attr-defined]
    assert len(packed.encode()) <= MAX_CALLBACK_LENGTH
    assert parse_callback(packed) == cb


def test_real_ids_round_trip() -> None:
    cb = GameCb(game_id=new_id(), version=42, action="13/7")
    assert parse_callback(cb.pack()) == cb


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "g",
        "g:",
        "x:1:2",
        "g:short:1:13/7",  # bad id
        "g:aaaaaaaaaa:0:13/7",  # version 0
        "g:aaaaaaaaaa:-1:13/7",
        "g:aaaaaaaaaa:abc:13/7",
        "g:aaaaaaaaaa:1:",  # empty action
        "g:aaaaaaaaaa:1:13/7:extra",
        "g:aaaaaaaaaa:1:a b",
        "g:aaaaaaaaaa:1:" + "x" * 21,
        "g:aaaaaaaaaa:1:" + "x" * 60,  # oversized
        "c:aaaaaaaaaa:steal",
        "lang:de",
        "lang:",
        "m:DROP TABLE",
        "s:variant",
        "g:ааааааааaa:1:13/7",  # Cyrillic letters
        "\x00\x01\x02",
    ],
)
def test_garbled_data_is_refused(data: str | None) -> None:
    assert parse_callback(data) is None


@given(st.text(max_size=80))
def test_parser_never_raises(data: str) -> None:
    result = parse_callback(data)
    if result is not None:
        assert result.pack() == data


def test_packing_an_invalid_value_fails() -> None:
    with pytest.raises(ValueError):
        GameCb(game_id="bad:id:000", version=1, action="x")
    with pytest.raises(ValueError):
        GameCb(game_id="a" * 10, version=1, action="x:y")


def test_computer_chooser_buttons_keep_their_wire_format() -> None:
    old = parse_callback("ai:aaaaaaaaaa:pick:long:hard")
    assert old == ComputerCb(offer_id="a" * 10, action="pick", variant="long", level="hard")
    assert parse_callback("ai:aaaaaaaaaa:go:hypergammon:easy") is not None
    assert parse_callback("ai:aaaaaaaaaa:go:Bad Word:easy") is None
