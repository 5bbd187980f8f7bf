"""A user's win, loss and draw counters as ``/stats`` shows them: in one chat against people, and (counted apart,
for all chats) against the computer and in inline games."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.players import COMPUTER_STATS_CHAT, INLINE_STATS_CHAT
from bot.storage import Stats, StatsRecords


@dataclass(frozen=True, slots=True)
class StatsSummary:
    """A user's scores: in the chat against people, against the computer, in inline games."""

    chat: Stats
    computer: Stats
    inline: Stats


class PlayerStats:
    """The users' counters, on the stats records of the store."""

    def __init__(self, store: StatsRecords) -> None:
        """Read the counters in ``store``."""
        self._store = store

    async def summary(self, chat_id: int, user_id: int) -> StatsSummary:
        """Return the user's scores in the chat, against the computer and in inline games.
        Raises: StoreUnavailableError."""
        chat = await self._store.get_stats(chat_id, user_id)
        computer = await self._store.get_stats(COMPUTER_STATS_CHAT, user_id)
        inline = await self._store.get_stats(INLINE_STATS_CHAT, user_id)
        return StatsSummary(chat, computer, inline)
