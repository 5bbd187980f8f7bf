"""Matches between two computer players of a tournament: played out by the engine at once, with no board.

Nobody watches a pairing of two computer players move by move, and posting its boards would spend the chat's message
budget on nothing; so the match is played in a worker thread and only its result is recorded (and announced like any
other). The dice are seeded by the tournament and match ids, so a retried simulation gives the same result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.variants import new_match
from nardy import NardyError, Phase, SeededDice
from nardy.ai import ComputerPlayer

ComputerFactory = Callable[[str, str, int], ComputerPlayer]
MAX_ACTIONS = 20_000
"""A bound on the actions of one simulated match (a match to 13 is far shorter; this guards against a bug)."""


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    """The outcome of a simulated match: the winner's index (0 or 1) and the final score."""

    winner: int
    score: tuple[int, int]


def simulate_match(
    variant: str, length: int, levels: tuple[str, str], seed: str, computer: ComputerFactory
) -> SimulatedMatch:
    """Play a match to ``length`` points between computer players of ``levels`` with dice seeded by ``seed``.

    Returns: the winner and the score. Raises: RuntimeError when the match does not end within
    :data:`MAX_ACTIONS` actions (an engine or player bug).
    """
    match = new_match(variant, max(1, length), dice=SeededDice(seed))
    number = sum(ord(c) for c in seed)
    players = (computer(levels[0], variant, number), computer(levels[1], variant, number + 1))
    for _ in range(MAX_ACTIONS):
        game = match.game
        phase = game.phase
        if phase is Phase.OVER:
            if match.over:
                a, b = match.score_after_game()
                winner = match.winner
                assert winner is not None
                return SimulatedMatch(winner, (int(a), int(b)))
            match.next_game()
            continue
        if phase is Phase.OPENING:
            game.roll()
            continue
        player = players[game.turn]
        if phase is Phase.ROLL:
            if game.can_double() and player.cube_action(game) == "double":
                game.double()
            else:
                game.roll()
        elif phase is Phase.MOVE:
            game.play(player.choose_move(game))
        elif phase is Phase.DOUBLED:
            if player.take_decision(game) == "take":
                game.take()
            else:
                try:
                    game.drop()
                except NardyError:
                    game.take()
        elif phase is Phase.RESIGN:
            if player.accept_resignation(game):
                game.accept_resignation()
            else:
                game.decline_resignation()
    raise RuntimeError(f"a simulated {variant} match to {length} did not end in {MAX_ACTIONS} actions")
