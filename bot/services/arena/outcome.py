"""What a finished arena game means for the arena: who won, how many points (1 plain, 2 марс/gammon, 3
кокс/backgammon), each player's own moves, who went berserk, whether it was won on time, and who missed their first
move (then paused). Pure: read from the game's record alone."""

from __future__ import annotations

from dataclasses import dataclass

from bot.model.game import GameRecord
from nardy import Match, NardyError
from nardy.game_record import replay_records

TURN_STARTS = ("roll", "open")
"""History records after which the next ``move`` or ``pass`` is a new turn of the player to move."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A finished arena game, read for the arena: ``winner`` the index of the winning player (in the game's order),
    ``points`` 1–3, ``moves`` each player's turns played, ``berserk`` who went berserk, ``on_time`` won because the
    loser's time ran out, ``missed_first`` the player who missed the first-move window (None: nobody)."""

    winner: int
    points: int
    moves: tuple[int, int]
    berserk: tuple[bool, bool]
    on_time: bool
    missed_first: int | None


def own_moves(match_data: dict[str, object]) -> tuple[int, int]:
    """Return how many turns each player played in the current game of the saved match (a forfeited roll is a turn
    too). Returns (0, 0) when the game cannot be replayed."""
    counts = [0, 0]
    try:
        game_data = Match.from_dict(dict(match_data)).game.to_dict()
        previous = ""
        for record, game in replay_records(game_data):
            kind = str(record.get("t"))
            if kind in ("move", "pass") and previous in TURN_STARTS and game.turn in (0, 1):
                counts[game.turn] += 1
            previous = kind
    except (NardyError, KeyError, TypeError, ValueError):
        return (0, 0)
    return counts[0], counts[1]


def game_outcome(record: GameRecord) -> GameOutcome | None:
    """Return the arena's reading of a finished game session, or None when it has no winner (a draw, or not over).

    Raises: NardyError when the saved match cannot be loaded."""
    clock = record.clock
    berserk = (False, False) if clock is None else (0 in clock.berserk, 1 in clock.berserk)
    moves = own_moves(record.match)
    if record.forfeit in (0, 1):
        winner = 1 - record.forfeit
        return GameOutcome(winner, 1, moves, berserk, False, None)
    if clock is not None and clock.flag is not None:
        missed = clock.flag if any(e.get("first") == "lost" for e in record.events) else None
        return GameOutcome(1 - clock.flag, 1, moves, berserk, True, missed)
    result = Match.from_dict(record.match).game.result
    if result is None or result.winner not in (0, 1):
        return None
    points = min(3, max(1, int(result.value)))
    return GameOutcome(int(result.winner), points, moves, berserk, False, None)
