"""The time control and the game clock (docs/rules.md §1 "Time control"): parsing ``D+r`` with its limits, the
reserve of a match, charging an action (the delay is free, the reserve never grows), the deadline, and the stored
form in the game record, a challenge and the tournament settings (records without a clock read as before)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bot.model.challenge import GroupChallenge, PrivateChallenge, load_challenge
from bot.model.clock import FIRST_MOVE_WINDOW, ClockError, GameClock, TimeControl, clock_in, format_reserve
from bot.model.codec import dump, load
from bot.model.game import GameRecord, PlayerInfo
from bot.model.tournament import TournamentSettings
from bot.services.clocks import earliest

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_control_is_read_as_delay_plus_minutes_per_point() -> None:
    control = TimeControl.parse("12+1")
    assert (control.delay, control.per_point, control.label) == (12.0, 1.0, "12+1")
    assert TimeControl.parse(" 0 + 0,25 ").per_point == 0.25
    assert TimeControl.parse("60+10").reserve(5) == 3000.0  # 10 min per point, match to 5
    assert control.reserve(0) == control.reserve(1) == 60.0  # a single game counts as one point


@pytest.mark.parametrize("text", ["61+1", "12+0.2", "12+11", "12", "a+b", "-1+1", "12+1+1", "", "12.5+1", "1+0.125"])
def test_a_control_out_of_its_limits_or_malformed_is_refused(text: str) -> None:
    with pytest.raises(ClockError) as caught:
        TimeControl.parse(text)
    assert caught.value.value == text


def test_the_clock_is_found_in_a_command_s_arguments() -> None:
    assert clock_in("short match 5") is None
    assert clock_in(None) is None
    assert clock_in("short match 5 clock 12+1") == TimeControl(12.0, 1.0)
    assert clock_in("длинные контроль 5+2") == TimeControl(5.0, 2.0)
    with pytest.raises(ClockError) as caught:
        clock_in("short clock 99+1")
    assert caught.value.value == "99+1"
    with pytest.raises(ClockError):
        clock_in("short clock")


def _opened(clock: GameClock) -> GameClock:
    """``clock`` with both players' first actions made (so the clock, not the first-move window, times them)."""
    return dataclasses.replace(clock, first=())


def test_the_delay_is_free_and_the_time_beyond_it_comes_off_the_reserve() -> None:
    clock = _opened(GameClock.new(TimeControl(12.0, 1.0), 3)).start(0, 1000.0)
    assert clock.reserves == (180.0, 180.0) and clock.deadline() == 1000.0 + 12 + 180
    assert clock.left(0, 1010.0) == 180.0  # within the delay: nothing spent
    within = clock.charge(1011.0)
    assert within.reserves == (180.0, 180.0) and within.running is None
    beyond = clock.charge(1042.0)  # 42 s used: 30 beyond the delay
    assert beyond.reserves == (150.0, 180.0)
    assert beyond.start(1, 1042.0).deadline() == 1042.0 + 12 + 180
    assert not clock.expired(1191.9) and clock.expired(1192.0)
    assert clock.charge(5000.0).reserves[0] == 0.0  # never below 0
    out = clock.ran_out()
    assert (out.flag, out.reserves[0], out.running) == (0, 0.0, None)
    assert format_reserve(150.0) == "2:30" and format_reserve(59.9) == "0:59"


def test_the_game_deadline_is_the_earlier_of_the_turn_deadline_and_the_clock() -> None:
    record = _record()
    assert earliest(5000.0, record) == 5000.0
    record.clock = _opened(GameClock.new(TimeControl(10.0, 1.0), 0)).start(1, 1000.0)
    assert earliest(5000.0, record) == 1070.0
    assert earliest(1050.0, record) == 1050.0


