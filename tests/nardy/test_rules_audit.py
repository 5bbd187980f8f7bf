"""Regression tests of the rules audit: match end, draws at match point, cube limits, Jacoby resignations,
match states that cannot be expressed."""

from __future__ import annotations

import pytest

from nardy import FixedDice, Game, GameStateError, Match, NardyError, Options, Phase, SeededDice
from nardy.errors import MatchOverError
from nardy.position import make_side

# ------------------------------------------------------------------------------------------- 1. match end


def _resign(match: Match, loser: int, level: str) -> None:
    game = match.game
    if game.phase is Phase.OPENING:
        game.roll()
    game.resign(loser, level)
    game.accept_resignation()


def test_match_is_over_as_soon_as_the_deciding_game_is_over() -> None:
    match = Match("short", 3, dice=SeededDice(2))
    _resign(match, 1, "backgammon")  # 3 points: the match is decided by this game
    assert match.over and match.winner == 0
    assert match.score == (0, 0) and match.score_after_game() == (3, 0)


def test_next_game_on_a_finished_match_raises_and_never_counts_the_last_game_twice() -> None:
    match = Match("short", 3, dice=SeededDice(2))
    _resign(match, 1, "backgammon")
    for _ in range(3):
        with pytest.raises(MatchOverError, match="match is over"):
            match.next_game()
        assert match.score == (0, 0) and match.score_after_game() == (3, 0)
        assert match.finished_games == [] and match.over and match.winner == 0
    assert issubclass(MatchOverError, GameStateError)


def test_the_match_goes_on_until_the_deciding_game() -> None:
    match = Match("short", 3, dice=SeededDice(2))
    _resign(match, 1, "single")
    assert not match.over and match.winner is None
    match.next_game()
    _resign(match, 0, "single")
    assert not match.over
    match.next_game()
    assert match.score == (1, 1) and not match.over
    _resign(match, 0, "gammon")
    assert match.over and match.winner == 1 and match.score_after_game() == (1, 3)


def test_a_money_session_is_never_over() -> None:
    match = Match("short", 0, dice=SeededDice(2))
    _resign(match, 1, "backgammon")
    assert not match.over and match.winner is None
    match.next_game()
    assert match.score == (3, 0)


# ------------------------------------------------------------------------------------------- 3. draws at match point


def _draw(match: Match) -> None:
    """Play the current long game of ``match`` to a last-roll draw: both sides keep one checker on point 1."""
    game = match.game
    if game.phase is Phase.OPENING:
        game.roll()  # the opening roll, then the first player rolls afresh
    assert game.phase is Phase.ROLL
    lone = make_side({1: 1})
    game.sides = [lone, lone]
    game.moves_played = 2
    game.roll()
    game.play(game.legal_moves()[0])  # the first player bears off its last checker
    assert game.phase is not Phase.OVER  # the other player has one more roll
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.result is not None and game.result.winner is None and game.result.reason == "draw"


def test_a_draw_that_brings_both_players_to_the_match_length_does_not_end_the_match() -> None:
    # opening 2-1 (player 0 starts), then each game: 2-1 for player 0, 2-1 for player 1
    dice = FixedDice([2, 1, 2, 1, 2, 1] + [2, 1, 2, 1, 2, 1] + [2, 1] * 3)
    match = Match("long", 1, options=Options(last_roll_draw=True), dice=dice)
    _draw(match)
    assert match.score_after_game() == (0.5, 0.5) and not match.over and match.winner is None
    match.next_game()
    _draw(match)
    assert match.score_after_game() == (1, 1)
    assert not match.over and match.winner is None  # both reached 1 at once: one more game decides
    game = match.next_game()
    assert match.score == (1, 1) and game.phase is Phase.OPENING
    game.roll()
    game.resign(1, "oin")
    game.accept_resignation()
    assert match.over and match.winner == 0 and match.score_after_game() == (2, 1)
    with pytest.raises(MatchOverError):
        match.next_game()


