"""What a user's settings keep of the lobby: the players they blocked and the lobby games they abandoned (their
cool-down), read and written through :class:`~bot.services.preferences.Preferences`."""

from __future__ import annotations

from bot.model.lobby import Abandons
from bot.services.lobby.rules import MAX_BLOCKED, after_abandon
from bot.services.preferences import Preferences


class LobbyProfiles:
    """The lobby's part of the users' settings."""

    def __init__(self, preferences: Preferences) -> None:
        """Read and write the users' settings through ``preferences``."""
        self._preferences = preferences

    async def blocked(self, user_id: int) -> tuple[int, ...]:
        """Return the users ``user_id`` blocked (oldest first). Raises: StoreUnavailableError."""
        return tuple((await self._preferences.user(user_id)).blocked or ())

    async def block(self, user_id: int, other: int) -> bool:
        """Block ``other`` for ``user_id``: the lobby never pairs them again (at most :data:`MAX_BLOCKED` kept, the
        oldest forgotten beyond). Returns: whether it was not blocked yet. Raises: StoreUnavailableError."""
        settings = await self._preferences.user(user_id)
        blocked = list(settings.blocked or ())
        if other in blocked or other == user_id:
            return False
        settings.extra.pop("blocked", None)
        settings.blocked = [*blocked, other][-MAX_BLOCKED:]
        await self._preferences.save_user(user_id, settings)
        return True

    async def abandons(self, user_id: int) -> Abandons | None:
        """Return the user's abandonments of lobby games (None: none recorded). Raises: StoreUnavailableError."""
        return (await self._preferences.user(user_id)).lobby_abandons

    async def record_abandon(self, user_id: int, game_id: str, at: float) -> Abandons | None:
        """Count the lobby game ``game_id`` the user abandoned at ``at`` (once per game however often it is
        called). Returns: the abandonments now, or None when the game was counted already. Raises:
        StoreUnavailableError."""
        settings = await self._preferences.user(user_id)
        after = after_abandon(settings.lobby_abandons, game_id, at)
        if after is None:
            return None
        settings.extra.pop("lobby_abandons", None)
        settings.lobby_abandons = after
        await self._preferences.save_user(user_id, settings)
        return after
