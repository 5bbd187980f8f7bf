"""A lobby game's series (docs/rules.md "Lobby"), pure: who won a finished lobby game for its series and the series
score the board's caption shows. Apart from :mod:`bot.services.lobby` so that the captions read it without
depending on the lobby's service (which makes games, which draw boards)."""

from __future__ import annotations

from bot.model.game import GameRecord
from bot.services.clocks import cancelled


def game_winner(record: GameRecord) -> int | None:
    """Return who won a finished lobby game for its series (None: a draw, or a session cancelled because a player
    missed the first-move window, which counts for nobody)."""
    if cancelled(record):
        return None
    clock = record.clock
    if clock is not None and clock.flag is not None:
        return 1 - clock.flag
    if record.forfeit is not None:
        return 1 - record.forfeit
    result = (record.match_games[-1].get("state") or {}).get("result") or {}
    winner = result.get("winner")
    return winner if winner in (0, 1) else None


def series_score(record: GameRecord, finished: bool) -> tuple[int, int]:
    """Return the series score of a lobby game's players (in the record's order): the games each had won in the
    series before it, and this game counted when it is ``finished``; (0, 0) for a game of no series."""
    if record.lobby is None:
        return (0, 0)
    a, b = record.lobby.score
    winner = game_winner(record) if finished else None
    return (a + 1, b) if winner == 0 else (a, b + 1) if winner == 1 else (a, b)
