"""Who plays: the players of a stored record (people and computer levels), and the constants about them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from bot.texts import tr

if TYPE_CHECKING:
    from bot.services.record import GameRecord

COMPUTER_ID: Final = 0
"""The user id of a computer player in a record (Telegram user ids are positive)."""
COMPUTER_LEVELS: Final = ("easy", "medium", "hard")
COMPUTER_STATS_CHAT: Final = 0
"""The "chat" of the counters of games against the computer: a human's wins, losses and draws against the computer
are counted there (for all chats and levels together), never in the chat's counters, which stay between people."""
INLINE_STATS_CHAT: Final = -(2**53)
"""The "chat" of the counters of games played on inline messages (:mod:`bot.services.inline`), all together: they
are played in chats the bot is not in, so ``/stats`` shows them on a line of their own."""


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player: Telegram user id, display name and language (``ru``/``en``); ``ai`` is the level of a computer
    player (its id is :data:`COMPUTER_ID`), None for a person."""

    id: int
    name: str
    lang: str = "ru"
    ai: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the player as stored in the record."""
        data: dict[str, Any] = {"id": self.id, "name": self.name, "lang": self.lang}
        if self.ai:
            data["ai"] = self.ai
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerInfo:
        """Return the player of a record's ``players`` entry."""
        return cls(int(data["id"]), str(data["name"]), str(data.get("lang", "ru")), data.get("ai") or None)


def computer_player(level: str, lang: str) -> PlayerInfo:
    """Return the computer player of ``level`` named in ``lang`` (e.g. "Computer (hard)")."""
    return PlayerInfo(COMPUTER_ID, tr(lang, "computer.name", level=tr(lang, f"level.{level}")), lang, level)


def player_index(record: GameRecord, user_id: int) -> int | None:
    """Return 0 or 1 for a (human) player of the record, else None."""
    return record.player_index(user_id)


def against_computer(record: GameRecord) -> bool:
    """Return whether one of the record's players is the computer."""
    return record.against_computer
