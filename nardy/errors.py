"""Typed errors of the engine. Every one is a ``ValueError`` whose message says what was wrong and where."""

from __future__ import annotations


class NardyError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidPositionError(NardyError):
    """A position breaks the rules of its variant (checker counts, two colours on one point, ...)."""


class InvalidMoveError(NardyError):
    """A move text or step cannot be read at all (syntax, points out of range)."""


class IllegalMoveError(NardyError):
    """A move is well formed but not legal in the position and roll it was played in."""


class AmbiguousMoveError(NardyError):
    """A move text matches more than one legal turn."""


class GameStateError(NardyError):
    """An action that the game's current phase does not allow (moving before rolling, doubling twice, ...)."""


class InvalidIdError(NardyError):
    """A position or match id cannot be decoded."""


class IncompleteMoveError(IllegalMoveError):
    """A move text that plays only part of the roll while the rest is not forced.

    ``steps`` holds the steps read so far, so that a UI can offer to finish the turn.
    """

    def __init__(self, message: str, steps: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.steps = steps
