"""Long nardy's option ``misere`` (docs/rules.md §6.3, "длинные поддавки"): the first side to bear off all its checkers
loses; the other side wins 1 point (оин, never марс) times the cube. Moves are long nardy's, unchanged."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nardy_testkit import pos

from nardy import (
    FixedDice,
    Game,
    GameStateError,
    InvalidOptionError,
    Options,
    Phase,
    SeededDice,
    get_variant,
    legal_moves,
)
from nardy.game_record import replay
from nardy.position import make_side
from nardy.variants import GameValue

LONG = get_variant("long")
MISERE = Options(misere=True)


def _endgame(me: dict[int, int], opp: dict[int, int], dice: list[int], options: Options, first: int = 0) -> Game:
    """A long-nardy game at player 0's roll in the given race; ``first`` moved first in the game."""
    game = Game("long", options=options, dice=FixedDice(dice), first_player=first)
    game.sides = [make_side(me), make_side(opp)]
    game.roller = game.turn = 0
    game.turns_taken = [5, 5]
    game.moves_played = 10
    return game


def test_option_is_checked_and_off_by_default() -> None:
    assert Options().misere is False
    assert Options.from_dict({"misere": True}) == MISERE
    for bad in ({"misere": 1}, {"misere": None}, {"misere": "yes"}):
        with pytest.raises(InvalidOptionError, match="misere"):
            Options.from_dict(bad)


def test_variant_hooks() -> None:
    assert LONG.finisher_loses(MISERE) and not LONG.finisher_loses(Options())
    assert not LONG.first_off_loses  # the class attribute is unchanged: the option is read through the hook
    for opp in ({24: 15}, {6: 3, 1: 12}, {1: 1}):
        assert LONG.game_value(pos({}, opp), MISERE) == GameValue("oin", 1)
        assert LONG.game_value(pos({}, opp), MISERE.updated(long_scoring="extended")) == GameValue("oin", 1)
    assert LONG.game_value(pos({}, {24: 15}), Options()) == GameValue("mars", 2)
    assert LONG.resign_options(MISERE) == ("oin",) and LONG.resign_options(Options()) == ("oin", "mars")
    assert not LONG.last_roll_draw(MISERE)  # the reversal only: long nardy's draw default stays off
    for name in ("fevga", "gulbara", "short", "portes"):
        assert not get_variant(name).finisher_loses(MISERE), name


def test_moves_are_unchanged() -> None:
    """The option changes the aim only: the legal turns are long nardy's."""
    start = LONG.initial_position()
    later = pos({24: 10, 20: 2, 13: 1, 7: 2}, {24: 12, 18: 2, 9: 1})
    for position, first in ((start, True), (later, False)):
        for dice in ((6, 6), (3, 3), (6, 5), (2, 1)):
            plain = legal_moves(LONG, position, dice, first_turn=first)
            reversed_aim = legal_moves(LONG, position, dice, first_turn=first, options=MISERE)
            assert {m.position for m in reversed_aim} == {m.position for m in plain}


@pytest.mark.parametrize("opp", [{24: 15}, {10: 14}, {1: 1}])
def test_first_finisher_loses_one_point(opp: dict[int, int]) -> None:
    """Player 0 bears off its last checker: player 1 wins 1 point, whatever it has borne off (no марс)."""
    game = _endgame({1: 1}, opp, [2, 1], MISERE)
    game.roll()
    game.play("1/off")
    assert game.phase is Phase.OVER and game.result is not None
    assert (game.result.winner, game.result.kind, game.result.value, game.result.points) == (1, "oin", 1, 1)
    assert game.result.reason == "bearoff"


def test_without_the_option_the_finisher_wins() -> None:
    game = _endgame({1: 1}, {24: 15}, [2, 1], Options())
    game.roll()
    game.play("1/off")
    assert game.result is not None and (game.result.winner, game.result.kind, game.result.points) == (0, "mars", 2)


def test_cube_multiplies_the_single_point() -> None:
    game = _endgame({1: 1}, {24: 15}, [2, 1], MISERE.updated(cube=True))
    game.cube_value, game.cube_owner = 4, 1
    game.roll()
    game.play("1/off")
    assert game.result is not None and (game.result.winner, game.result.cube, game.result.points) == (1, 4, 4)


def test_resignation_is_oin_only() -> None:
    game = _endgame({1: 1}, {24: 15}, [2, 1], MISERE)
    assert game.resign_levels() == ("oin",)
    with pytest.raises(GameStateError):
        game.resign(0, "mars")
    game.resign(0, "oin")
    game.accept_resignation()
    assert game.result is not None and (game.result.winner, game.result.points) == (1, 1)


def test_last_roll_draw_with_misere() -> None:
    """With last_roll_draw on: the first player finishes first, the other gets one more roll; finishing too is a
    draw, not finishing means the first finisher loses."""
    options = MISERE.updated(last_roll_draw=True)
    game = _endgame({1: 1}, {2: 1}, [2, 1, 3, 1], options)
    game.roll()
    game.play("1/off")
    assert game.phase is Phase.ROLL and game.roller == 1
    game.roll()
    game.play("2/off")
    assert game.result is not None and game.result.winner is None and game.result.reason == "draw"
    game = _endgame({1: 1}, {10: 1, 2: 1}, [2, 1, 3, 1], options)
    game.roll()
    game.play("1/off")
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.result is not None and (game.result.winner, game.result.kind, game.result.points) == (1, "oin", 1)


def _random_game(seed: int, options: Options) -> Game:
    rng = random.Random(seed)
    game = Game("long", options=options, dice=SeededDice(seed))
    while game.phase is not Phase.OVER:
        if game.phase is Phase.MOVE:
            game.play(rng.choice(game.legal_moves()))
        else:
            game.roll()
        assert game.moves_played < 2000
    return game


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_random_misere_game_ends_with_the_finisher_losing(seed: int) -> None:
    game = _random_game(seed, MISERE)
    assert game.result is not None and game.result.winner is not None
    assert sum(game.sides[1 - game.result.winner]) == 0 and sum(game.sides[game.result.winner]) > 0
    assert (game.result.kind, game.result.points) == ("oin", 1)


def test_save_load_and_replay() -> None:
    game = _random_game(5, MISERE)
    data = game.to_dict()
    assert Game.from_dict(data, verify=True).snapshot() == game.snapshot()
    assert Game.from_dict(game.to_dict(compact=True)).result == game.result
    assert replay(data)[-1].result == game.result
