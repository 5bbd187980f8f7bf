"""The game of a lobby pairing: a single game in both players' private chats (kind ``private``, each the viewer of
their own board), on the seek's clock, rated, under the pairing's id — so making it again after a crash (the
matchmaker's recovery) finds it made; then each player's "seeking…" message says who was found."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from aiogram.methods import EditMessageText, SendMessage

from bot.model.game import ChatLink
from bot.model.lobby import LobbyLink
from bot.services.actions import GameActions
from bot.services.engine_flow import options_for
from bot.services.lobby.entries import Seek
from bot.services.lobby.rules import GAME_LENGTH
from bot.services.messaging import SEND_FAILURES, Replies
from bot.storage import GameRecords
from bot.storage.pools import StoredPairing
from bot.texts import tr

log = logging.getLogger(__name__)


class LobbyGameStore(GameRecords, Protocol):
    """The storage role the lobby's games read: the games (does the pairing's game exist, whom do they involve)."""


def seeks_of(pairing: StoredPairing) -> list[Seek] | None:
    """Return the pairing's two seeks, the one who waited longer first (player 0), or None when one is malformed."""
    seeks = [Seek.of(entry) for entry in pairing.entries]
    if seeks[0] is None or seeks[1] is None:
        return None
    found = [seeks[0], seeks[1]]
    found.sort(key=lambda s: (s.since, s.user_id))
    return found


class LobbyGames:
    """Makes the games of lobby pairings and tells both players."""

    def __init__(self, store: LobbyGameStore, actions: GameActions, replies: Replies) -> None:
        """Read games in ``store``, create them with ``actions`` and tell the players through ``replies``."""
        self.store = store
        self.actions = actions
        self.replies = replies

    async def exists(self, game_id: str) -> bool:
        """Return whether the game ``game_id`` exists. Raises: StoreUnavailableError."""
        return await self.store.get_game(game_id) is not None

    async def busy(self, pairing: StoredPairing) -> set[int]:
        """Return the players of the pairing who play another game and did not ask for one beside it (``more``):
        they are not put into a second game. Raises: StoreUnavailableError."""
        seeks = seeks_of(pairing) or []
        found: set[int] = set()
        for seek in seeks:
            if seek.more:
                continue
            others = [g for g in await self.store.user_games(seek.user_id) if g != pairing.pairing_id]
            if others:
                found.add(seek.user_id)
        return found

    async def start(self, pairing: StoredPairing) -> bool:
        """Make the pairing's game (idempotent: under the pairing's id) and tell both players who they play.
        Returns: whether the game exists now (False: a seek was malformed; the matchmaker releases the pairing).
        Raises: StoreUnavailableError."""
        seeks = seeks_of(pairing)
        if seeks is None or seeks[0].key != seeks[1].key:
            return False
        first, second = seeks
        game_id = pairing.pairing_id
        if not await self.exists(game_id):
            await self.actions.start_game(
                first.variant,
                GAME_LENGTH,
                [first.player, second.player],
                [ChatLink(first.user_id, 0), ChatLink(second.user_id, 1)],
                kind="private",
                options=options_for(first.variant),
                game_id=game_id,
                limits=False,
                clock=first.control,
                lobby=LobbyLink(series=game_id, clock=first.clock),
            )
            log.info("lobby: game %s between %s and %s", game_id, first.user_id, second.user_id)
        await self._tell(first, second)
        await self._tell(second, first)
        return True

    async def _tell(self, seek: Seek, opponent: Seek) -> None:
        """Say in the seeker's "seeking…" message (or a new one) who was found."""
        lang = seek.lang
        text = tr(
            lang,
            "lobby.found",
            name=opponent.name,
            rating=round(opponent.rating),
            variant=tr(lang, f"variant.{seek.variant}"),
            clock=seek.clock,
        )
        await tell(self.replies, seek.user_id, seek.message, text)


async def tell(replies: Replies, chat_id: int, message_id: int | None, text: str) -> None:
    """Replace the text (and the keyboard) of the "seeking…" message ``message_id`` in ``chat_id``, or send ``text``
    when there is none. Failures are logged. Returns nothing."""
    if message_id is not None:
        await replies.edit(EditMessageText(chat_id=chat_id, message_id=message_id, text=text))
        return
    try:
        await replies.send(SendMessage(chat_id=chat_id, text=text))
    except SEND_FAILURES as error:
        log.info("lobby message to %s failed: %s", chat_id, error)


__all__: Sequence[str] = ["LobbyGames", "seeks_of", "tell"]
