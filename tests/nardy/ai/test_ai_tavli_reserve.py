"""The computer players of Plakoto, Fevga, Gul bara, Acey-deucey and Dutch backgammon (docs/rules.md §6.2, §6.4-§6.6):
whole seeded games at every level, Gul bara's hand-over, Acey-deucey's named double, and the evaluation of the
extended sides (pins and the mother, the reserve)."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from nardy import Game, Options, Phase, Position, SeededDice
from nardy.ai import LEVELS, EasyPlayer, MediumPlayer, get_player, has_level, levels_for, play_game
from nardy.ai.bonus import choose_double
from nardy.ai.features import encode, family, input_size, positions_array, side_length, swap
from nardy.ai.heuristic import heuristic_equity, heuristic_score
from nardy.ai.network import Network, output_names, shipped_network
from nardy.ai.search import candidate_states, candidate_states_of, states_array
from nardy.ai.search import won_values as _won_values
from nardy.ai.train import (
    bonus_continuation,
    main,
    plays_whole_bonus_roll,
    roll_candidates,
    sudden_outcomes,
    train_game,
)
from nardy.dice import FixedDice
from nardy.position import make_side, side_pips
from nardy.variants import get_variant
from nardy.variants.base import from_state, to_state

VARIANTS = ("plakoto", "fevga", "gulbara", "acey_deucey", "dutch")
LENGTHS = {"plakoto": 49, "fevga": 25, "gulbara": 25, "acey_deucey": 26, "dutch": 26}


@dataclass
class Played:
    """A finished game and what happened on the way."""

    game: Game
    hand_overs: int = 0  # moves chosen by the receiver of a Gul bara hand-over
    named: list[int] = field(default_factory=list)  # doubles named after an Acey-deucey 1-2
    sudden: int = 0  # moves chosen while a move ending the game at once (Plakoto's mother) was legal


def checked_game(variant: str, levels: tuple[str, str], seed: int, options: Options) -> Played:
    """Play a whole game through the Game API, checking every answer of both players against the rules."""
    players = (get_player(levels[0], variant, seed=seed), get_player(levels[1], variant, seed=seed + 1))
    game = Game(variant, options=options, dice=SeededDice(seed))
    played = Played(game)
    for _ in range(5000):
        if game.phase is Phase.OVER:
            return played
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
        elif game.phase is Phase.CHOOSE:
            roller = game.roller
            die = choose_double(players[roller], game)
            assert 1 <= die <= 6
            assert game.phase is Phase.CHOOSE and game.roller == roller  # the trials ran on copies
            played.named.append(die)
            game.choose_double(die)
        else:
            assert game.phase is Phase.MOVE
            legal = {m.position: m for m in game.legal_moves()}
            if game.hand_over:
                played.hand_overs += 1
            move = players[game.roller].choose_move(game)
            assert move.position in legal
            game.play(move)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("variant", VARIANTS)
def test_levels_are_easy_and_medium_unless_a_network_ships(variant: str) -> None:
    assert family(variant) in ("long", "reserve", "plakoto")
    assert side_length(variant) == LENGTHS[variant] == get_variant(variant).side_length
    levels = levels_for(variant)
    assert levels[:2] == ("easy", "medium")
    if has_level("hard", variant):
        assert levels == LEVELS
        assert get_player("hard", variant, seed=1).network.variant == variant  # type: ignore[attr-defined]
    else:
        assert levels == ("easy", "medium")
        with pytest.raises(ValueError, match=f"no trained network for {variant} yet"):
            get_player("hard", variant)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_seeded_whole_game_per_level(variant: str, level: str) -> None:
    # the level plays itself and the other hand-written level; the cube as the variant has it by default
    other = "medium" if level == "easy" else "easy"
    for seed, pair in enumerate(((level, level), (level, other))):
        played = checked_game(variant, pair, seed=7 + seed, options=Options())
        assert played.game.result is not None


@pytest.mark.parametrize("variant", [v for v in VARIANTS if has_level("hard", v)])
def test_the_hard_level_plays_a_whole_game(variant: str) -> None:
    # with the variant's default cube; in Acey-deucey the hard player names its doubles by its network
    played = checked_game(variant, ("hard", "medium"), seed=11, options=Options())
    assert played.game.result is not None


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_game_runs_every_phase(variant: str) -> None:
    players = (get_player("medium", variant, seed=1), get_player("easy", variant, seed=2))
    result = play_game(variant, players, seed=3, options=Options(cube=False))
    assert result.points > 0 or result.winner is None


def test_the_hard_level_plays_where_it_ships() -> None:
    for variant in VARIANTS:
        if has_level("hard", variant):
            played = checked_game(variant, ("hard", "medium"), seed=5, options=Options(cube=False))
            assert played.game.result is not None


def test_gul_bara_hand_over_is_played_by_the_receiver() -> None:
    # escalation from the first turn: the seeded games hand over unplayed moves, which the receiver plays
    options = Options(gulbara_plain_turns=0)
    hand_overs = 0
    for seed in range(6):
        hand_overs += checked_game("gulbara", ("medium", "easy"), seed=seed, options=options).hand_overs
    assert hand_overs > 0


def test_gul_bara_receiver_moves_in_the_opponents_roll() -> None:
    options = Options(gulbara_plain_turns=0, cube=False)
    for seed in range(40):
        game = Game("gulbara", options=options, dice=SeededDice(seed))
        players = (MediumPlayer("gulbara", 1), EasyPlayer("gulbara", 2))
        while game.phase is not Phase.OVER and not game.hand_over:
            if game.phase in (Phase.OPENING, Phase.ROLL):
                game.roll()
            else:
                game.play(players[game.roller].choose_move(game))
        if game.hand_over:
            break
    else:  # pragma: no cover - the seeds above hand over
        raise AssertionError("no hand-over in the seeded games")
    receiver = game.roller
    for player in (MediumPlayer("gulbara", 3), EasyPlayer("gulbara", 4)):
        move = player.choose_move(game)
        assert move.position in {m.position for m in game.legal_moves()}
        assert move.position.me != game.position.me or len(game.legal_moves()) == 1
    while game.phase is Phase.MOVE and game.hand_over:  # every handed-over number, then the receiver's own roll
        assert game.roller == receiver
        game.play(MediumPlayer("gulbara", 3).choose_move(game))
    assert game.phase is Phase.OVER or (game.phase is Phase.ROLL and game.roller == receiver)


def test_acey_deucey_names_a_double_after_a_one_two() -> None:
    named: list[int] = []
    for seed in range(12):
        named += checked_game("acey_deucey", ("medium", "easy"), seed=seed, options=Options()).named
    assert named and all(1 <= die <= 6 for die in named)


def test_acey_deucey_choose_double_at_the_start() -> None:
    # a 1-2 as the very first roll: enter two checkers, then name the double; every candidate is tried on a copy
    game = Game("acey_deucey", options=Options(cube=False), dice=FixedDice([5, 3, 1, 2]))
    game.roll()  # the opening roll: player 0 starts and rolls both dice afresh
    if game.phase is Phase.ROLL:
        game.roll()
    assert game.phase is Phase.MOVE and sorted(game.dice or ()) == [1, 2]
    for level in ("easy", "medium"):
        trial = Game.from_dict(game.to_dict())
        player = get_player(level, "acey_deucey", seed=1)
        trial.play(player.choose_move(trial))
        assert trial.phase is Phase.CHOOSE
        die = choose_double(player, trial)
        trial.choose_double(die)
        assert trial.phase is Phase.MOVE and trial.dice == (die, die)
        trial.play(player.choose_move(trial))


def pinned_side(free: dict[int, int], pinned: tuple[int, ...] = ()) -> tuple[int, ...]:
    side = [0] * 49
    for point, count in free.items():
        side[point - 1] = count
    for point in pinned:
        side[25 + point - 1] = 1
    return tuple(side)


def test_plakoto_values_a_pin_and_dislikes_being_pinned() -> None:
    # my checker on my 10 pins the opponent's checker there (its point 15) or stands beside an empty point
    pin = Position(pinned_side({24: 13, 10: 1, 6: 1}), pinned_side({24: 14}, pinned=(15,)))
    no_pin = Position(pinned_side({24: 13, 10: 1, 6: 1}), pinned_side({24: 14, 14: 1}))
    mine_pinned = Position(pinned_side({24: 13, 6: 1}, pinned=(10,)), pinned_side({24: 14, 15: 1}))
    get_variant("plakoto").validate(pin)
    get_variant("plakoto").validate(mine_pinned)
    scores = heuristic_score("plakoto", positions_array([pin, no_pin, mine_pinned]))
    assert scores[0] > scores[1] > scores[2]


def test_plakoto_pinned_mother_wins_at_once_and_is_chosen() -> None:
    # the opponent's last checker on its 24 stands on my point 1; a 1 from my 2 pins it and, with my own 24 empty,
    # wins a gammon at once (the mother rule)
    variant = get_variant("plakoto")
    position = Position(pinned_side({2: 1, 3: 2, 5: 2, 6: 10}), pinned_side({24: 1, 3: 14}))
    variant.validate(position)
    game = Game("plakoto", options=Options(cube=False), dice=FixedDice([1, 3]))
    game.sides = [position.me, position.opp]
    game.phase, game.roller, game.turn, game.first_player, game.moves_played = Phase.ROLL, 0, 0, 0, 1
    game.roll()
    assert game.phase is Phase.MOVE
    moves = game.legal_moves()
    won = _won_values(variant, positions_array([m.position for m in moves]), [m.position for m in moves], game.options)
    assert np.nanmax(won) == 2
    for level in ("easy", "medium"):
        move = get_player(level, "plakoto", seed=1).choose_move(game)
        assert variant.sudden_result(move.position, game.options) is not None


def test_plakoto_exposed_mother_is_a_risk() -> None:
    # my last checker on my 24 within reach of the opponent's checkers on my 18..23 (its 2..7), its own 24 empty
    exposed = Position(pinned_side({24: 1, 6: 14}), pinned_side({5: 5, 4: 5, 3: 5}))
    covered = Position(pinned_side({24: 2, 6: 13}), pinned_side({5: 5, 4: 5, 3: 5}))
    scores = heuristic_score("plakoto", positions_array([exposed, covered]))
    assert scores[1] > scores[0] + 20


def reserve_side(points: dict[int, int], reserve: int = 0, bar: int = 0) -> tuple[int, ...]:
    side = [0] * 26
    for point, count in points.items():
        side[point - 1] = count
    side[24], side[25] = bar, reserve
    return tuple(side)


@pytest.mark.parametrize("variant", ["acey_deucey", "dutch"])
def test_reserve_counts_as_the_bar_and_blocks_the_end(variant: str) -> None:
    start = Position(reserve_side({}, 15), reserve_side({}, 15))
    batch = positions_array([start])
    assert batch.shape == (1, 52)
    assert (swap(batch) == batch).all()
    # a side with every checker on the board but one in the reserve has not finished
    nearly = Position(reserve_side({}, 1), reserve_side({6: 15}))
    assert np.isnan(_won_values(get_variant(variant), positions_array([nearly]), [nearly], Options())[0])
    # being ahead (fewer checkers waiting) is better
    ahead = Position(reserve_side({6: 5, 8: 3, 13: 5}, 2), reserve_side({}, 15))
    behind = Position(reserve_side({}, 15), reserve_side({6: 5, 8: 3, 13: 5}, 2))
    equities = heuristic_equity(variant, positions_array([ahead, behind]))
    assert equities[0] > 0 > equities[1]
    assert MediumPlayer(variant).position_equity(ahead) > MediumPlayer(variant).position_equity(behind)


def test_dutch_blot_is_safer_before_the_opponent_is_home() -> None:
    # my blot on my 5 with two opposing checkers on my 1 (their 24) four pips behind it, the rest of theirs in the
    # reserve; then the same with one more of theirs entered on their point 1 (home): in Dutch that arms them
    blot = reserve_side({5: 1, 13: 4}, 10)
    not_home = reserve_side({24: 2}, 13)
    home = reserve_side({24: 2, 1: 1}, 12)
    batch = positions_array([Position(blot, not_home), Position(blot, home)])
    dutch = heuristic_score("dutch", batch)
    acey = heuristic_score("acey_deucey", batch)
    assert dutch[0] - dutch[1] > acey[0] - acey[1] + 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_candidate_batches_have_the_variant_width(variant: str) -> None:
    v = get_variant(variant)
    start = v.initial_position()
    states = candidate_states(v, start, (6, 5), True)
    batch = states_array(states)
    assert batch.shape == (len(states), 2 * v.side_length)
    scores = heuristic_score(variant, batch)
    assert scores.shape == (len(states),) and np.isfinite(scores).all()


def test_training_plays_gul_bara_escalations() -> None:
    variant = get_variant("gulbara")
    net = Network.random("gulbara", 8, 1)
    position = Position(make_side({24: 11, 19: 2, 15: 2}), variant.initial_side())
    start = to_state(position)
    # one of the plain turns: the ordinary candidates (four 5s); after them, 5-5 escalates to four 5s and four 6s
    plain = candidate_states_of(variant, start, (5, 5), False)
    assert roll_candidates(net, variant, start, (5, 5), False, 0) == plain
    escalated = roll_candidates(net, variant, start, (5, 5), False, 3)
    before = side_pips(position.me)
    assert {before - side_pips(from_state(s).me) for s in plain} == {20}
    assert escalated and {before - side_pips(from_state(s).me) for s in escalated} == {44}
    assert train_game(net, variant, seed=3, lam=0.7, alpha=0.1) > 0
    assert np.isfinite(net.w1).all()


@pytest.mark.parametrize("variant", ["fevga", "gulbara"])
def test_long_board_networks_share_the_long_inputs(variant: str) -> None:
    assert input_size(variant) == input_size("long")
    assert output_names(variant) == output_names("long")


def test_plakoto_network_inputs_and_training() -> None:
    variant = get_variant("plakoto")
    start = variant.initial_position()
    pin = Position(pinned_side({24: 13, 10: 1, 6: 1}), pinned_side({24: 14}, pinned=(15,)))
    x = encode("plakoto", positions_array([start, pin, pin.swapped()]))
    assert x.shape == (3, input_size("plakoto"))
    assert not np.array_equal(x[1], x[2])
    assert output_names("plakoto") == ("win", "win_gammon", "lose_gammon")
    net = Network.random("plakoto", 8, 1)
    assert train_game(net, variant, seed=1, lam=0.7, alpha=0.1) > 0
    assert np.isfinite(net.w1).all()


def test_training_values_the_mother_rule() -> None:
    variant = get_variant("plakoto")
    # my 2/1* pins the opponent's mother with my own 24 empty: a gammon won at once; 6/5 does not
    before = Position(pinned_side({2: 1, 3: 2, 5: 2, 6: 10}), pinned_side({24: 1, 3: 14}))
    won = Position(pinned_side({1: 1, 3: 2, 5: 2, 6: 10}), pinned_side({3: 14}, pinned=(24,)))
    quiet = Position(pinned_side({2: 1, 3: 2, 5: 3, 6: 9}), before.opp)
    ends = sudden_outcomes(variant, [to_state(quiet), to_state(won)])
    assert list(ends) == [1] and list(ends[1]) == [1.0, 1.0, 0.0]
    assert sudden_outcomes(get_variant("fevga"), [to_state(get_variant("fevga").initial_position())]) == {}


@pytest.mark.parametrize("variant", [v for v in VARIANTS if has_level("hard", v)])
def test_shipped_networks_fit_their_variant(variant: str) -> None:
    net = shipped_network(variant)
    assert net.variant == variant
    assert net.w1.shape == (input_size(variant), net.hidden)
    assert net.w2.shape == (net.hidden, len(output_names(variant)))
    assert net.info.get("games", 0) > 0 and "TD" in str(net.info.get("method"))
    readme = resources.files("nardy.ai").joinpath("weights", "README.md").read_text(encoding="utf-8")
    assert f"`{variant}.npz`" in readme
    # the start is about even for the side on roll
    equity = float(net.equities(positions_array([get_variant(variant).initial_position()]))[0])
    assert -0.5 < equity < 0.5


@pytest.mark.parametrize("variant", ["acey_deucey", "dutch"])
def test_reserve_inputs_extend_short_nardys(variant: str) -> None:
    # with nothing in the reserve the first 212 inputs are short nardy's of the same 25-entry position
    me = reserve_side({6: 5, 8: 3, 13: 5, 24: 1}, bar=1)
    opp = reserve_side({6: 4, 8: 3, 13: 5, 24: 2}, bar=1)
    short = encode("short", positions_array([Position(me[:25], opp[:25])]))
    x = encode(variant, positions_array([Position(me, opp)]))
    assert x.shape == (1, input_size(variant)) == (1, input_size("short") + 4)
    assert np.array_equal(x[0, : short.shape[1]], short[0])
    assert list(x[0, -4:-2]) == [0.0, 0.0]
    # a reserve checker counts on the bar for pips and checkers off but not in the bar input (the checkers hit)
    waiting = encode(variant, positions_array([Position(reserve_side({6: 14}, 1), opp)]))[0]
    on_bar = encode(variant, positions_array([Position(reserve_side({6: 14}, bar=1), opp)]))[0]
    assert waiting[-4] == pytest.approx(1 / 15) and on_bar[-4] == 0.0
    assert waiting[96] == 0.0 and on_bar[96] == 0.5
    assert np.array_equal(np.delete(waiting, [96, 212]), np.delete(on_bar, [96, 212]))


def test_dutch_inputs_say_who_may_hit() -> None:
    home = reserve_side({1: 1, 13: 2}, 12)
    away = reserve_side({13: 3}, 12)
    dutch = encode("dutch", positions_array([Position(home, away), Position(away, home)]))
    acey = encode("acey_deucey", positions_array([Position(home, away)]))
    assert list(dutch[0, -2:]) == [1.0, 0.0] and list(dutch[1, -2:]) == [0.0, 1.0]
    assert list(acey[0, -2:]) == [1.0, 1.0]


def test_training_plays_the_acey_deucey_bonus() -> None:
    variant = get_variant("acey_deucey")
    net = Network.random("acey_deucey", 8, 1)
    start = to_state(Position(reserve_side({6: 2, 8: 2, 13: 2}, 9), reserve_side({6: 2, 13: 2}, 11)))
    assert plays_whole_bonus_roll(variant, start, (2, 1), False)
    assert not plays_whole_bonus_roll(variant, start, (2, 3), False)
    assert not plays_whole_bonus_roll(get_variant("dutch"), start, (1, 2), False)
    after, again = bonus_continuation(net, variant, start)
    # some double is played in full: four moves of one number, and the mover rolls again
    moved = side_pips(from_state(start).me) - side_pips(from_state(after).me)
    assert again and moved in {4 * d for d in range(1, 7)}
    assert sum(from_state(after).me) == sum(from_state(start).me)
    for seed in range(3):
        assert train_game(net, variant, seed=seed, lam=0.7, alpha=0.1) > 0
    assert np.isfinite(net.w1).all()


def test_training_starts_a_reserve_network_from_short_nardys(tmp_path: Path) -> None:
    base = Network.random("short", 8, 1)
    base_path = str(tmp_path / "short.npz")
    base.save(base_path)
    out = str(tmp_path / "dutch.npz")
    argv = ["--variant", "dutch", "--init-from", base_path, "--games", "1", "--eval-every", "0"]
    assert main([*argv, "--workdir", str(tmp_path), "--output", out]) == 0
    net = Network.load(out)
    assert net.w1.shape == (input_size("dutch"), 8) and net.info["initialised_from"]["variant"] == "short"
