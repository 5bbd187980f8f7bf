"""The game records role: versioned game documents, their indices, board states and quarantine.

A game is stored as an opaque JSON-compatible ``dict`` (the engine's ``Game.to_dict()`` plus bot metadata)
together with an integer *version*. ``create_game`` gives version 1; every successful ``update_game`` or
``finish_game`` increments it by one and only succeeds when the caller names the current version
(compare-and-set), so a change based on a stale read is refused instead of overwriting a concurrent one.

Indices (which games a chat or a user has, which turns are overdue) are maintained by the store. On Redis they
live outside the game's hash tag and are updated right after the game itself, so after a crash they can briefly
name a finished or vanished game: callers always re-read the game (``get_game``) before acting on an id taken from
an index.

The deadline index is crash-safe in one direction: its entry for a game is never LATER than the deadline stored
with the game (an earlier deadline is written to the index before the game, a later one after it), so a crash
can only wake a game early (``due_games`` then repairs the entry), never lose its wake-up. Game creation writes
the indices first, so a crash or a lost reply during creation never leaves a game no index names; with a
caller-chosen ``game_id`` a retried creation is idempotent.

Board states (which message shows a game in a chat, and which version it shows) and the quarantine flag are kept
with the game record but are not part of its version.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from .documents import UNSET, JSONDict


@dataclass(frozen=True, slots=True)
class BoardState:
    """The board message of a game in one chat, as last recorded by ``set_board``.

    Attributes:
        chat_id: the chat.
        message_id: the board message's id, or None when the board is not (or no longer) posted there.
        shown_version: the game version that message shows.
    """

    chat_id: int
    message_id: int | None
    shown_version: int


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game as read from a store.

    Attributes:
        game_id: the id given by ``create_game`` (short, URL- and callback-safe: ``[A-Za-z0-9_-]``).
        version: the current version; pass it to ``update_game``/``finish_game`` as ``expected_version``.
        data: the record (a fresh copy; mutating it changes nothing in the store).
        finished: True once ``finish_game`` has been applied (the game then expires after its TTL).
        chat_ids: the chats the game is shown in (as given to ``create_game``).
        user_ids: the players' user ids (as given to ``create_game``).
        deadline: the unix time after which the turn counts as overdue (for a finished game: when the
            sweeper should look at it again), or None.
        boards: the recorded board state per chat id (``set_board``), read together with the record.
        quarantined: True once ``quarantine_game`` was applied (the game is in no index any more).
    """

    game_id: str
    version: int
    data: JSONDict
    finished: bool = False
    chat_ids: tuple[int, ...] = ()
    user_ids: tuple[int, ...] = ()
    deadline: float | None = None
    boards: Mapping[int, BoardState] = field(default_factory=dict)
    quarantined: bool = False


