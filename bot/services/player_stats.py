"""A user's win, loss and draw counters as ``/stats`` shows them: in one chat against people, and (counted apart,
for all chats) against the computer and in inline games."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.players import COMPUTER_STATS_CHAT, INLINE_STATS_CHAT
from bot.storage import Stats, StatsRecords


@dataclass(frozen=True, slots=True)
class Score:
    """Finished games counted for one user: won, lost, drawn."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def played(self) -> int:
        """Return the number of finished games counted (wins + losses + draws)."""
        return self.wins + self.losses + self.draws

    @classmethod
    def of(cls, stats: Stats) -> Score:
        """Return the score of the stored counters ``stats``."""
        return cls(stats.wins, stats.losses, stats.draws)


@dataclass(frozen=True, slots=True)
class StatsSummary:
    """A user's scores: in the chat against people, against the computer, in inline games."""

    chat: Score
    computer: Score
    inline: Score


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
        return StatsSummary(Score.of(chat), Score.of(computer), Score.of(inline))
