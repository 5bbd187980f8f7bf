"""Typed errors of the tournament logic. Every one is a ``ValueError`` whose message says what was wrong."""

from __future__ import annotations


class TournamentError(ValueError):
    """Base class of every error the tournament logic raises on bad input."""


class InvalidPlayersError(TournamentError):
    """The field is unusable: too few players, a repeated or empty id, a rating that is not a finite number."""


class InvalidOptionError(TournamentError):
    """An option is out of range: a match length, a number of rounds, an experience or a rating."""


class UnknownPlayerError(TournamentError):
    """A player id that is not in the tournament."""


class InvalidResultError(TournamentError):
    """A result that does not fit its match: a winner who did not play it, a draw where none is possible, ..."""


class ScoreMismatchError(InvalidResultError):
    """A result whose winner scored fewer game points than the loser (a 1–3 loss recorded as a win)."""


class NotPlayableError(InvalidResultError):
    """A result for a match that is unknown, already decided, or not playable yet."""


class TournamentOverError(TournamentError):
    """The tournament is over: nothing more can be recorded and nobody can withdraw."""


class InvalidRecordError(TournamentError):
    """A saved tournament record that cannot be loaded: an unknown schema or format, a malformed field, or an event
    that does not apply to the tournament rebuilt so far."""
