"""Pure parts of the arena service: reading a finished game, the texts, the view's JSON, /arena's arguments and the
buttons' size."""

from __future__ import annotations

from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH

from bot.handlers.arena import parse_arena
from bot.keyboards.arena import ArenaCb, back_keyboard, card_keyboard
from bot.model.arena import ArenaPlayer, ArenaRecord, ArenaSettings, CountedGame, RunningGame
from bot.model.clock import GameClock, TimeControl
from bot.model.game import ChatLink, GameRecord, PlayerInfo, TournamentLink
from bot.services.arena import texts
from bot.services.arena.outcome import game_outcome, own_moves
from bot.services.arena.pairing import seekers
from bot.services.arena.view_model import arena_view
from bot.storage.pools import PoolEntry
from bot.variants import new_match
from nardy import SeededDice


def _record() -> ArenaRecord:
    return ArenaRecord(
        chat_id=-5,
        organiser=1,
        settings=ArenaSettings(minutes=30),
        players=(ArenaPlayer(1, "Ann"), ArenaPlayer(2, "Ben"), ArenaPlayer(3, "Cy", paused=True)),
        games=(
            CountedGame("g1", (1, 2), 0),
            CountedGame("g2", (2, 1), 1),
            CountedGame("g3", (1, 3), 0, 3),
        ),
        running=(RunningGame("g4", (1, 2)),),
        created_at=0.0,
        ends_at=1800.0,
    )


def _game(played: int) -> GameRecord:
    match = new_match("short", 1, dice=SeededDice("outcome"))
    game = match.game
    turns = 0
    while turns < played:
        if game.phase.name in ("OPENING", "ROLL"):
            game.roll()
        else:
            game.play(game.legal_moves()[0])
            turns += 1
    players = [PlayerInfo(1, "Ann", "en"), PlayerInfo(2, "Ben", "en")]
    record = GameRecord.new(match.to_dict(), players, [ChatLink(1, 0), ChatLink(2, 1)], kind="private")
    record.tournament = TournamentLink("a", "g", arena=True)
    return record


def test_a_game_lost_at_the_first_move_is_on_time_and_names_who_missed_it() -> None:
    record = _game(0)
    clock = GameClock.new(TimeControl(12.0, 1.0), 1).go_berserk(1)
    record.clock = clock.start(0, 10.0).ran_out()
    record.events = [{"t": "over", "first": "lost", "time": 0}]
    outcome = game_outcome(record)
    assert outcome is not None
    assert (outcome.winner, outcome.on_time, outcome.missed_first, outcome.berserk) == (1, True, 0, (False, True))


def test_own_moves_count_turns_of_each_side() -> None:
    record = _game(4)
    first, second = own_moves(record.match)
    assert first + second >= 3 and abs(first - second) <= 1
    assert own_moves({"nonsense": 1}) == (0, 0)
    assert game_outcome(record) is None  # not over yet


def test_texts_show_the_table_with_fire_and_pause_marks() -> None:
    record = _record()
    text = texts.standings_text("en", record, 600.0)
    assert "about 20 minutes left" in text and "1. Ann" in text
    assert "⏸" in text  # Cy is paused
    assert texts.minutes_left(record, 601.0) == 20 and texts.minutes_left(record, 1800.0) == 0
    final = texts.standings_text("ru", record.with_changes(status="finished", late=record.running), 1800.0, final=True)
    assert "Итоги арены" in final and "не засчитывается" in final
    card = texts.card_text("en", record, 0.0)
    assert "3 players in, 2 playing now" in card


def test_the_view_has_the_mini_app_s_shape() -> None:
    view = arena_view("a1", _record(), 2, 100.0, "en").to_json()
    assert set(view) == {"id", "title", "variant", "clock", "ends_at", "now", "finished", "players", "me"}
    assert view["clock"] == "12+2" and view["me"] == {"joined": True, "paused": False, "game": "g4"}
    first = view["players"][0]
    assert set(first) == {"id", "name", "rank", "score", "fire", "sheet", "games", "paused", "withdrawn", "playing"}
    assert first["name"] == "Ann" and first["rank"] == 1 and first["playing"]
    assert set(first["sheet"][0]) == {"points", "fire", "berserk", "won"}


def test_arena_arguments() -> None:
    settings = parse_arena("long 30 clock 10+1 status", "short")
    assert settings is not None
    assert (settings.variant, settings.minutes, settings.clock.label, settings.status_bonus) == (
        "long",
        30,
        "10+1",
        True,
    )
    default = parse_arena("", "short")
    assert default is not None and (default.variant, default.minutes, default.clock.label) == ("short", 60, "12+2")
    assert parse_arena("forever", "short") is None
    assert parse_arena("1000", "short") is None


def test_buttons_fit_and_seekers_read_the_pool() -> None:
    arena_id = "A" * 10
    for markup in (
        card_keyboard(arena_id, "ru", deep_link="https://t.me/x?start=t_" + arena_id),
        back_keyboard(arena_id, "en"),
    ):
        for row in markup.inline_keyboard:
            for button in row:
                if button.callback_data:
                    assert len(button.callback_data.encode()) <= MAX_CALLBACK_LENGTH
                    assert ArenaCb.unpack(button.callback_data).arena_id == arena_id
    (seeker,) = seekers([PoolEntry("7", 4.0, 10.0, {"rating": 1620.0, "last": "3"})])
    assert (seeker.id, seeker.rating, seeker.score, seeker.last_opponent) == ("7", 1620.0, 4.0, "3")
