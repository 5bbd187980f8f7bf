"""Games between computer players: one action of a game decided by the player to act, a whole game, a whole
match (self-play for tests, benchmarks and training)."""

from __future__ import annotations

from collections.abc import Sequence

from nardy.ai.bonus import choose_double
from nardy.ai.protocol import ComputerPlayer
from nardy.dice import SeededDice
from nardy.errors import GameStateError
from nardy.game import Game, GameResult, Phase
from nardy.match import Match
from nardy.options import Options
from nardy.variants import Variant


def take_action(game: Game, players: Sequence[ComputerPlayer]) -> None:
    """Make the one action ``game`` waits for, decided by the player to act (``players[0]`` is player 0): the
    opening roll, a double or a roll, a take or a drop, a move, or an Acey-deucey double to name.

    Raises:
        GameStateError: the game is over, or waits for something no computer player answers (a resignation).
    """
    if game.phase is Phase.OPENING:
        game.roll()
    elif game.phase is Phase.ROLL:
        if game.can_double() and players[game.roller].cube_action(game) == "double":
            game.double()
        else:
            game.roll()
    elif game.phase is Phase.DOUBLED:
        if players[game.turn].take_decision(game) == "take":
            game.take()
        else:
            game.drop()
    elif game.phase is Phase.MOVE:
        game.play(players[game.roller].choose_move(game))
    elif game.phase is Phase.CHOOSE:  # Acey-deucey's 1-2: the roller names a double (nardy.ai.bonus)
        game.choose_double(choose_double(players[game.roller], game))
    else:
        raise GameStateError(f"no computer action in phase {game.phase.value}")


def play_match(match: Match, players: Sequence[ComputerPlayer], *, max_actions: int = 20_000) -> Match:
    """Play ``match`` to its end between two computer players (a money game: its one game) and return it.

    Raises:
        GameStateError: the match did not end within ``max_actions`` actions.
    """
    for _ in range(max_actions):
        if match.game.phase is Phase.OVER:
            if match.is_money or match.over:
                return match
            match.next_game()
        else:
            take_action(match.game, players)
    raise GameStateError(f"the match did not end within {max_actions} actions")


def play_game(
    variant: str | Variant,
    players: tuple[ComputerPlayer, ComputerPlayer],
    *,
    seed: int,
    options: Options | None = None,
    max_plies: int = 3000,
) -> GameResult:
    """Play a whole game between two computer players (player 0 = ``players[0]``) and return its result.

    The cube is used when ``options`` enable it (short nardy by default; pass ``Options(cube=False)`` for cubeless).

    Raises:
        GameStateError: the game did not end within ``max_plies`` actions.
    """
    game = Game(variant, options=options or Options(), dice=SeededDice(seed))
    for _ in range(max_plies):
        if game.phase is Phase.OVER:
            assert game.result is not None
            return game.result
        take_action(game, players)
    raise GameStateError(f"the game did not end within {max_plies} actions")