@runtime_checkable
class GameRecords(Protocol):
    """Games: versioned records, chat/user/deadline indices, board states, quarantine.

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back
    end cannot be reached.
    """

    async def create_game(
        self,
        data: JSONDict,
        *,
        game_id: str | None = None,
        chat_ids: Iterable[int] = (),
        user_ids: Iterable[int] = (),
        deadline: float | None = None,
    ) -> str:
        """Store a new game at version 1 and index it under its chats and users (and the deadline).

        The indices are written before the record, so an interrupted creation never leaves an unindexed game.
        ``game_id``: an id made beforehand with :func:`bot.storage.ids.new_id`; when a game with this id already
            exists nothing is overwritten (its indices are rewritten idempotently) and the same id is returned,
            so retrying a creation whose reply was lost creates nothing twice. None: the store picks a new id.
        Returns: the game id (unique, ``[A-Za-z0-9_-]{10}``).
        Raises: ValueError when ``game_id`` is not a well-formed id.
        """
        ...

    async def get_game(self, game_id: str) -> StoredGame | None:
        """Return the game, or None when no such game exists (or it expired)."""
        ...

    async def update_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
    ) -> int | None:
        """Replace the record if the stored version equals ``expected_version`` (atomic compare-and-set).

        ``deadline``: a new turn deadline (unix time), None to clear it, or omitted to keep it.
        Returns: the new version (``expected_version + 1``) on success, None when the version differs
            (someone else changed the game first; nothing was written).
        Raises: GameNotFoundError when the game does not exist.
        """
        ...

    async def finish_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        ttl: float,
        deadline: float | None = None,
    ) -> int | None:
        """Like ``update_game``, and also mark the game finished: it leaves the active indices of its users
        and chats, joins its chats' history, and expires ``ttl`` seconds from now.

        ``deadline``: None clears the deadline (the game leaves the deadline index); a time keeps the finished
            game in the deadline index until that deadline is cleared (``set_deadline(..., None)``), so that
            work still owed after finishing (the final board, the stats) is found again after a crash.
        Returns: the new version on success, None on a version conflict or when already finished.
        Raises: GameNotFoundError when the game does not exist.
        """
        ...

    async def set_deadline(self, game_id: str, expected_version: int, deadline: float | None) -> bool:
        """Change only the game's deadline (the version is not bumped) if its version equals
        ``expected_version``; works on finished games too. None clears it (the game leaves the deadline index).

        Returns: True when written; False on a version conflict or when the game does not exist (or expired).
        """
        ...

    async def set_board(self, game_id: str, chat_id: int, message_id: int | None, shown_version: int) -> bool:
        """Record which message shows the game in ``chat_id`` and which version it shows, without bumping the
        game's version. Atomic and monotonic: written only when ``shown_version`` is at least the recorded
        one (or nothing is recorded for that chat yet). Works on finished games until they expire.

        Returns: True when written; False when a newer state is recorded (nothing written) or there is no such
            game.
        """
        ...

    async def claim_board(self, game_id: str, chat_id: int, message_id: int | None, owner: str, lease: float) -> bool:
        """Claim the right to replace the game's board message in ``chat_id`` (to post a new one) while the
        recorded board message is ``message_id`` (None: no message recorded); with ``lease`` 0, only check that
        right. Compare-and-set: granted when the message recorded by ``set_board`` is ``message_id`` (or nothing is
        recorded for the chat) and no other ``owner`` holds an unexpired claim to replace that message; a grant with
        ``lease`` > 0 makes ``owner`` the holder until ``lease`` seconds of the store's clock from now (a holder
        renews it by claiming again). A claim is void once another message is recorded. The version is not bumped.
        Works on finished games until they expire.

        Returns: True when granted; False otherwise or when there is no such game.
        """
        ...

    async def quarantine_game(self, game_id: str, reason: str) -> None:
        """Take a game out of service: it leaves the deadline index and the active chat, user and user-in-chat
        indices for good, and is listed by ``quarantined_games``; ``get_game`` still returns it (with
        ``quarantined=True`` and ``finished`` unchanged) for inspection. Does nothing for a missing game.
        """
        ...

    async def quarantined_games(self) -> list[str]:
        """Return the ids of quarantined games that still exist, earliest quarantined first."""
        ...

    async def chat_games(self, chat_id: int) -> list[str]:
        """Return the ids of the chat's active (unfinished) games, oldest first (ties in any order)."""
        ...

    async def chat_history(self, chat_id: int, limit: int = 20) -> list[str]:
        """Return the ids of the chat's finished, unexpired games, most recently finished first."""
        ...

    async def user_games(self, user_id: int) -> list[str]:
        """Return the ids of the user's active (unfinished) games, oldest first (ties in any order)."""
        ...

    async def user_chat_games(self, chat_id: int, user_id: int) -> list[str]:
        """Return the ids of the user's active games shown in the chat, oldest first (ties in any order).

        Answered from an index of (user, chat), so it stays fast however many games the chat has.
        """
        ...

    async def count_chat_games(self, chat_id: int) -> int:
        """Return the number of the chat's active (unfinished, not quarantined) games (for caps).

        Redis counts exactly up to 500 games per chat; beyond that it may overcount by games whose index
        update a crash interrupted (see ``RedisGameStore.count_chat_games``).
        """
        ...

    async def due_games(self, now: float, limit: int = 100) -> list[str]:
        """Return ids of games whose deadline is at or before ``now``, earliest deadline first.

        Active games, and finished (unexpired) games that were given a deadline by ``finish_game`` or
        ``set_deadline``: check ``StoredGame.finished`` after re-reading. Quarantined, expired and vanished games
        are never returned. An index entry earlier than the stored deadline is repaired, not returned; so a call
        may return fewer than ``limit`` ids even though more are due (the next call returns them).
        """
        ...

    async def active_game_count(self) -> int:
        """Return about how many games are unfinished (Redis: the games with a pending deadline, which every
        unfinished game has; SQLite: exactly), for the metrics."""
        ...
