"""The games of a chat, read-only: the running ones ``/watch`` offers, and whether a chat has any (typed moves)."""

from __future__ import annotations

from bot.model.game import GameRecord, RecordError
from bot.storage import GameRecords


class ChatGames:
    """The games listed in a chat, on the game records of the store."""

    def __init__(self, store: GameRecords) -> None:
        """Read the games in ``store``."""
        self._store = store

    async def running(self, chat_id: int, scan: int = 10) -> list[tuple[str, GameRecord]]:
        """Return the running games among the first ``scan`` games listed in the chat, with their ids, in the
        chat's order (a finished, vanished or unreadable one is left out). Raises: StoreUnavailableError."""
        found: list[tuple[str, GameRecord]] = []
        for game_id in (await self._store.chat_games(chat_id))[:scan]:
            stored = await self._store.get_game(game_id)
            if stored is None or stored.finished:
                continue
            try:
                found.append((game_id, GameRecord.from_stored(stored)))
            except RecordError:
                continue
        return found

    async def any_in(self, chat_id: int) -> bool:
        """Return whether any game is listed in the chat. Raises: StoreUnavailableError."""
        return bool(await self._store.chat_games(chat_id))