def test_a_draw_past_the_length_with_unequal_scores_is_won_by_the_higher_score() -> None:
    match = Match("long", 1, options=Options(last_roll_draw=True), dice=FixedDice([2, 1] * 3))
    match.score = (0.5, 0)
    _draw(match)
    assert match.score_after_game() == (1, 0.5) and match.winner == 0


# ------------------------------------------------------------------------------------------- 4. cube limits


def test_automatic_doubles_stop_at_max_cube() -> None:
    # three tied opening rolls, then 5-2: player 0 starts
    game = Game("short", options=Options(auto_doubles=3, max_cube=2), dice=FixedDice([3, 3, 4, 4, 6, 6, 5, 2]))
    game.roll()
    assert game.cube_value == 2


def test_automatic_doubles_within_max_cube_still_double() -> None:
    game = Game("short", options=Options(auto_doubles=3, max_cube=8), dice=FixedDice([3, 3, 4, 4, 6, 6, 5, 2]))
    game.roll()
    assert game.cube_value == 8


def _doubled(game: Game) -> Game:
    """Play ``game`` on until a double is offered."""
    while not game.can_double():
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        else:
            game.play(game.legal_moves()[0])
    game.double()
    return game


@pytest.mark.parametrize("length", [1, 3, 7])
def test_no_beaver_or_raccoon_in_match_play(length: int) -> None:
    options = Options(beaver=True, raccoon=True)
    game = _doubled(Game("short", options=options, dice=SeededDice(3), match_length=length))
    assert not game.can_beaver()
    with pytest.raises(GameStateError):
        game.beaver()
    game.take()
    assert game.cube_value == 2


def test_beaver_and_raccoon_in_money_play() -> None:
    game = _doubled(Game("short", options=Options(beaver=True, raccoon=True), dice=SeededDice(3)))
    doubler = game.roller
    assert game.can_beaver()
    game.beaver()
    assert game.can_raccoon() and game.turn == doubler
    game.raccoon()
    assert game.cube_value == 8 and game.cube_owner == doubler


def test_a_beaver_that_reaches_max_cube_does_not_wait_for_a_raccoon() -> None:
    game = _doubled(Game("short", options=Options(beaver=True, raccoon=True, max_cube=4), dice=SeededDice(3)))
    game.beaver()
    assert game.cube_value == 4
    assert not game.can_raccoon()
    assert game.phase is Phase.ROLL and game.turn == game.roller  # nothing left to answer


# ------------------------------------------------------------------------------------------- 5. match_state


def test_match_state_refuses_a_half_point_score() -> None:
    game = Game("long", match_length=3, score=(0.5, 0), options=Options(last_roll_draw=True))
    with pytest.raises(NardyError, match=r"0\.5-0 has a half point"):
        game.match_state()
    with pytest.raises(NardyError):
        game.match_id()


def test_match_state_keeps_whole_scores() -> None:
    game = Game("short", match_length=5, score=(2.0, 4))
    assert game.match_state().score == (2, 4)


# ------------------------------------------------------------------------------------------- 7. Jacoby resignations


@pytest.mark.parametrize("level", ["gammon", "backgammon"])
def test_a_resignation_under_jacoby_scores_like_a_borne_off_game(level: str) -> None:
    game = Game("short", options=Options(jacoby=True), dice=SeededDice(1))
    game.roll()
    game.resign(0, level)
    game.accept_resignation()
    assert game.result is not None
    assert (game.result.kind, game.result.value, game.result.points) == ("single", 1, 1)


def test_jacoby_does_not_touch_resignations_once_the_cube_is_turned() -> None:
    game = _doubled(Game("short", options=Options(jacoby=True), dice=SeededDice(1)))
    game.take()
    game.resign(game.roller, "gammon")
    game.accept_resignation()
    assert game.result is not None
    assert (game.result.kind, game.result.value, game.result.points) == ("gammon", 2, 4)


def test_jacoby_does_not_touch_resignations_in_match_play() -> None:
    game = Game("short", options=Options(jacoby=True), dice=SeededDice(1), match_length=5)
    game.roll()
    game.resign(1, "gammon")
    game.accept_resignation()
    assert game.result is not None and (game.result.kind, game.result.value) == ("gammon", 2)
