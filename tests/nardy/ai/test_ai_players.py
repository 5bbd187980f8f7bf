"""Every computer level plays only legal moves and valid cube and resignation answers (property tests)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy import Game, GameStateError, Options, Phase, SeededDice, legal_moves
from nardy.ai import LEVELS, ComputerPlayer, HardPlayer, get_player, play_game
from nardy.ai.features import positions_array, swap
from nardy.ai.search import ROLLS
from nardy.position import Position, make_side
from nardy.variants import get_variant

ALL_LEVELS = ("random", *LEVELS)
SHORT = get_variant("short")
SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def checked_game(variant: str, levels: tuple[str, str], seed: int, options: Options) -> Game:
    """Play a whole game, checking every answer of both players against the rules; return the finished game."""
    players = (get_player(levels[0], variant, seed=seed), get_player(levels[1], variant, seed=seed + 1))
    game = Game(variant, options=options, dice=SeededDice(seed))
    for _ in range(3000):
        if game.phase is Phase.OVER:
            return game
        if game.phase is Phase.OPENING:
            game.roll()
        elif game.phase is Phase.ROLL:
            action = players[game.roller].cube_action(game)
            assert action in ("double", "no_double")
            if action == "double":
                assert game.can_double()
                game.double()
            else:
                game.roll()
        elif game.phase is Phase.DOUBLED:
            answer = players[game.turn].take_decision(game)
            assert answer in ("take", "drop")
            game.take() if answer == "take" else game.drop()
        else:
            assert game.phase is Phase.MOVE
            legal = {m.position: m for m in game.legal_moves()}
            move = players[game.roller].choose_move(game)
            assert move.position in legal
            assert move.steps == legal[move.position].steps or game.plan().move_for(move.steps)
            game.play(move)
    raise AssertionError("the game did not end")


@SETTINGS
@given(seed=st.integers(0, 10**6), levels=st.tuples(st.sampled_from(ALL_LEVELS), st.sampled_from(ALL_LEVELS)))
def test_short_games_with_the_cube_are_legal(seed: int, levels: tuple[str, str]) -> None:
    game = checked_game("short", levels, seed, Options())
    assert game.result is not None


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    levels=st.tuples(st.sampled_from(ALL_LEVELS), st.sampled_from(ALL_LEVELS)),
    cube=st.booleans(),
    head=st.sampled_from(("blocked", "classic", "none")),
)
def test_long_games_are_legal(seed: int, levels: tuple[str, str], cube: bool, head: str) -> None:
    options = Options(cube=cube).updated(head_exception=head)
    game = checked_game("long", levels, seed, options)
    assert game.result is not None


@pytest.mark.parametrize("variant", ["short", "long"])
@pytest.mark.parametrize("level", ALL_LEVELS)
def test_players_answer_the_protocol(variant: str, level: str) -> None:
    player = get_player(level, variant, seed=3)
    assert isinstance(player, ComputerPlayer)
    game = Game(variant, dice=SeededDice(11))
    with pytest.raises(GameStateError):
        player.take_decision(game)
    with pytest.raises(GameStateError):
        player.accept_resignation(game)
    game.roll()
    if game.phase is Phase.ROLL:
        assert player.cube_action(game) == "no_double"  # no double before the first move
        game.roll()
    move = player.choose_move(game)
    assert move.position in {m.position for m in game.legal_moves()}
    game.resign(1 - game.roller, game.resign_levels()[0])
    assert isinstance(player.accept_resignation(game), bool)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        get_player("grandmaster", "short")


def test_hard_accepts_a_resignation_only_when_it_is_enough() -> None:
    hard = HardPlayer("short", 1)
    game = Game("short", dice=SeededDice(1), first_player=0)
    game.resign(0, "single")  # the roller resigns an even game: a gift
    assert hard.accept_resignation(game) is True
    game.decline_resignation()
    # player 0 (on roll) bears off its last two checkers at once; player 1 has borne off none: a sure gammon
    game.sides[0] = make_side({1: 2})
    game.sides[1] = make_side({12: 5, 10: 5, 8: 5})
    game.resign(1, "single")
    assert hard.accept_resignation(game) is False
    game.decline_resignation()
    game.resign(1, "backgammon")
    assert hard.accept_resignation(game) is True


def test_one_ply_matches_a_reference_search() -> None:
    hard = HardPlayer("short", 1)
    game = Game("short", dice=SeededDice(7), first_player=0)
    game.roll()
    move = game.legal_moves()[0]
    theirs = move.position.swapped()
    total = 0.0
    for d1, d2, weight in ROLLS:
        replies = legal_moves("short", theirs, (d1, d2))
        batch = positions_array([m.position for m in replies])
        ours = hard.network.equities(swap(batch))
        total += weight * float(np.min(ours))
    assert hard.one_ply(move.position, game, opponent_first=True) == pytest.approx(total)


def test_play_game_is_reproducible() -> None:
    a = play_game("short", (get_player("easy", "short", seed=1), get_player("medium", "short")), seed=5)
    b = play_game("short", (get_player("easy", "short", seed=1), get_player("medium", "short")), seed=5)
    assert a == b


def _reference_two_ply(hard: HardPlayer, position: Position) -> float:
    """Return the 2-ply value of ``position`` (after our move) from the public move list, one position at a time."""

    def after(move_position: Position) -> float:  # the mover's value of a position after its move
        if sum(move_position.me) == 0:
            return float(SHORT.game_value(move_position, Options()).points)
        return -float(hard.network.equities(positions_array([move_position.swapped()]))[0])

    total = 0.0
    for d1, d2, weight in ROLLS:
        replies = legal_moves("short", position.swapped(), (d1, d2))
        if replies:
            reply = max(replies, key=lambda m: after(m.position)).position
            if sum(reply.me) == 0:
                total -= weight * after(reply)
                continue
            ours = reply.swapped()
        else:
            ours = position
        inner = 0.0
        for e1, e2, inner_weight in ROLLS:
            moves = legal_moves("short", ours, (e1, e2))
            inner += inner_weight * (
                max(after(m.position) for m in moves) if moves else after(ours)
            )  # forfeit: as it is
        total += weight * inner
    return total


@pytest.mark.parametrize(
    "position",
    [
        # after our opening move
        Position(make_side({6: 5, 8: 3, 13: 4, 24: 2, 11: 1}), make_side({6: 5, 8: 3, 13: 5, 24: 2})),
        # the opponent on the bar against our closed board forfeits every roll
        Position(make_side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}), make_side({25: 1, 24: 2, 13: 6, 8: 6})),
        # we are on the bar against five closed points: our rolls without a six are forfeited
        Position(make_side({25: 1, 6: 5, 8: 3, 13: 6}), make_side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})),
        # both bearing off their last checkers: most replies and all our moves end the game
        Position(make_side({1: 1, 2: 1}), make_side({1: 1, 3: 1})),
    ],
)
def test_two_ply_matches_a_reference_search(position: Position) -> None:
    hard = HardPlayer("short", 1)
    game = Game("short", dice=SeededDice(7), first_player=0)
    assert hard.two_ply(position, game, opponent_first=False) == pytest.approx(_reference_two_ply(hard, position))
