"""The computer's choice of the double it names after an Acey-deucey 1-2 (docs/rules.md §6.5)."""

from __future__ import annotations

from nardy.ai.protocol import ComputerPlayer
from nardy.errors import GameStateError, NardyError
from nardy.game import Game, Phase
from nardy.position import Position

# a named double that cannot be played in full ends the bonus (no extra roll): it is valued this much lower
_NO_EXTRA_ROLL = 1.0


def choose_double(player: ComputerPlayer, game: Game) -> int:
    """Return the double (1..6) ``player`` names for the roller of ``game`` after its 1-2.

    Each double is tried on a copy of the game: the player picks its move, and the position after it is valued by
    the player's own evaluation when it has one (``position_equity``, the mover to roll again), else by the pips
    left. A double that cannot be played in full ends the bonus without the extra roll and is valued lower; the
    highest value wins (the larger die on ties).

    Raises:
        GameStateError: the game is not waiting for a double to be named.
    """
    if game.phase is not Phase.CHOOSE:
        raise GameStateError(f"no double to name: the game is in phase {game.phase.value}")
    saved = game.to_dict()
    best, best_value = 6, float("-inf")
    for die in range(6, 0, -1):
        trial = Game.from_dict(saved)
        trial.choose_double(die)
        if trial.phase is not Phase.MOVE or trial.roller != game.roller:
            value = _value(player, game.position) - 2 * _NO_EXTRA_ROLL  # not one move of it could be played
        else:
            plan = trial.plan()
            value = _value(player, player.choose_move(trial).position)
            if plan.length < plan.full_length:
                value -= _NO_EXTRA_ROLL
        if value > best_value:
            best, best_value = die, value
    return best


def _value(player: ComputerPlayer, position: Position) -> float:
    """Return the player's equity of ``position`` with its mover to roll, else minus the mover's pips / 100."""
    estimate = getattr(player, "position_equity", None)
    if estimate is not None:
        try:
            return float(estimate(position))
        except (NotImplementedError, NardyError, ValueError):
            pass
    return -position.pips()[0] / 100.0
