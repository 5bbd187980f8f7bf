"""A one-line greedy baseline for long nardy: the move maximising pips moved + 2 × points held (ties: the first).

The tests import it as ``from greedy_baseline import GreedyPlayer`` (pytest puts this folder on ``sys.path``);
``benchmarks/ai_strength.py`` holds the same rule.
"""

from __future__ import annotations

from nardy import Game, Move, Phase
from nardy.position import side_pips


def greedy_value(move: Move, pips_before: int) -> int:
    """Return pips moved + 2 × points held (points 1..24 of the mover with a checker) after ``move``."""
    side = move.position.me
    return pips_before - side_pips(side) + 2 * sum(1 for count in side[:24] if count > 0)


class GreedyPlayer:
    """Plays the move of the greedy rule; never doubles, always takes, declines resignations."""

    level = "greedy"

    def choose_move(self, game: Game) -> Move:
        pips = side_pips(game.position.me)
        return max(game.legal_moves(), key=lambda m: greedy_value(m, pips))

    def cube_action(self, game: Game) -> str:
        return "no_double"

    def take_decision(self, game: Game) -> str:
        assert game.phase is Phase.DOUBLED
        return "take"

    def accept_resignation(self, game: Game) -> bool:
        return False
