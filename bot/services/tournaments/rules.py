"""Pure helpers of the bot's tournaments: the pure tournament a record describes, the order of a match's game
players, and a match's result read from its finished game session. No I/O, no Telegram, no store."""

from __future__ import annotations

from typing import Any

from bot.model.tournament import TournamentRecord
from bot.services.tournaments import chat_views as views
from nardy import Match as NardyMatch
from tournaments import (
    Match,
    Player,
    Result,
    Tournament,
    double_elimination,
    double_round_robin,
    round_robin,
    single_elimination,
    swiss,
)


def build_tournament(record: TournamentRecord) -> Tournament:
    """Return the pure tournament of a record's settings and entrants (in joining order; the formats seed by
    rating where §8 says so). Raises: TournamentError for a field the format cannot take."""
    players = [Player(e.pid, e.rating) for e in record.entrants]
    settings = record.settings
    name = settings.format_name
    if name == "round_robin":
        return round_robin(players, length=settings.length)
    if name == "double_round_robin":
        return double_round_robin(players, length=settings.length)
    if name == "swiss":
        return swiss(players, rounds=views.swiss_rounds(settings, len(players)), length=settings.length)
    if name == "single_elimination":
        return single_elimination(players, length=settings.length)
    return double_elimination(players, length=settings.length)


def game_order(record: TournamentRecord, match: Match) -> tuple[str, str]:
    """Return the match's players in the order of its game's players (the first named player plays first)."""
    return match.first, match.second


def both_computers(record: TournamentRecord, match: Match) -> bool:
    """Return whether both players of the match are computer players (their match is simulated, not played)."""
    return all((e := record.entrant(p)) is not None and e.is_computer for p in (match.first, match.second))


def match_outcome(match_data: dict[str, Any]) -> tuple[int, tuple[int, int]] | None:
    """Return (winner index, (points of player 0, points of player 1)) of a game session that is over, or None while
    it goes on or when it has no winner (a draw). Raises: NardyError for a match the engine cannot load."""
    match = NardyMatch.from_dict(match_data)
    result = match.game.result
    if result is None:
        return None
    winner = match.winner if match.length else result.winner
    if winner is None:
        return None
    a, b = match.score_after_game()
    return winner, (int(a), int(b))


def result_from_game(match: Match, outcome: tuple[int, tuple[int, int]], length: int) -> Result:
    """Return the tournament result of a match from its game's outcome (players in :func:`game_order`): the match
    score, each side's points counted up to the match length (a gammon on a doubled cube wins a match to 1 as
    1–0, as a match score is written)."""
    winner, (a, b) = outcome
    return Result(match.id, (match.first, match.second)[winner], min(a, length), min(b, length))
