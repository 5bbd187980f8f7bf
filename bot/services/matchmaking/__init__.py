"""Matchmaking: pairs made from the store's pairing pools (:mod:`bot.storage.pools`) by any number of workers.

:mod:`~bot.services.matchmaking.matchmaker` holds :class:`~bot.services.matchmaking.matchmaker.Matchmaker`, which
reads a pool, lets a chooser (e.g. ``tournaments.matching.lobby_pairs``) pick the pairs, claims each exactly once and
has the caller's ``start`` make the game under the pairing's id; pairings whose worker died are rolled forward by
``recover``. The lobby and the arena services use it with their own chooser and ``start``.
"""

from .matchmaker import Chooser, Matchmaker, Starter

__all__ = ["Chooser", "Matchmaker", "Starter"]
