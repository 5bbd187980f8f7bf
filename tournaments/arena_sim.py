"""An arena simulated on virtual time: how many games each player gets and how long they wait (issue 47).

Every player joins at 0 and stays to the end. Each second of virtual time the games that have ended free their
players (waiting from the moment their game ended) and :func:`tournaments.matching.arena_pairs` pairs the free
players with their current arena scores and last opponents; a pair starts a game at once. A game lasts a random time
drawn from a triangular distribution (by default 3 to 9 minutes, most often 5: a 1-point short-nardy game on a 12+2
clock); a few end early on time. The winner is drawn from the Elo expectation of the two ratings (a berserker plays
as if 100 points weaker). Games still running when the arena ends finish but do not count, and nobody is paired
after the end. Pure and standard library only; one seeded ``random.Random`` makes a run reproducible.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping
from dataclasses import dataclass

from tournaments.arena import FIRE_AFTER, ArenaGame, ArenaRules, arena_standings, game_points
from tournaments.errors import InvalidOptionError, InvalidPlayersError
from tournaments.matching import Seeker, arena_pairs

LONG_WAIT = 30.0
"""A wait longer than this many seconds is counted as long in :attr:`ArenaSimulation.long_wait_share`."""

BERSERK_HANDICAP = 100.0
"""Rating points a berserker plays below its rating (half the reserve and no delay)."""

SECONDS_PER_OWN_MOVE = 12.0
"""Seconds of a game per own move of each player (about 6 s a turn for each side): a 5-minute game is 25 moves each."""

DEFAULT_RULES = ArenaRules()
"""The scoring of a simulated arena unless told otherwise (no status bonus, berserk after 7 moves)."""

ON_TIME_SHARE = 0.03
"""Share of games that end early because a player's time ran out (they last a random share of the drawn length)."""


@dataclass(frozen=True, slots=True)
class SimGame:
    """One simulated game: its players, when it started and ended (virtual seconds), the result as an
    :class:`ArenaGame`, and whether it counted (it ended before the arena did)."""

    start: float
    end: float
    game: ArenaGame
    counted: bool


@dataclass(frozen=True, slots=True)
class ArenaSimulation:
    """The figures of a simulated arena: counted games per player (min, median, max) and in all, the waits (every
    wait that ended in a pairing), the share of them longer than :data:`LONG_WAIT`, the longest, every game played
    (counted or not, by start) and the final scores by player."""

    players: int
    total_games: int
    games_min: int
    games_median: float
    games_max: int
    waits: int
    long_wait_share: float
    longest_wait: float
    games: tuple[SimGame, ...]
    scores: Mapping[str, int]


def _expected(rating: float, opponent: float) -> float:
    """Return the Elo expectation of ``rating`` against ``opponent``."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def simulate_arena(
    ratings: Mapping[str, float],
    duration: float,
    *,
    seed: int = 0,
    game_seconds: tuple[float, float, float] = (180.0, 540.0, 300.0),
    berserk_share: float = 0.1,
    alone_after: float = 20.0,
    rules: ArenaRules = DEFAULT_RULES,
) -> ArenaSimulation:
    """Return the figures of an arena of ``duration`` virtual seconds played by ``ratings`` (id -> rating).

    ``game_seconds`` is (shortest, longest, most likely) length of a game, ``berserk_share`` the chance that a player
    berserks a game, ``alone_after`` the wait after which a player takes its last opponent, ``seed`` the seed of the
    random draws (the same arguments give the same figures).
    Raises :class:`InvalidPlayersError` for fewer than two players and :class:`InvalidOptionError` for a negative or
    non-finite duration, a bad ``game_seconds`` or a share outside 0..1.
    """
    if len(ratings) < 2:
        raise InvalidPlayersError(f"an arena needs at least two players, not {len(ratings)}")
    if not math.isfinite(duration) or duration < 0:
        raise InvalidOptionError(f"duration must be a non-negative number of seconds, not {duration!r}")
    low, high, mode = game_seconds
    if not 0 < low <= mode <= high or not math.isfinite(high):
        raise InvalidOptionError(f"game_seconds must be (shortest, longest, most likely) > 0, not {game_seconds!r}")
    if not 0.0 <= berserk_share <= 1.0:
        raise InvalidOptionError(f"berserk_share must be between 0 and 1, not {berserk_share!r}")
    rng = random.Random(seed)
    players = sorted(ratings)
    free_since: dict[str, float] = dict.fromkeys(players, 0.0)
    last: dict[str, str | None] = dict.fromkeys(players)
    score = dict.fromkeys(players, 0)
    streak = dict.fromkeys(players, 0)
    running: list[SimGame] = []
    played: list[SimGame] = []
    waits: list[float] = []

    def finish(game: SimGame) -> None:
        for side, player in enumerate(game.game.players):
            free_since[player] = game.end
            last[player] = game.game.players[1 - side]
            if game.counted:
                fire = streak[player] >= FIRE_AFTER
                score[player] += game_points(game.game, side, fire=fire, rules=rules)
                streak[player] = streak[player] + 1 if game.game.winner == side else 0

    tick = 0
    while tick < duration:
        now = float(tick)
        ended = sorted((g for g in running if g.end <= now), key=lambda g: (g.end, g.game.players))
        running = [g for g in running if g.end > now]
        for game in ended:
            finish(game)
        seekers = [
            Seeker(player, ratings[player], free_since[player], score=score[player], last_opponent=last[player])
            for player in players
            if player in free_since
        ]
        for first, second in arena_pairs(seekers, now, alone_after=alone_after):
            game = _play(rng, (first, second), ratings, now, duration, game_seconds, berserk_share)
            for player in (first, second):
                waits.append(now - free_since.pop(player))
            running.append(game)
            played.append(game)
        tick += 1

    counted = [g.game for g in sorted(played, key=lambda g: (g.end, g.start, g.game.players)) if g.counted]
    table = arena_standings(players, counted, ratings, rules)
    per_player = sorted(line.games for line in table)
    return ArenaSimulation(
        players=len(players),
        total_games=len(counted),
        games_min=per_player[0],
        games_median=statistics.median(per_player),
        games_max=per_player[-1],
        waits=len(waits),
        long_wait_share=sum(w > LONG_WAIT for w in waits) / len(waits) if waits else 0.0,
        longest_wait=max(waits, default=0.0),
        games=tuple(played),
        scores={line.player: line.score for line in table},
    )


def _play(
    rng: random.Random,
    players: tuple[str, str],
    ratings: Mapping[str, float],
    now: float,
    duration: float,
    game_seconds: tuple[float, float, float],
    berserk_share: float,
) -> SimGame:
    """Return one game of ``players`` started at ``now``, drawn with ``rng``."""
    low, high, mode = game_seconds
    berserk = (rng.random() < berserk_share, rng.random() < berserk_share)
    strength = [ratings[p] - (BERSERK_HANDICAP if b else 0.0) for p, b in zip(players, berserk, strict=True)]
    winner = 0 if rng.random() < _expected(strength[0], strength[1]) else 1
    length = rng.triangular(low, high, mode)
    on_time = rng.random() < ON_TIME_SHARE
    if on_time:
        length *= rng.random()
    length = max(1.0, round(length))
    moves = max(1, int(length / SECONDS_PER_OWN_MOVE))
    points = 1 if on_time else rng.choices((1, 2, 3), weights=(80, 19, 1))[0]
    game = ArenaGame(players, winner, points, berserk, (moves, moves), on_time)
    end = now + length
    return SimGame(start=now, end=end, game=game, counted=end <= duration)
