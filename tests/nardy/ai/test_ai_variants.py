"""The computer players of the variants on the short-nardy board: Hypergammon, Nackgammon, Portes and Misère."""

from __future__ import annotations

import numpy as np
import pytest

from nardy import Game, Options, Position, legal_moves
from nardy.ai import LEVELS, MediumPlayer, get_player, has_level, levels_for, play_game
from nardy.ai.features import encode, input_size, positions_array
from nardy.ai.heuristic import heuristic_equity, heuristic_score
from nardy.ai.network import Network, equity
from nardy.ai.train import main, outcome, train_game
from nardy.position import make_side
from nardy.variants import get_variant
from nardy.variants.base import to_state
from tests.nardy.ai.test_ai_players import checked_game

NEW_VARIANTS = ("hypergammon", "nackgammon", "portes", "misere")


@pytest.mark.parametrize("variant", NEW_VARIANTS)
@pytest.mark.parametrize("cube", [None, True])
def test_every_level_plays_a_whole_game_legally(variant: str, cube: bool | None) -> None:
    # every level that exists for the variant plays itself and the next level (the variant's cube default, or on)
    levels = ("random", *levels_for(variant))
    assert {"easy", "medium"} <= set(levels)
    for i, level in enumerate(levels):
        for seed, pair in enumerate(((level, level), (level, levels[(i + 1) % len(levels)]))):
            game = checked_game(variant, pair, seed=10 * i + seed + 100 * (cube is True), options=Options(cube=cube))
            assert game.result is not None


# the levels the computer has in each variant of this file (hard where a network ships in nardy/ai/weights)
LEVELS_BY_VARIANT = {
    "hypergammon": ("easy", "medium", "hard"),
    "nackgammon": ("easy", "medium", "hard"),
    "portes": ("easy", "medium", "hard"),
    "misere": ("easy", "medium", "hard"),
}


@pytest.mark.parametrize("variant", NEW_VARIANTS)
def test_levels_of_each_variant(variant: str) -> None:
    assert levels_for(variant) == LEVELS_BY_VARIANT[variant]


@pytest.mark.parametrize("variant", NEW_VARIANTS)
def test_hard_exists_exactly_where_a_network_ships(variant: str) -> None:
    if has_level("hard", variant):
        assert get_player("hard", variant, seed=1).network.variant == variant  # type: ignore[attr-defined]
        assert levels_for(variant) == LEVELS
    else:
        with pytest.raises(ValueError, match=f"no trained network for {variant} yet"):
            get_player("hard", variant)
        assert levels_for(variant) == ("easy", "medium")


def race(me: dict[int, int], opp: dict[int, int]) -> Position:
    return Position(make_side(me), make_side(opp))


def test_misere_evaluation_prefers_being_behind() -> None:
    # a race (no contact), after my move: I am far ahead (few pips) or far behind
    ahead = race({1: 2, 2: 2}, {6: 5, 5: 5, 4: 5})
    behind = race({6: 5, 5: 5, 4: 5}, {1: 2, 2: 2})
    batch = positions_array([ahead, behind])
    misere = heuristic_score("misere", batch)
    short = heuristic_score("short", batch)
    assert misere[1] > misere[0]
    assert short[0] > short[1]
    # the cube decisions read the reversed outcome: before my roll, being ahead in the race is bad in Misère
    on_roll = race({1: 2, 2: 2}, {6: 5, 5: 5, 4: 5})
    assert MediumPlayer("misere").position_equity(on_roll) < -0.3
    assert MediumPlayer("short").position_equity(on_roll) > 0.3
    assert heuristic_equity("misere", batch)[1] > 0.3


def test_misere_evaluation_keeps_checkers_back_and_welcomes_hits() -> None:
    opp = {19: 2, 6: 5, 8: 3, 13: 5}
    # the same pips: a blot in front of the opponent's back checkers (it may hit it) or all checkers safe
    exposed = race({24: 2, 13: 4, 8: 3, 6: 4, 14: 1, 12: 1}, opp)
    safe = race({24: 2, 13: 6, 8: 3, 6: 4}, opp)
    scores = heuristic_score("misere", positions_array([exposed, safe]))
    assert scores[0] > scores[1]
    # hitting a checker of the opponent sends it back: bad in Misère, good in short nardy
    hit = race({24: 2, 13: 5, 8: 3, 6: 4, 3: 1}, {25: 1, 19: 1, 6: 5, 8: 3, 13: 5})
    no_hit = race({24: 2, 13: 5, 8: 3, 6: 4, 4: 1}, {22: 1, 19: 1, 6: 5, 8: 3, 13: 5})
    batch = positions_array([hit, no_hit])
    assert heuristic_score("misere", batch)[1] > heuristic_score("misere", batch)[0]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_misere_players_do_not_finish_first_when_they_can_avoid_it(level: str) -> None:
    # checkers on my 1 and 6, a roll of 6-1: both off (I finish first and lose) or 6-5, 5-off (one stays)
    position = race({1: 1, 6: 1}, {6: 3, 5: 3})
    moves = legal_moves(get_variant("misere"), position, (6, 1))
    assert {sum(m.position.me) for m in moves} == {0, 1}
    for seed in range(20):
        player = get_player(level, "misere", seed=seed)
        values = player.move_equities(moves, Game("misere"))
        assert sum(moves[int(np.argmax(values))].position.me) == 1
    # the same choice in short nardy finishes
    short = get_player(level, "short", seed=1)
    short_moves = legal_moves(get_variant("short"), position, (6, 1))
    assert sum(short_moves[int(np.argmax(short.move_equities(short_moves, Game("short"))))].position.me) == 0


