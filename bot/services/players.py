"""Who plays: the computer players and the constants about players (the player itself is
:class:`bot.model.game.PlayerInfo`)."""

from __future__ import annotations

from typing import Final

from bot.model.game import GameRecord, PlayerInfo
from bot.texts import tr

COMPUTER_ID: Final = 0
"""The user id of a computer player in a record (Telegram user ids are positive)."""
COMPUTER_LEVELS: Final = ("easy", "medium", "hard")
COMPUTER_STATS_CHAT: Final = 0
"""The "chat" of the counters of games against the computer: a human's wins, losses and draws against the computer
are counted there (for all chats and levels together), never in the chat's counters, which stay between people."""
INLINE_STATS_CHAT: Final = -(2**53)
"""The "chat" of the counters of games played on inline messages (:mod:`bot.services.inline`), all together: they
are played in chats the bot is not in, so ``/stats`` shows them on a line of their own."""


def computer_player(level: str, lang: str) -> PlayerInfo:
    """Return the computer player of ``level`` named in ``lang`` (e.g. "Computer (hard)")."""
    return PlayerInfo(COMPUTER_ID, tr(lang, "computer.name", level=tr(lang, f"level.{level}")), lang, level)


def player_index(record: GameRecord, user_id: int) -> int | None:
    """Return 0 or 1 for a (human) player of the record, else None."""
    return record.player_index(user_id)


def against_computer(record: GameRecord) -> bool:
    """Return whether one of the record's players is the computer."""
    return record.against_computer
