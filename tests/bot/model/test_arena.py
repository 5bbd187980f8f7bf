"""The arena record (bot/model/arena.py) and the clock's berserk (bot/model/clock.py)."""

from __future__ import annotations

import pytest

from bot.model.arena import (
    ArenaPlayer,
    ArenaRecord,
    ArenaRecordError,
    ArenaSettings,
    CountedGame,
    Outgoing,
    RunningGame,
    is_arena,
)
from bot.model.clock import ClockError, GameClock, TimeControl
from bot.model.game import TournamentLink
from bot.model.tournament import TournamentRecord


def _record() -> ArenaRecord:
    players = (
        ArenaPlayer(1, "A", rating=1600.0),
        ArenaPlayer(2, "B"),
        ArenaPlayer(3, "C", paused=True),
        ArenaPlayer(4, "D", withdrawn=True),
        ArenaPlayer(5, "E"),
    )
    return ArenaRecord(
        chat_id=-5,
        organiser=1,
        settings=ArenaSettings(),
        players=players,
        games=(CountedGame("g1", (1, 5), 0, 2, (True, False), (7, 6), False, 10.0),),
        running=(RunningGame("g2", (2, 5), 11.0),),
        outbox=(Outgoing("paused", 3, "g0"),),
        ends_at=3600.0,
    )


def test_the_record_round_trips_and_says_it_is_an_arena() -> None:
    record = _record()
    data = record.to_dict()
    assert data["format"] == "arena" and data["schema"] == 1 and is_arena(data)
    assert ArenaRecord.from_dict(data) == record
    assert record.settings.clock == TimeControl(12.0, 2.0) and record.settings.minutes == 60


def test_malformed_and_foreign_records_are_refused() -> None:
    data = _record().to_dict()
    with pytest.raises(ArenaRecordError):
        ArenaRecord.from_dict({**data, "schema": 2})
    with pytest.raises(ArenaRecordError):
        ArenaRecord.from_dict({**data, "surprise": 1})
    with pytest.raises(ArenaRecordError):
        ArenaRecord.from_dict({**data, "format": "rr"})
    with pytest.raises(ArenaRecordError):
        ArenaSettings(variant="chess").checked()
    with pytest.raises(ArenaRecordError):
        ArenaSettings(minutes=1).checked()
    with pytest.raises(ValueError):  # a tournament's reader refuses an arena's record
        TournamentRecord.from_dict(data)


def test_who_is_free_busy_and_last_met() -> None:
    record = _record()
    assert record.busy() == {2, 5}
    assert [p.user_id for p in record.free()] == [1]  # C paused, D withdrawn, B and E playing
    assert record.last_opponent(1) == 5 and record.last_opponent(5) == 1 and record.last_opponent(2) is None
    assert record.knows_game("g1") and record.knows_game("g2") and not record.knows_game("g3")
    assert record.game_of(5) == RunningGame("g2", (2, 5), 11.0)
    assert record.with_changes(status="finished").free() == []
    assert record.ratings()["1"] == 1600.0
    (pure,) = record.pure_games()
    assert pure.players == ("1", "5") and pure.berserk == (True, False) and pure.moves == (7, 6)


def test_a_clock_goes_berserk_once_before_the_first_action() -> None:
    clock = GameClock.new(TimeControl(12.0, 2.0), 1)
    berserk = clock.go_berserk(1)
    assert berserk.reserves == (120.0, 60.0) and berserk.berserk == (1,)
    assert berserk.delay_of(1) == 0.0 and berserk.delay_of(0) == 12.0
    assert GameClock.from_dict(berserk.to_dict()) == berserk
    with pytest.raises(ClockError):
        berserk.go_berserk(1)
    after_first = clock.start(0, 100.0).charge(101.0)
    assert not after_first.may_go_berserk(0) and after_first.may_go_berserk(1)
    # the berserk side's time runs out without the delay
    running = berserk.charge(0).start(1, 200.0).charge(201.0).start(1, 300.0)
    assert running.deadline() == 300.0 + 0.0 + 60.0
    assert "berserk" not in clock.to_dict()  # an old record (no berserk) reads and writes as before
    assert GameClock.from_dict(clock.to_dict()) == clock


def test_a_game_link_says_arena_only_for_an_arena() -> None:
    assert TournamentLink("t", "m").to_dict() == {"tournament_id": "t", "match_id": "m"}
    link = TournamentLink("t", "m", arena=True)
    assert link.to_dict() == {"tournament_id": "t", "match_id": "m", "arena": True}
    assert TournamentLink.from_dict(link.to_dict()) == link
    assert not TournamentLink.from_dict({"tournament_id": "t", "match_id": "m"}).arena