def test_a_clock_waits_for_its_board_and_counts_from_the_moment_it_was_seen() -> None:
    clock = _opened(GameClock.new(TimeControl(12.0, 1.0), 3)).await_board(0, 1000.0)
    assert clock.waiting and clock.deadline() is None and not clock.expired(1e9)
    assert clock.left(0, 1500.0) == 180.0  # 500 s waiting for the board cost nothing
    assert clock.action == 1 and clock.seen(0, 1040.0) == clock  # a mark of another action changes nothing
    seen = clock.seen(1, 1040.0)
    assert not seen.waiting and seen.started == 1040.0 and seen.deadline() == 1040.0 + 12 + 180
    assert seen.seen(1, 1090.0) == seen  # the first delivery counts; a later one changes nothing
    assert clock.seen(1, 990.0).started == 1000.0  # never before the action began
    again = seen.charge(1050.0).await_board(1, 1050.0)  # the next action, even at the same moment: a new number
    assert again.action == 2 and again.seen(1, 1060.0) == again and again.seen(2, 1060.0).started == 1060.0
    assert seen.charge(1072.0).reserves == (160.0, 180.0)  # 32 s after it was seen: 20 beyond the delay
    assert clock.charge(1500.0).reserves == (180.0, 180.0)  # acted before the board was marked seen: free


def test_a_first_action_has_the_first_move_window_instead_of_the_clock() -> None:
    clock = GameClock.new(TimeControl(0.0, 0.25), 0)
    assert clock.first == (0, 1)
    waiting = clock.await_board(1, 1000.0)
    assert waiting.opening and waiting.deadline() is None
    seen = waiting.seen(1, 1030.0)
    assert seen.deadline() == 1030.0 + FIRST_MOVE_WINDOW  # not 1030 + 15 s of reserve
    assert seen.left(1, 1080.0) == 15.0  # the window does not touch the reserve
    made = seen.charge(1080.0)
    assert made.reserves == (15.0, 15.0) and made.first == (0,)
    assert made.await_board(1, 1080.0).seen(2, 1080.0).deadline() == 1080.0 + 15.0  # then the clock
    missed = seen.ran_out()
    assert (missed.flag, missed.reserves) == (1, (15.0, 15.0))  # a missed window keeps the reserve
    stored = GameClock.from_dict(made.to_dict())
    assert stored == made and made.to_dict()["first"] == [0]
    assert "first" not in dataclasses.replace(made, first=()).to_dict()


def _record() -> GameRecord:
    data = json.loads((FIXTURES / "game_running_match_cube.json").read_text())
    return GameRecord.from_dict(data)


def test_a_record_keeps_its_clock_and_one_without_a_clock_reads_and_writes_as_before() -> None:
    data = json.loads((FIXTURES / "game_running_match_cube.json").read_text())
    record = GameRecord.from_dict(data)
    assert record.clock is None and "clock" not in record.to_dict()
    record.clock = GameClock.new(TimeControl(12.0, 1.0), 3).await_board(1, 1000.5)
    stored = record.to_dict()
    assert stored["clock"] == {"delay": 12.0, "per_point": 1.0, "reserves": [180.0, 180.0], "running": 1,
                               "began": 1000.5, "first": [0, 1], "action": 1}  # fmt: skip
    old = {"delay": 12.0, "per_point": 1.0, "reserves": [180.0, 170.0], "running": 1, "started": 1000.5}
    assert GameClock.from_dict(old).deadline() == 1000.5 + 12 + 170  # written before delivery counted: as before
    again = GameRecord.from_json(json.dumps(stored))
    assert again.clock == record.clock and again.extra == {}
    stored["clock"]["reserves"] = [1]
    with pytest.raises(ValueError):
        GameRecord.from_dict(stored)


def test_a_challenge_and_the_tournament_settings_carry_the_clock_only_when_chosen() -> None:
    player = PlayerInfo(1, "A", "en")
    plain = PrivateChallenge(player, "short", 3)
    assert "clock" not in plain.to_dict() and load_challenge(plain.to_dict()) == plain
    timed = GroupChallenge(player, "short", -5, 3, clock=TimeControl(12.0, 1.0))
    assert timed.to_dict()["clock"] == {"delay": 12.0, "per_point": 1.0}
    assert load_challenge(timed.to_dict()) == timed
    assert "clock" not in dump(TournamentSettings())
    settings = TournamentSettings(clock=TimeControl(5.0, 0.5))
    assert load(TournamentSettings, dump(settings), ValueError) == settings
