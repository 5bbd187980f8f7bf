"""Match play: scoring, the Crawford rule, winner_starts, serialisation."""

from __future__ import annotations

import json
import random

import pytest

from nardy import GameStateError, Match, Options, Phase, SeededDice


def _finish_by_resignation(match: Match, loser: int, level: str = "") -> None:
    game = match.game
    level = level or game.resign_levels()[0]
    if game.phase is Phase.OPENING:
        game.roll()
    game.resign(loser, level)
    game.accept_resignation()


def test_crawford_game_follows_the_first_time_a_player_reaches_match_point() -> None:
    match = Match("short", 3, dice=SeededDice(1))
    _finish_by_resignation(match, 1, "gammon")  # player 0: 2 points = match point in a 3-point match
    game = match.next_game()
    assert match.score == (2, 0)
    assert game.crawford and not game.cube_enabled
    _finish_by_resignation(match, 0)
    game = match.next_game()
    assert match.score == (2, 1)
    assert not game.crawford and game.cube_enabled  # post-Crawford
    _finish_by_resignation(match, 1)
    assert match.score_after_game() == (3, 1)
    with pytest.raises(GameStateError, match="match is over"):
        match.next_game()
    assert match.over and match.winner == 0


def test_crawford_option_off() -> None:
    match = Match("short", 3, options=Options(crawford=False), dice=SeededDice(1))
    _finish_by_resignation(match, 1, "gammon")
    assert not match.next_game().crawford


def test_winner_starts_option_skips_the_opening_roll() -> None:
    match = Match("long", 5, options=Options(opening="winner_starts"), dice=SeededDice(3))
    _finish_by_resignation(match, 0)
    game = match.next_game()
    assert game.phase is Phase.ROLL and game.roller == 1


def test_cannot_start_next_game_before_the_end() -> None:
    match = Match("short", 5)
    with pytest.raises(GameStateError):
        match.next_game()


def test_match_round_trip() -> None:
    rng = random.Random(4)
    match = Match("short", 5, dice=SeededDice(4))
    _finish_by_resignation(match, 1)
    match.next_game()
    match.game.roll()
    if match.game.phase is Phase.MOVE:
        match.game.play(rng.choice(match.game.legal_moves()))
    data = json.loads(json.dumps(match.to_dict()))
    loaded = Match.from_dict(data)
    assert loaded.to_dict() == match.to_dict()
    assert loaded.score == (1, 0)
