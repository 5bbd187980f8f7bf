"""Assembling the lobby's parts for the composition root (:mod:`bot.wiring`): :func:`build_lobby` →
:class:`LobbyParts`, which the handlers (``lobby``), the sweep and the session end use."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.keyboards.webapp import WebAppLinks
from bot.services.actions import GameActions
from bot.services.lobby.after_game import AfterGame
from bot.services.lobby.games import LobbyGames
from bot.services.lobby.profiles import LobbyProfiles
from bot.services.lobby.reports import Reports
from bot.services.lobby.seeking import Lobby
from bot.services.lobby.ticker import LobbyTicker
from bot.services.messaging import Replies
from bot.services.preferences import Preferences
from bot.storage import GameRecords, RatingRecords, StatsRecords
from bot.storage.pools import PairingPools
from tournaments.matching import RatingWindow


class LobbyPartsStore(GameRecords, RatingRecords, StatsRecords, PairingPools, Protocol):
    """The storage roles of the lobby: the pool, the games, the ratings and the reports' counters (the settings go
    through :class:`~bot.services.preferences.Preferences`)."""


@dataclass(frozen=True, slots=True)
class LobbyParts:
    """The lobby's parts: the seeks (:attr:`lobby`), the buttons after a game (:attr:`after_game`), the reports
    (:attr:`reports`) and the wake-up (:attr:`ticker`)."""

    lobby: Lobby
    after_game: AfterGame
    reports: Reports
    ticker: LobbyTicker

    async def sweep(self) -> None:
        """A pass at the sweep (and the start-up recovery) of any worker, and the ticker started when anyone still
        waits (after a restart, or when the worker that took the seek stopped). Returns nothing. Raises:
        StoreUnavailableError."""
        await self.lobby.pass_once()
        if await self.lobby.waiting():
            self.ticker.ensure()

    async def stop(self) -> None:
        """Stop the ticker and give up the lead of the passes. Returns nothing."""
        await self.ticker.stop()
        await self.lobby.give_up_lead()


def build_lobby(
    store: LobbyPartsStore,
    preferences: Preferences,
    actions: GameActions,
    replies: Replies,
    clock: Callable[[], float],
    *,
    sleep: Callable[[float], Awaitable[Any]],
    seek_ttl: float = 600.0,
    interval: float = 2.0,
    max_games: int = 20,
    window: RatingWindow | None = None,
    links: WebAppLinks | None = None,
) -> LobbyParts:
    """Return the lobby's parts on ``store`` (settings through ``preferences``), making games with ``actions`` and
    talking through ``replies``, on ``clock``/``sleep``: seeks last ``seek_ttl`` seconds, a pass runs every
    ``interval`` seconds while anyone waits (0: only on seeks and sweeps), a user plays at most ``max_games``
    games, ``window`` widens the accepted rating difference with the wait; ``links``: the Mini App's (None: not
    configured)."""
    profiles = LobbyProfiles(preferences)
    games = LobbyGames(store, actions, replies)
    lobby = Lobby(
        store,
        games,
        profiles,
        replies,
        clock,
        seek_ttl=seek_ttl,
        max_games=max_games,
        window=window,
        lead_ttl=max(3 * interval, 5.0),
        links=links,
    )
    ticker = LobbyTicker(lobby.tick, interval=interval, sleep=sleep)
    lobby.on_seek = ticker.ensure
    reports = Reports(store)
    after_game = AfterGame(store, lobby, profiles, reports, actions, replies, clock)
    return LobbyParts(lobby, after_game, reports, ticker)
