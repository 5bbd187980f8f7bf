"""The lobby's pure rules: what /play reads, the cool-down's escalation and its reset, an abandonment counted once,
who abandoned a game, a lobby game's winner and series score, a seek as the pool keeps it, the status's JSON."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.model.clock import ClockError, GameClock, TimeControl
from bot.model.game import ChatLink, GameRecord, PlayerInfo
from bot.model.lobby import KEPT_GAMES, Abandons, LobbyLink
from bot.services.lobby.entries import EXPIRY_GRACE, Seek, new_seek
from bot.services.lobby.rules import (
    CLEAN_AFTER,
    DEFAULT_CLOCK,
    PlayArgsError,
    PlayRequest,
    abandoned_by,
    after_abandon,
    cooldown_until,
    lobby_variants,
    parse_play,
)
from bot.services.lobby.status import LobbyStatus, SeekOutcome, SeekStatus
from bot.services.series import game_winner, series_score
from bot.storage.pools import PoolEntry

T = 1_000_000.0


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (None, PlayRequest()),
        ("", PlayRequest()),
        ("long", PlayRequest("long")),
        ("длинная 12+1", PlayRequest("long", TimeControl(12, 1))),
        ("12+2 short", PlayRequest("short", TimeControl(12, 2))),
        ("clock 5+1 plakoto", PlayRequest("plakoto", TimeControl(5, 1))),
        ("контроль 0+0,5", PlayRequest(None, TimeControl(0, 0.5))),
        ("more", PlayRequest(more=True)),
        ("ещё chess 12+2", None),  # no game of ours: refused
        ("short ещё", PlayRequest("short", more=True)),
    ],
)
def test_play_reads_a_game_a_clock_and_more_in_any_order(args: str | None, expected: PlayRequest | None) -> None:
    if expected is None:
        with pytest.raises(PlayArgsError):
            parse_play(args)
    else:
        assert parse_play(args) == expected


def test_play_refuses_match_kinds_unknown_words_and_bad_clocks() -> None:
    assert "tavli" not in lobby_variants() and "mixed" not in lobby_variants() and "short" in lobby_variants()
    for args, word in (("tavli", "tavli"), ("short chess", "chess"), ("match 5", "match"), ("12-2", "12-2")):
        with pytest.raises(PlayArgsError) as caught:
            parse_play(args)
        assert caught.value.word == word
    for args in ("99+1", "clock 12+99", "clock", "12+x"):
        with pytest.raises((ClockError, PlayArgsError)):
            parse_play(args)


def test_the_cool_down_escalates_and_resets_after_seven_clean_days() -> None:
    assert cooldown_until(None, T) is None
    first = after_abandon(None, "g1", T)
    assert first == Abandons(1, T, ("g1",))
    assert cooldown_until(first, T + 1) == T + 300  # 5 minutes
    assert cooldown_until(first, T + 300) is None
    second = after_abandon(first, "g2", T + 1000)
    assert second is not None and second.count == 2
    assert cooldown_until(second, T + 1001) == T + 1000 + 1800  # 30 minutes
    third = after_abandon(second, "g3", T + 5000)
    fourth = after_abandon(third, "g4", T + 200_000)
    assert third is not None and fourth is not None
    assert cooldown_until(third, T + 5001) == T + 5000 + 86400  # a day
    assert cooldown_until(fourth, T + 200_001) == T + 200_000 + 86400  # a day from then on
    # a week without abandoning: the next one counts as the first again
    fresh = after_abandon(fourth, "g5", T + 200_000 + CLEAN_AFTER)
    assert fresh is not None and fresh.count == 1
    assert cooldown_until(fresh, T + 200_000 + CLEAN_AFTER + 1) == T + 200_000 + CLEAN_AFTER + 300


def test_an_abandonment_is_counted_once_per_game() -> None:
    first = after_abandon(None, "g1", T)
    assert after_abandon(first, "g1", T + 50) is None
    many: Abandons | None = None
    for index in range(KEPT_GAMES + 3):
        many = after_abandon(many, f"g{index}", T + index)
    assert many is not None and many.count == KEPT_GAMES + 3 and len(many.games) == KEPT_GAMES


def _record(
    *,
    flag: int | None = None,
    first: str | None = None,
    moves: int = 0,
    winner: int | None = None,
    score: tuple[int, int] = (0, 0),
    forfeit: int | None = None,
) -> GameRecord:
    history: list[dict[str, Any]] = [{"t": "move"} for _ in range(moves)]
    state: dict[str, Any] = {"result": None if winner is None else {"winner": winner, "points": 1}}
    clock = GameClock.new(DEFAULT_CLOCK, 0)
    if flag is not None:
        clock = replace(clock, flag=flag)
    events = [{"t": "over", "first": first}] if first else []
    return GameRecord(
        match={"variant": "short", "length": 0, "game": {"history": history, "state": state, "score": [0, 0]}},
        players=[PlayerInfo(1, "A"), PlayerInfo(2, "B")],
        chats=[ChatLink(1, 0), ChatLink(2, 1)],
        kind="private",
        events=events,
        clock=clock,
        forfeit=forfeit,
        lobby=LobbyLink("series0001", score, "12+2"),
    )


def test_who_abandoned_a_lobby_game() -> None:
    assert abandoned_by(_record(flag=1, first="cancelled")) == 1  # the first-move window missed
    assert abandoned_by(replace(_record(flag=0, first="cancelled"), lobby=None)) is None  # no lobby game
    assert abandoned_by(_record()) is None  # nobody's flag fell
    assert abandoned_by(_record(winner=0)) is None


def test_the_winner_and_the_series_score() -> None:
    assert game_winner(_record(winner=1)) == 1
    assert game_winner(_record(flag=0, first="cancelled")) is None  # counts for nobody
    assert game_winner(_record(flag=0)) == 1  # lost on time
    assert game_winner(_record(forfeit=1)) == 0
    assert series_score(_record(winner=0, score=(2, 1)), finished=True) == (3, 1)
    assert series_score(_record(winner=0, score=(2, 1)), finished=False) == (2, 1)
    assert series_score(_record(flag=1, first="cancelled", score=(2, 1)), finished=True) == (2, 1)
    assert series_score(replace(_record(winner=0), lobby=None), finished=True) == (0, 0)


def test_a_lobby_record_keeps_its_series_through_the_codec() -> None:
    record = _record(score=(1, 2))
    record.lobby = replace(record.lobby, votes=(1,)) if record.lobby else None
    data = record.to_dict()
    assert data["lobby"] == {"series": "series0001", "score": [1, 2], "clock": "12+2", "votes": [1]}
    assert GameRecord.from_dict(data).lobby == record.lobby
    data.pop("lobby")
    assert GameRecord.from_dict(data).lobby is None


def test_a_seek_round_trips_through_its_pool_entry() -> None:
    seek = new_seek(
        PlayerInfo(5, "Eve", "en"), "long", TimeControl(12, 1), rating=1612.5, now=T, ttl=600, blocked=(7, 8), more=True
    )
    seek = replace(seek, message=42)
    entry = seek.entry()
    assert (entry.member, entry.score, entry.since, entry.expires) == ("5", 1612.5, T, T + 600 + EXPIRY_GRACE)
    assert entry.data["key"] == "long|12+1"
    assert Seek.of(entry) == seek
    seeker = seek.seeker()
    assert (seeker.id, seeker.key, seeker.blocked) == ("5", "long|12+1", frozenset({"7", "8"}))
    assert not seek.expired(T + 599) and seek.expired(T + 600)
    assert Seek.of(PoolEntry("5", 1500.0, T, {"name": "x"})) is None  # malformed: ignored
    assert Seek.of(PoolEntry("5", 1500.0, T, {**entry.data, "clock": "99+99"})) is None


def test_the_status_and_the_outcome() -> None:
    assert LobbyStatus().to_json() == {
        "state": "idle",
        "since": None,
        "variant": None,
        "clock": None,
        "game": None,
        "cooldown_until": None,
    }
    playing = LobbyStatus("playing", None, "short", "12+2", "abcdefghij", T + 60)
    assert playing.to_json()["game"] == "abcdefghij" and playing.to_json()["cooldown_until"] == T + 60
    assert SeekOutcome(SeekStatus.PAIRED, game="x").accepted and not SeekOutcome(SeekStatus.COOLDOWN).accepted
