"""The arena simulated on virtual time (tournaments/arena_sim.py): the invariants of a small arena (nobody in two
games at once, every game's players were free, nobody paired after the end), reproducibility, and its figures."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from tournaments.arena import arena_standings
from tournaments.arena_sim import LONG_WAIT, SimGame, simulate_arena
from tournaments.errors import InvalidOptionError, InvalidPlayersError

DURATION = 600.0
ALONE_AFTER = 20.0


def field(n: int, seed: int = 1) -> dict[str, float]:
    rnd = random.Random(seed)
    return {f"p{i:02}": round(rnd.gauss(1500, 200)) for i in range(n)}


def by_player(games: tuple[SimGame, ...]) -> dict[str, list[SimGame]]:
    played: dict[str, list[SimGame]] = defaultdict(list)
    for game in games:
        for player in game.game.players:
            played[player].append(game)
    return played


def test_a_small_arena_keeps_its_invariants() -> None:
    ratings = field(20)
    sim = simulate_arena(ratings, DURATION, seed=5, alone_after=ALONE_AFTER)
    assert sim.players == 20
    assert [g.start for g in sim.games] == sorted(g.start for g in sim.games)
    for game in sim.games:
        assert 0 <= game.start < DURATION and game.start == int(game.start)
        assert game.end > game.start
        assert game.counted == (game.end <= DURATION)
    for player, games in by_player(sim.games).items():
        free_since = 0.0
        previous = None
        for game in games:
            # the player was free: its previous game had ended (so never two games at once)
            assert game.start >= free_since, player
            opponent = game.game.players[1 - game.game.side(player)]
            if previous is not None and previous == opponent:
                # the same opponent twice in a row only after one of the two waited alone_after
                other = [g for g in by_player(sim.games)[opponent] if g.end <= game.start]
                waits = (game.start - free_since, game.start - other[-1].end)
                assert max(waits) >= ALONE_AFTER
            free_since, previous = game.end, opponent
    counted = [g for g in sim.games if g.counted]
    assert sim.total_games == len(counted) > 0
    assert sim.waits == 2 * len(sim.games)
    assert 0 <= sim.long_wait_share <= 1 and sim.longest_wait >= 0
    games_of = [sum(player in g.game.players for g in counted) for player in ratings]
    assert (sim.games_min, sim.games_max) == (min(games_of), max(games_of))
    assert sim.games_min <= sim.games_median <= sim.games_max
    in_order = [g.game for g in sorted(counted, key=lambda g: (g.end, g.start))]
    assert sim.scores == {row.player: row.score for row in arena_standings(list(ratings), in_order, ratings)}


def test_the_same_seed_gives_the_same_arena() -> None:
    ratings = field(12)
    assert simulate_arena(ratings, DURATION, seed=7) == simulate_arena(ratings, DURATION, seed=7)
    assert simulate_arena(ratings, DURATION, seed=7).games != simulate_arena(ratings, DURATION, seed=8).games


def test_two_hundred_players_for_thirty_minutes_rarely_wait() -> None:
    sim = simulate_arena(field(200), 1800.0, seed=0)
    assert sim.games_min >= 3 and sim.games_max <= 10
    assert sim.long_wait_share < 0.05 and sim.longest_wait > 0
    assert any(g.game.berserk != (False, False) for g in sim.games)
    assert any(g.game.on_time for g in sim.games)


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidPlayersError):
        simulate_arena({"a": 1500.0}, DURATION)
    with pytest.raises(InvalidOptionError, match="duration"):
        simulate_arena(field(4), -1.0)
    with pytest.raises(InvalidOptionError, match="game_seconds"):
        simulate_arena(field(4), DURATION, game_seconds=(300.0, 200.0, 250.0))
    with pytest.raises(InvalidOptionError, match="berserk_share"):
        simulate_arena(field(4), DURATION, berserk_share=1.5)
    assert LONG_WAIT == 30.0
