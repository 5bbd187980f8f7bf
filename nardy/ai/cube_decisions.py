"""The cube decisions of a game: whether the cube model applies to it, and the cubeful equities of a decision at
the game's cube and score (money: :mod:`nardy.ai.cube`; a match: :mod:`nardy.ai.match_cube`). Shared by the
post-game analysis and the hard computer player."""

from __future__ import annotations

from collections.abc import Sequence

from nardy.ai.cube import CubeEquities, Owner, cube_efficiency, cube_equities
from nardy.ai.match_cube import MatchScore, match_cube_equities
from nardy.ai.met import MAX_AWAY
from nardy.ai.network import OUTPUTS
from nardy.cube import next_cube_value
from nardy.game import Game
from nardy.position import Position


def in_contact(position: Position) -> bool:
    """Return whether the sides of a short-nardy-board position can still hit or block each other: a checker on a
    bar or in a reserve, or the mover's rearmost checker not yet past the opponent's."""
    if any(any(side[24:]) for side in (position.me, position.opp)):
        return True
    mine = max((i + 1 for i in range(24) if position.me[i]), default=0)
    theirs = max((i + 1 for i in range(24) if position.opp[i]), default=0)
    return mine + theirs >= 25


def has_cube_model(game: Game) -> bool:
    """Return whether ``game`` has the cube in play and its variant's network gives the five chances."""
    return game.cube_enabled and len(OUTPUTS.get(game.variant.name, ())) == 5


def rates_cube(game: Game) -> bool:
    """Return whether the cube decisions of ``game`` are rated: :func:`has_cube_model`, in a money game or a match
    the match equity table covers (up to 25 points)."""
    return game.match_length <= MAX_AWAY and has_cube_model(game)


def match_score(game: Game, player: int) -> MatchScore:
    """Return the score of ``game``'s match seen by ``player``, with the game's cube rules."""
    away = game.match_length - int(game.score[player])
    opponent_away = game.match_length - int(game.score[1 - player])
    options = game.options
    return MatchScore(
        away=away,
        opponent_away=opponent_away,
        post_crawford=options.crawford and not game.crawford and min(away, opponent_away) == 1,
        max_cube=options.max_cube,
        raise_cube=lambda value: next_cube_value(value, options),
    )


def game_cube_equities(game: Game, doubler: int, chances: Sequence[float]) -> CubeEquities:
    """Return the cubeful equities of ``doubler``'s cube decision in ``game`` (``doubler`` to roll, the cube centred
    or its own) from the five ``chances`` of its position: the money model, or the match model at the score.

    Raises:
        ValueError: the cube is the opponent's, or the match is longer than 25 points.
    """
    position = game.position_for(doubler)
    if game.cube_owner not in (None, doubler):
        raise ValueError(f"no cube decision for player {doubler}: the cube is player {game.cube_owner}'s")
    owner: Owner = "centre" if game.cube_owner is None else "mine"
    efficiency = cube_efficiency(in_contact(position), game.variant.pips(position.me))
    gammons = game.variant.resign_options(game.options) != ("single",)
    if game.match_length:
        score = match_score(game, doubler)
        return match_cube_equities(chances, owner, efficiency, score, game.cube_value, gammons=gammons)
    return cube_equities(
        chances,
        owner,
        efficiency,
        gammons=gammons,
        jacoby=game.options.jacoby,
        factor=next_cube_value(game.cube_value, game.options) / game.cube_value,
    )


def double_can_gain(game: Game) -> bool:
    """Return whether the roller could gain by doubling: in a match, only while it needs more than the cube's
    points (with fewer, a double cannot win it more; not doubling then is no decision, as for GNU Backgammon)."""
    return not game.match_length or game.match_length - game.score[game.roller] > game.cube_value
