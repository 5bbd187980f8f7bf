"""The statistics role: per-chat, per-user result counters, a finished game counted once per chat."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

COUNTED_GAMES_RETENTION = 90 * 24 * 3600.0
"""Seconds for which ``add_game_stats`` remembers that a game was counted in a chat."""


@dataclass(frozen=True, slots=True)
class Stats:
    """Per-chat, per-user result counters."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def played(self) -> int:
        """Return the number of finished games counted (wins + losses + draws)."""
        return self.wins + self.losses + self.draws


@runtime_checkable
class StatsRecords(Protocol):
    """Result counters per chat and user.

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back
    end cannot be reached.
    """

    async def add_stats(self, chat_id: int, user_id: int, *, wins: int = 0, losses: int = 0, draws: int = 0) -> Stats:
        """Atomically add to the user's counters in the chat.

        Returns: the counters after the increment.
        """
        ...

    async def add_game_stats(self, chat_id: int, game_id: str, deltas: Mapping[int, tuple[int, int, int]]) -> bool:
        """Atomically add ``(wins, losses, draws)`` to each user's counters in the chat, exactly once per
        (chat, game): nothing is added when this game was already counted in this chat (the record of counted
        games is kept for at least :data:`COUNTED_GAMES_RETENTION` seconds).

        Returns: True when applied now, False when the game had been counted already (nothing changed).
        """
        ...

    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        """Return the user's counters in the chat (zeros when none)."""
        ...

    async def chat_stats(self, chat_id: int) -> dict[int, Stats]:
        """Return every user's counters in the chat, keyed by user id."""
        ...
