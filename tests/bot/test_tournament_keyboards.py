"""Tournament buttons: every packed button fits Telegram's 64 bytes, parses back, and forged data is refused."""

from __future__ import annotations

import itertools

import pytest
from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH

from bot.keyboards.tournament import (
    SetupCb,
    TourCb,
    menu_keyboard,
    next_settings,
    registration_keyboard,
    setup_callback,
    setup_keyboard,
)
from bot.model.clock import TimeControl
from bot.model.tournament import DEADLINES, FORMAT_CODES, LENGTHS, LIMITS, TournamentSettings
from bot.variants import OFFERED

LONGEST_OWNER = 9_999_999_999


def _callbacks(markup: object) -> list[str]:
    rows = markup.inline_keyboard
    return [b.callback_data for row in rows for b in row if b.callback_data]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_creation_card_button_fits_and_parses_back(lang: str) -> None:
    for fmt, length, deadline, limit in itertools.product(FORMAT_CODES, LENGTHS, DEADLINES, LIMITS):
        settings = TournamentSettings("hypergammon", fmt, length, deadline, "private", limit, 7 if fmt == "sw" else 0)
        for data in _callbacks(setup_keyboard(LONGEST_OWNER, settings, lang)):
            assert len(data.encode()) <= MAX_CALLBACK_LENGTH, data
            parsed = SetupCb.unpack(data)
            assert parsed.owner == LONGEST_OWNER and parsed.settings() == settings


def test_registration_and_menu_buttons_fit() -> None:
    tid = "A" * 10
    markups = [
        registration_keyboard(tid, "ru", deep_link="https://t.me/x?start=t_" + tid),
        menu_keyboard(tid, "en", watch=[("a – b", str(i)) for i in range(8)]),
    ]
    for markup in markups:
        for data in _callbacks(markup):
            assert len(data.encode()) <= MAX_CALLBACK_LENGTH
            assert TourCb.unpack(data).tournament_id == tid


def test_each_option_cycles_through_all_its_values_and_back() -> None:
    start = TournamentSettings()
    # the formats: five tournament formats and the arena
    for action, count in (("v", len(OFFERED)), ("f", 6), ("n", 7), ("d", 4), ("p", 2), ("m", 4), ("r", 6)):
        seen = [start]
        current = start
        for _ in range(count):
            current = next_settings(current, action)  # type: ignore[arg-type]
            seen.append(current)
        assert current == start
        assert len(set(seen)) == count


@pytest.mark.parametrize(
    "data",
    [
        "ts:1:short:rr:2:24h:private:16:0:go",  # a length not on offer
        "ts:1:short:xx:1:24h:private:16:0:go",
        "ts:0:short:rr:1:24h:private:16:0:go",
        "ts:1:chess:rr:1:24h:private:16:0:go",  # no such variant
        "ts:1:PORTES:rr:1:24h:private:16:0:go",
        "tt:short:join:-",
        "tt:AAAAAAAAAA:explode:-",
        "tt:AAAAAAAAAA:add:<b>",
    ],
)
def test_forged_tournament_buttons_are_refused(data: str) -> None:
    cls = SetupCb if data.startswith("ts:") else TourCb
    with pytest.raises((ValueError, TypeError)):
        parsed = cls.unpack(data)
        if isinstance(parsed, SetupCb):
            parsed.settings()


def test_existing_and_new_variant_buttons_parse() -> None:
    assert SetupCb.unpack("ts:1:short:rr:1:24h:private:16:0:go").settings().variant == "short"
    assert SetupCb.unpack("ts:1:portes:rr:1:24h:private:16:0:go").settings().variant == "portes"


def test_a_creation_card_on_a_clock_fits_a_button_and_keeps_the_clock() -> None:
    """The longest creation-card button with the longest clock label stays within Telegram's 64 bytes, and a press
    reads the clock back (docs/rules.md §1 "Time control")."""
    for variant in OFFERED:
        for control in ("60+0.25", "60+9.75", "0+10"):
            settings = TournamentSettings(
                variant=variant, format="drr", length=13, limit=32, rounds=7, clock=TimeControl.parse(control)
            )
            data = setup_callback(10**13, settings, "go")
            assert len(data.encode()) <= 64
            assert SetupCb.unpack(data).settings() == settings
