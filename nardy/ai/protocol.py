"""The protocol every computer player answers."""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from nardy.game import Game
from nardy.move import Move

CubeAction = Literal["double", "no_double"]
TakeDecision = Literal["take", "drop"]


@runtime_checkable
class ComputerPlayer(Protocol):
    """What every computer player answers."""

    level: str

    def choose_move(self, game: Game) -> Move:
        """Return one of ``game.legal_moves()``.

        Raises:
            GameStateError: the game is not waiting for a move.
        """
        ...

    def cube_action(self, game: Game) -> CubeAction:
        """Return ``double`` to offer a double now (only when ``game.can_double()``), else ``no_double``."""
        ...

    def take_decision(self, game: Game) -> TakeDecision:
        """Return ``take`` or ``drop`` for the double on offer.

        Raises:
            GameStateError: no double waits for an answer.
        """
        ...

    def accept_resignation(self, game: Game) -> bool:
        """Return whether to accept the resignation on offer.

        Raises:
            GameStateError: no resignation is on offer.
        """
        ...
