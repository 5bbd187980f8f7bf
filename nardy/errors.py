"""Typed errors of the engine. Every one is a ``ValueError`` whose message says what was wrong and where."""

from __future__ import annotations


class NardyError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidPositionError(NardyError):
    """A position breaks the rules of its variant (checker counts, two colours on one point, ...)."""


ILLEGAL_MOVE_CODES: tuple[str, ...] = (
    "blocked",  # the landing point (or a point a combined move stops on) is held by the opponent
    "head_rule",  # long nardy: a second checker may not leave the head this turn
    "block_rule",  # long nardy: the move would build six in a row with no opponent checker ahead of them
    "start_rule",  # Fevga: a second checker may not leave point 24 before the first has passed the opponent's start
    "start_quarter",  # Fevga: the move would hold all six points 19..24 of the mover's starting quarter
    "die_not_rolled",  # no die (or sum of dice) left in the roll moves that distance
    "must_use_both",  # the roll can be played in full (both dice, or as many of a double as possible)
    "must_use_larger",  # only one die can be played, and then it must be the larger one
    "bear_off_early",  # bearing off while not all checkers are home
    "bear_off_higher",  # a die larger than the point bears off only when no checker stands higher
    "bar_first",  # short nardy: a checker on the bar must enter before any other move
    "no_hit",  # Dutch backgammon: no hitting before one of the mover's checkers stands in its home board
    "pinned",  # plakoto: the checker is pinned under the opponent's and cannot move until it is freed
    "bear_off_pinned",  # plakoto: no bearing off while a checker of the mover is pinned
    "wrong_direction",  # a written move goes away from home
    "not_a_digit",  # a written point holds a number character that is not a decimal digit (², ①, Ⅻ)
    "no_checker",  # no checker of the mover on the starting point
    "incomplete",  # only part of the roll is written and the rest is not forced
    "generic",  # no specific rule could be named
)
"""The values of ``code`` on :class:`InvalidMoveError` and :class:`IllegalMoveError`: which rule refused a move."""


class InvalidMoveError(NardyError):
    """A move text or step cannot be read at all (syntax, points out of range, moving away from home).

    ``code`` is one of :data:`ILLEGAL_MOVE_CODES` (``wrong_direction``, ``not_a_digit`` or ``generic``).
    """

    def __init__(self, message: str, code: str = "generic") -> None:
        super().__init__(message)
        self.code = code


class IllegalMoveError(NardyError):
    """A move is well formed but not legal in the position and roll it was played in.

    ``code`` is one of :data:`ILLEGAL_MOVE_CODES`: the rule that refused the move (``generic`` when none could be
    named), for a UI to explain in its own words.
    """

    def __init__(self, message: str, code: str = "generic") -> None:
        super().__init__(message)
        self.code = code


class AmbiguousMoveError(NardyError):
    """A move text matches more than one legal turn."""


class GameStateError(NardyError):
    """An action that the game's current phase does not allow (moving before rolling, doubling twice, ...)."""


class MatchOverError(GameStateError):
    """A match action (such as starting the next game) after the match has been won."""


class InvalidIdError(NardyError):
    """A position or match id cannot be decoded."""


class IncompleteMoveError(IllegalMoveError):
    """A move text that plays only part of the roll while the rest is not forced.

    ``steps`` holds the steps read so far, so that a UI can offer to finish the turn; ``code`` is ``incomplete``.
    """

    def __init__(self, message: str, steps: tuple[object, ...] = ()) -> None:
        super().__init__(message, "incomplete")
        self.steps = steps
