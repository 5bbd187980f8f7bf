"""The theme a tournament's pictures are drawn in: a group's chosen by its admins, a private chat's its user's, the
classic one when nothing (or nothing known) is chosen or the store is out (:meth:`TournamentMessages.theme`)."""

from __future__ import annotations

from typing import Any, cast

from bot.model.settings import ChatSettings, UserSettings
from bot.services.messaging import Replies
from bot.services.preferences import Preferences
from bot.services.tournaments.messages import TournamentMessages
from bot.storage import StoreUnavailableError


class Settings:
    """Settings records in memory; ``down`` makes every read fail as an unreachable store does."""

    def __init__(self, chats: dict[int, str | None], users: dict[int, str | None]) -> None:
        self.chats = chats
        self.users = users
        self.down = False

    async def get_chat_settings(self, chat_id: int) -> dict[str, Any]:
        if self.down:
            raise StoreUnavailableError("down")
        return ChatSettings(theme=self.chats.get(chat_id)).to_dict()

    async def get_user_settings(self, user_id: int) -> dict[str, Any]:
        if self.down:
            raise StoreUnavailableError("down")
        return UserSettings(theme=self.users.get(user_id)).to_dict()


async def test_the_chat_chooses_the_theme_of_its_pictures() -> None:
    store = Settings({-100: "dark", -200: None, -300: "neon"}, {7: "dark", 8: "classic"})
    messages = TournamentMessages(cast(Replies, None), preferences=Preferences(cast(Any, store)))
    assert await messages.theme(-100) == "dark"  # the group's admins chose it
    assert await messages.theme(-200) == "classic" and await messages.theme(-300) == "classic"  # unset, unknown
    assert await messages.theme(7) == "dark" and await messages.theme(8) == "classic"  # a private chat: its user's
    store.down = True
    assert await messages.theme(-100) == "classic"  # the picture still goes out
    assert await TournamentMessages(cast(Replies, None)).theme(-100) == "classic"  # no preferences given
