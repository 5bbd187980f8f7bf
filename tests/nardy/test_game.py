"""The game state machine: opening, rolls, forfeits, cube, resignation, results, serialisation."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import FixedDice, Game, GameStateError, IllegalMoveError, Options, Phase, SeededDice
from nardy.cube import next_cube_value
from nardy.game_record import replay
from nardy.position import Position, make_side

VARIANTS = ["short", "long", "hypergammon", "nackgammon", "portes", "misere"]


def play_random(game: Game, rng: random.Random, *, cube_rate: float = 0.1, max_actions: int = 5000) -> int:
    """Play ``game`` to its end with random legal actions; return the number of actions taken."""
    for actions in range(max_actions):
        if game.phase is Phase.OVER:
            return actions
        if game.phase in (Phase.OPENING, Phase.ROLL):
            if game.can_double() and rng.random() < cube_rate:
                game.double()
            else:
                game.roll()
        elif game.phase is Phase.MOVE:
            game.play(rng.choice(game.legal_moves()))
        elif game.phase is Phase.DOUBLED:
            choice = rng.random()
            if game.can_beaver() and choice < 0.2:
                game.beaver()
            elif game.can_raccoon() and choice < 0.4:
                game.raccoon()
            elif choice < 0.8 or game.can_raccoon():
                game.take()
            else:
                game.drop()
        elif game.phase is Phase.RESIGN:
            game.decline_resignation()
    raise AssertionError("the game did not end")


def test_short_opening_gives_the_first_player_both_opening_dice() -> None:
    game = Game("short", dice=FixedDice([3, 3, 2, 5]))
    assert game.roll() == (5, 2)
    assert game.phase is Phase.MOVE
    assert game.roller == 1
    assert game.dice == (5, 2)
    assert [r["dice"] for r in game.history] == [[3, 3], [2, 5]]


def test_long_opening_winner_rolls_again() -> None:
    game = Game("long", dice=FixedDice([6, 1, 4, 2]))
    game.roll()
    assert game.phase is Phase.ROLL and game.roller == 0
    assert game.roll() == (4, 2)
    assert [m.notation for m in game.legal_moves()] == ["24/20/18"]


def test_reroll_option_makes_short_winner_roll_again() -> None:
    game = Game("short", options=Options(opening="reroll"), dice=FixedDice([2, 6, 1, 1]))
    game.roll()
    assert game.phase is Phase.ROLL and game.roller == 1
    game.roll()
    assert game.dice == (1, 1)


def test_forfeited_roll_passes_the_turn() -> None:
    game = Game("short", dice=FixedDice([6, 5, 6, 6]))
    game.roll()
    # put the roller's opponent so that 6-6 is blocked: player 1 on the bar against a closed board
    closed = make_side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3})
    game.sides = [closed, make_side({25: 1, 24: 14})]
    game.phase, game.roller, game.turn, game.dice = Phase.ROLL, 1, 1, None
    game.roll()
    assert game.history[-1] == {"t": "pass"}
    assert game.phase is Phase.ROLL and game.roller == 0


def test_playing_moves_as_text_steps_and_move_objects() -> None:
    game = Game("short", dice=FixedDice([3, 1]))
    game.roll()
    played = game.play("8/5 6/5")
    assert played.notation == "8/5 6/5"
    assert game.roller == 1 and game.phase is Phase.ROLL
    with pytest.raises(GameStateError):
        game.play("8/5 6/5")


def test_illegal_move_changes_nothing() -> None:
    game = Game("short", dice=FixedDice([3, 1]))
    game.roll()
    before = game.to_dict()
    with pytest.raises(IllegalMoveError):
        game.play("24/20 24/22")
    assert game.to_dict() == before


def test_no_double_before_the_first_move_and_cube_passes_to_the_taker() -> None:
    game = Game("short", options=Options(opening="reroll"), dice=FixedDice([5, 2, 3, 1, 6, 4]))
    game.roll()
    assert not game.can_double()
    with pytest.raises(GameStateError, match="first move"):
        game.double()
    game.roll()
    game.play("8/5 6/5")
    assert game.can_double()
    game.double()
    assert game.phase is Phase.DOUBLED and game.turn == 0
    game.take()
    assert (game.cube_value, game.cube_owner) == (2, 0)
    assert game.phase is Phase.ROLL and game.turn == 1
    assert not game.can_double()  # the cube belongs to the taker now


def test_drop_ends_the_game_at_the_current_cube_value() -> None:
    game = Game("short", dice=FixedDice([3, 1]))
    game.roll()
    game.play("8/5 6/5")
    game.double()
    game.drop()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 1, "drop")


def test_beaver_and_raccoon() -> None:
    game = Game("short", options=Options(beaver=True, raccoon=True), dice=FixedDice([3, 1]))
    game.roll()
    game.play("8/5 6/5")
    game.double()  # player 1 doubles
    assert game.can_beaver()
    game.beaver()  # player 0 takes and redoubles to 4, keeping the cube
    assert (game.cube_value, game.cube_owner, game.turn) == (4, 0, 1)
    with pytest.raises(GameStateError):
        game.drop()
    game.raccoon()
    assert (game.cube_value, game.cube_owner, game.phase) == (8, 1, Phase.ROLL)


def test_arithmetic_progression_and_max_cube() -> None:
    options = Options(cube_progression="arithmetic", max_cube=3)
    assert [next_cube_value(v, options) for v in (1, 2, 3)] == [2, 3, 4]
    assert next_cube_value(2, Options()) == 4
    game = Game("short", options=options, dice=SeededDice(1))
    game.cube_value, game.cube_owner = 3, None
    game.roll()
    game.play(game.legal_moves()[0])
    assert not game.can_double()
    with pytest.raises(GameStateError, match="above 3"):
        game.double()


def test_cube_is_off_in_long_nardy_by_default_and_in_the_crawford_game() -> None:
    assert not Game("long").cube_enabled
    assert Game("long", options=Options(cube=True)).cube_enabled
    assert not Game("short", crawford=True, match_length=5).cube_enabled


def test_auto_doubles_on_tied_opening_rolls() -> None:
    game = Game("short", options=Options(auto_doubles=1), dice=FixedDice([4, 4, 2, 2, 5, 3]))
    game.roll()
    assert game.cube_value == 2  # only one automatic double


def _race_to_the_end(variant: str, me: dict[int, int], opp: dict[int, int], dice: list[int], **kw: object) -> Game:
    game = Game(variant, dice=FixedDice(dice), **kw)  # type: ignore[arg-type]
    game.sides = [make_side(me), make_side(opp)]
    game.phase, game.roller, game.turn, game.first_player, game.moves_played = Phase.ROLL, 0, 0, 0, 1
    return game


def test_gammon_and_backgammon_and_jacoby() -> None:
    game = _race_to_the_end("short", {1: 1}, {24: 1, 19: 14}, [2, 1])
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.result is not None and (game.result.kind, game.result.points) == ("backgammon", 3)
    game = _race_to_the_end("short", {1: 1}, {18: 15}, [2, 1])
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.result is not None and (game.result.kind, game.result.points) == ("gammon", 2)
    game = _race_to_the_end("short", {1: 1}, {18: 15}, [2, 1], options=Options(jacoby=True))
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.result is not None and (game.result.kind, game.result.points) == ("single", 1)


def test_long_oin_mars_and_extended_scoring() -> None:
    cases = [
        ({}, {1: 14}, "federation", ("oin", 1)),
        ({}, {1: 15}, "federation", ("mars", 2)),
        ({}, {7: 15}, "extended", ("mars", 2)),
        ({}, {3: 15}, "extended", ("home_mars", 3)),
        ({}, {24: 1, 3: 14}, "extended", ("koks", 4)),
    ]
    for _, opp, scoring, expected in cases:
        game = _race_to_the_end("long", {1: 1}, opp, [2, 1], options=Options(long_scoring=scoring))  # type: ignore[arg-type]
        game.roll()
        game.play(game.legal_moves()[0])
        assert game.result is not None and (game.result.kind, game.result.points) == expected


def test_last_roll_draw_option() -> None:
    options = Options(last_roll_draw=True)
    game = _race_to_the_end("long", {1: 1}, {1: 1, 2: 1}, [2, 1, 2, 1], options=options)
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.phase is Phase.ROLL and game.roller == 1  # the second player gets a last roll
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.result is not None and game.result.winner is None and game.result.kind == "draw"
    assert game.result.points == 0.5
    game = _race_to_the_end("long", {1: 1}, {1: 1, 6: 1}, [2, 1, 2, 1], options=options)
    game.roll()
    game.play(game.legal_moves()[0])
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.result is not None and (game.result.winner, game.result.kind) == (0, "oin")
    game = _race_to_the_end("long", {1: 1}, {1: 1, 2: 1}, [2, 1])
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.result is not None and game.result.winner == 0  # without the option the game ends at once


def test_resignation_accept_and_decline() -> None:
    game = Game("short", dice=FixedDice([3, 1]))
    game.roll()
    game.resign(1, "gammon")
    assert game.phase is Phase.RESIGN and game.turn == 0
    game.decline_resignation()
    assert game.phase is Phase.MOVE and game.turn == 0
    game.resign(1, "single")
    game.accept_resignation()
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 1)
    with pytest.raises(GameStateError):
        Game("long").resign(0, "gammon")


def test_abandon() -> None:
    game = Game("long", dice=SeededDice(2))
    game.roll()
    game.abandon(game.roller)
    assert game.result is not None and game.result.reason == "abandon"
    with pytest.raises(GameStateError):
        game.abandon(0)


def test_saved_game_with_a_changed_snapshot_is_refused_when_verified() -> None:
    game = Game("short", dice=SeededDice(5))
    game.roll()
    data = game.to_dict()
    data["state"]["cube"] = [2, 0]
    with pytest.raises(GameStateError, match="snapshot"):
        Game.from_dict(data, verify=True)
    data = game.to_dict()
    data["history"].append({"t": "move", "steps": [[24, 1, 6, False]]})
    with pytest.raises(GameStateError):
        Game.from_dict(data, verify=True)


def test_loading_restores_the_snapshot_without_replaying_the_history() -> None:
    game = Game("short", dice=SeededDice(5))
    for _ in range(30):
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        elif game.phase is Phase.MOVE:
            game.play(game.legal_moves()[-1])
    data = json.loads(json.dumps(game.to_dict()))
    data["history"] = [{"t": "nonsense"}]  # never read when loading: the snapshot is the state
    loaded = Game.from_dict(data)
    assert loaded.snapshot() == game.snapshot() and loaded.history == [{"t": "nonsense"}]
    assert loaded.last_move == game.last_move and loaded.legal_moves() == game.legal_moves()
    with pytest.raises(GameStateError):
        Game.from_dict(data, verify=True)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("phase", "flying"),
        ("sides", [[15] + [0] * 24, [16] + [0] * 24]),
        ("sides", [[1] * 24, [0] * 25]),
        ("dice", [7, 1]),
        ("dice", None),
        ("roller", 2),
        ("turns_taken", "x"),
        ("last_move", [[1, 2]]),
    ],
)
def test_a_malformed_snapshot_is_refused(key: str, value: object) -> None:
    game = Game("short", dice=SeededDice(5))
    game.roll()
    data = json.loads(json.dumps(game.to_dict()))
    data["state"][key] = value
    if key == "last_move":
        data["state"]["last_mover"] = 0
    with pytest.raises(GameStateError):
        Game.from_dict(data)


def test_an_older_save_without_a_full_snapshot_is_replayed() -> None:
    game = Game("long", dice=SeededDice(8))
    for _ in range(20):
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        elif game.phase is Phase.MOVE:
            game.play(game.legal_moves()[0])
    data = json.loads(json.dumps(game.to_dict()))
    older = ("phase", "roller", "turn", "dice", "cube", "sides", "result")
    data["state"] = {key: data["state"][key] for key in older}
    assert Game.from_dict(data).snapshot() == game.snapshot()
    data["state"]["cube"] = [4, 1]
    with pytest.raises(GameStateError, match="snapshot"):
        Game.from_dict(data)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS))
def test_random_games_end_and_round_trip(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    options = Options(beaver=rng.random() < 0.5, raccoon=rng.random() < 0.5, cube=rng.random() < 0.5)
    game = Game(variant, options=options, dice=SeededDice(seed))
    play_random(game, rng)
    assert game.result is not None
    data = json.loads(json.dumps(game.to_dict()))
    loaded = Game.from_dict(data)
    assert loaded.to_dict() == game.to_dict()
    assert loaded.result == game.result


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS), stop=st.integers(0, 400))
def test_games_in_progress_round_trip_and_replay(seed: int, variant: str, stop: int) -> None:
    rng = random.Random(seed)
    game = Game(variant, dice=SeededDice(seed))
    for _ in range(stop):
        if game.phase is Phase.OVER:
            break
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        elif game.phase is Phase.MOVE:
            game.play(rng.choice(game.legal_moves()))
        else:
            game.take()
    data = json.loads(json.dumps(game.to_dict()))
    assert Game.from_dict(data).snapshot() == game.snapshot()
    assert Game.from_dict(data, verify=True).snapshot() == game.snapshot()  # restoring = replaying
    restored = Game.from_dict(data)
    assert restored.last_move == game.last_move and restored.is_first_turn(0) == game.is_first_turn(0)
    if game.phase is Phase.MOVE:
        assert restored.legal_moves() == game.legal_moves()
    states = replay(data)
    assert states[-1].snapshot() == game.snapshot()
    for state in states:
        for side in state.sides:
            assert sum(side) <= state.variant.checkers
        state.variant.validate(Position(state.sides[0], state.sides[1]))


def test_gnubg_match_id_and_position_id_of_a_game() -> None:
    from nardy.ids import match_state_from_id

    game = Game("short", match_length=7, score=(2, 4), dice=FixedDice([5, 2]))
    game.roll()
    assert game.position_id() == "4HPwATDgc/ABMA"
    state = match_state_from_id(game.match_id())
    assert (state.match_length, state.score, state.dice, state.player_on_roll) == (7, (2, 4), (5, 2), 0)
    assert state.cube_owner is None and state.cube_value == 1
