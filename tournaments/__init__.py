"""Pure tournament logic (floor 1, beside the engine): formats, Swiss pairing, standings and tie-breaks, FIBS ratings.

Synchronous and free of I/O; values are immutable. A tournament is a frozen state built by :func:`round_robin`,
:func:`double_round_robin`, :func:`swiss`, :func:`single_elimination` or :func:`double_elimination` and advanced
with ``record(result)`` and ``withdraw(player)``; ``playable()`` lists the matches to play now, ``is_over`` and
``winners()`` tell the end, ``standings()`` the table; :func:`tournament_to_dict` and :func:`tournament_from_dict`
save and load one as JSON-compatible data. An arena (issue 47) is scored by :func:`arena_standings` over its finished
games (:class:`ArenaGame`); :func:`arena_pairs` and :func:`lobby_pairs` pair the players waiting in an arena or in the
lobby. Every error is a ``ValueError`` subclass.
"""

from __future__ import annotations

from tournaments.arena import ArenaGame, ArenaRules, ArenaStanding, SheetEntry, arena_standings, game_points
from tournaments.elimination import Elimination, bracket_order, double_elimination, single_elimination
from tournaments.errors import (
    InvalidOptionError,
    InvalidPlayersError,
    InvalidRecordError,
    InvalidResultError,
    NotPlayableError,
    ScoreMismatchError,
    TournamentError,
    TournamentOverError,
    UnknownPlayerError,
)
from tournaments.matching import RatingWindow, Seeker, arena_pairs, lobby_pairs
from tournaments.model import START_RATING, Bye, Match, Player, Result, Round, forfeit, match_points, seeded
from tournaments.pairing import pair_round
from tournaments.ratings import Rating, experience_boost, k_factor, rate_match, rating_change, win_probability
from tournaments.records import (
    FORMATS,
    SCHEMA_VERSION,
    Tournament,
    format_name,
    tournament_from_dict,
    tournament_to_dict,
)
from tournaments.round_robin import RoundRobin, circle_rounds, double_round_robin, round_robin
from tournaments.standings import (
    CrossCell,
    CrossTable,
    EliminationRow,
    RoundRobinRow,
    SwissRow,
    cross_table,
    elimination_standings,
    round_robin_standings,
    swiss_standings,
)
from tournaments.swiss import SWISS_BYE_POINTS, Swiss, default_rounds, swiss

__all__ = [
    "FORMATS",
    "SCHEMA_VERSION",
    "START_RATING",
    "SWISS_BYE_POINTS",
    "ArenaGame",
    "ArenaRules",
    "ArenaStanding",
    "Bye",
    "CrossCell",
    "CrossTable",
    "Elimination",
    "EliminationRow",
    "InvalidOptionError",
    "InvalidPlayersError",
    "InvalidRecordError",
    "InvalidResultError",
    "Match",
    "NotPlayableError",
    "Player",
    "Rating",
    "RatingWindow",
    "Result",
    "Round",
    "RoundRobin",
    "RoundRobinRow",
    "ScoreMismatchError",
    "Seeker",
    "SheetEntry",
    "Swiss",
    "SwissRow",
    "Tournament",
    "TournamentError",
    "TournamentOverError",
    "UnknownPlayerError",
    "arena_pairs",
    "arena_standings",
    "bracket_order",
    "circle_rounds",
    "cross_table",
    "default_rounds",
    "double_elimination",
    "double_round_robin",
    "elimination_standings",
    "experience_boost",
    "forfeit",
    "format_name",
    "game_points",
    "k_factor",
    "lobby_pairs",
    "match_points",
    "pair_round",
    "rate_match",
    "rating_change",
    "round_robin",
    "round_robin_standings",
    "seeded",
    "single_elimination",
    "swiss",
    "swiss_standings",
    "tournament_from_dict",
    "tournament_to_dict",
    "win_probability",
]