def test_misere_medium_rarely_loses_to_random_play() -> None:
    losses = 0
    for seed in range(6):
        result = play_game(
            "misere", (get_player("medium", "misere", seed=seed), get_player("random", "misere")), seed=seed
        )
        # the medium player is player 0: against random play it rarely loses (finishes first or is drawn)
        losses += result.winner != 0
    assert losses <= 1


def test_hypergammon_features_count_three_checkers() -> None:
    start = get_variant("hypergammon").initial_position()
    one_left = race({1: 1}, {24: 1, 23: 1, 22: 1})
    x = encode("hypergammon", positions_array([start, one_left]))
    assert x.shape == (2, input_size("hypergammon")) == (2, input_size("short"))
    off = 96 + 1  # the borne-off feature of the side on roll
    assert x[0, off] == 0.0
    assert x[1, off] == pytest.approx(2 / 3)


def test_variant_equities_score_as_the_variant_does() -> None:
    probs = np.array([[0.5, 0.2, 0.1, 0.1, 0.05]])
    assert equity("short", probs)[0] == pytest.approx(0.15)
    assert equity("portes", probs)[0] == pytest.approx(0.1)
    assert equity("hypergammon", probs)[0] == pytest.approx(0.0)


def test_misere_training_outcome_is_a_loss_for_the_finisher() -> None:
    state = to_state(race({}, {6: 3}))
    assert np.array_equal(outcome(get_variant("misere"), state), np.zeros(5))
    assert outcome(get_variant("portes"), to_state(race({}, {6: 15})))[:3].tolist() == [1.0, 1.0, 0.0]


@pytest.mark.parametrize("variant", NEW_VARIANTS)
def test_training_runs_for_each_variant(variant: str) -> None:
    net = Network.random(variant, 4, seed=1)
    before = net.w1.copy()
    assert train_game(net, get_variant(variant), seed=3, lam=0.7, alpha=0.1) > 5
    assert not np.array_equal(net.w1, before)


def test_training_can_start_from_another_variants_weights(tmp_path: object) -> None:
    Network.random("short", 4, seed=1).save(f"{tmp_path}/short.npz")
    main(["--variant", "nackgammon", "--games", "1", "--eval-every", "0", "--workdir", f"{tmp_path}/w"])
    main(
        [
            *("--variant", "portes", "--games", "1", "--eval-every", "0", "--workdir", f"{tmp_path}/w"),
            *("--init-from", f"{tmp_path}/short.npz"),
        ]
    )
    net = Network.load(f"{tmp_path}/w/portes-latest.npz")
    assert net.variant == "portes"
    assert net.info["initialised_from"]["variant"] == "short"


@pytest.mark.parametrize("variant", NEW_VARIANTS)
def test_medium_beats_easy(variant: str) -> None:
    points = 0.0
    for g in range(16):
        medium, easy = MediumPlayer(variant, g), get_player("easy", variant, seed=g)
        players = (medium, easy) if g % 2 == 0 else (easy, medium)
        result = play_game(variant, players, seed=500 + g // 2, options=Options(cube=False))
        if result.winner is not None:
            points += result.points if result.winner == g % 2 else -result.points
    assert points > 0


def test_misere_hard_beats_medium() -> None:
    # seeded cubeless games, sides swapped on each pair (benchmarks/ai_strength.py measures the share over 600)
    points = 0.0
    for g in range(8):
        hard, medium = get_player("hard", "misere", seed=g), MediumPlayer("misere", g)
        players = (hard, medium) if g % 2 == 0 else (medium, hard)
        result = play_game("misere", players, seed=700 + g // 2, options=Options(cube=False))
        if result.winner is not None:
            points += result.points if result.winner == g % 2 else -result.points
    assert points > 0


def test_misere_hard_network_learned_the_reversed_aim() -> None:
    # a race after my move: far ahead (I must finish first and lose) or far behind (the other side must)
    ahead = race({1: 2}, {6: 15})
    behind = race({6: 15}, {1: 2})
    hard = get_player("hard", "misere", seed=1)
    assert hard.position_equity(ahead.swapped()) > 0.5  # the side on roll is the one far behind
    assert hard.position_equity(behind.swapped()) < -0.5
