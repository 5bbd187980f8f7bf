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

Board states (which message shows a game in a chat, which version it shows, and which older messages still carry a
keyboard), the board leases and the quarantine flag are kept with the game record but are not part of its version.

**Board leases** make what a chat shows follow the saved game across workers (docs/architecture.md, "One board, many
workers"): a worker may call Telegram about a chat's board only while it holds the chat's lease
(:meth:`GameRecords.fence_board`, checked right before every call), the lease lets it draw only the game's *current*
version, and what the call made the chat show is recorded by the lease holder once Telegram has answered
(:meth:`GameRecords.land_board`). Edits of one board therefore never overtake each other, and the recorded state is
what the chat shows, never merely the highest version sent.
"""

from __future__ import annotations

import enum
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
        stale: older board messages of the chat that may still carry a keyboard, to be taken off
            (:meth:`GameRecords.land_board` adds the message a new board replaced; :meth:`GameRecords.forget_stale`
            removes one once its keyboard is gone).
    """

    chat_id: int
    message_id: int | None
    shown_version: int
    stale: tuple[int, ...] = ()


class BoardFence(enum.Enum):
    """The answer of :meth:`GameRecords.fence_board`: may this worker make its board call now?"""

    GRANTED = "granted"
    """Yes: the worker holds the chat's board lease (until it lands or the lease lapses)."""
    BUSY = "busy"
    """No: another worker holds the chat's lease (its call is under way); it records what it showed."""
    MOVED = "moved"
    """No: the chat's recorded board message is not the one the call is about (a new board was posted)."""
    OUTDATED = "outdated"
    """No: the game was saved again since the board was drawn; only the current version may be shown."""
    SHOWN = "shown"
    """No: the board already shows this version (an edit would change nothing)."""
    GONE = "gone"
    """No: there is no such game (it expired)."""


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
        seen: ``(action, at)`` of the last :meth:`GameRecords.mark_seen`: the board of the clock's ``action``-th
            action reached its player at ``at`` (None: no mark).
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
    seen: tuple[int, float] | None = None


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

    async def fence_board(
        self,
        game_id: str,
        chat_id: int,
        message_id: int | None,
        owner: str,
        lease: float,
        *,
        version: int | None = None,
        post: bool = False,
    ) -> BoardFence:
        """Take (``lease`` > 0 seconds of the store's clock, renewing a lease ``owner`` holds) or only check (0) the
        chat's board lease for one board call about ``message_id`` (None: the chat has no board yet), made right
        before the call. Atomic; the version is not bumped; works on finished games until they expire.

        Refused, in this order: GONE when there is no game; MOVED when the recorded board message is not
        ``message_id`` (nothing recorded counts as None); BUSY while another owner holds an unexpired lease on that
        message; OUTDATED when ``version`` (the version the call draws; None: no version check) is below the saved
        one; SHOWN when the call is an edit (not ``post``) and the recorded board already shows ``version`` or a
        later one. A ``post`` (a new board message replacing ``message_id``) is never SHOWN.

        Returns: GRANTED (the lease is held until :meth:`land_board` or until it lapses) or the refusal.
        """
        ...

    async def land_board(
        self, game_id: str, chat_id: int, owner: str, message_id: int | None, shown_version: int | None
    ) -> int | None:
        """Record what ``owner``'s board call made the chat show, once Telegram answered, and give its lease up.

        ``shown_version`` None: nothing was shown (the call failed): only the lease is given up. Otherwise the chat's
        board is ``message_id`` showing ``shown_version``; when that is a new message, the message it replaced joins
        the chat's ``stale`` messages (whose keyboards are to be taken off). When ``owner`` no longer holds the
        lease (it lapsed and another worker took it), the record is kept on the safe side: an edit lowers the shown
        version to ``shown_version`` if that is lower (a later sync redraws the board), a new message only joins
        ``stale``.
        Returns: the game's saved version now (the caller draws again when it is newer), or None when there is no
        game.
        """
        ...

    async def demote_board(
        self, game_id: str, chat_id: int, message_id: int, seen_version: int, recorded_version: int
    ) -> bool:
        """Correct the chat's board state with what Telegram says the message shows: ``seen_version`` (read from the
        keyboard of a message a button was pressed on). Written only while ``message_id`` is the recorded board,
        its recorded shown version is still ``recorded_version`` (what the caller read) and above
        ``seen_version``, and no lease is held on it. Returns: True when lowered (a sync then redraws it)."""
        ...

    async def adopt_board(self, game_id: str, chat_id: int, message_id: int, seen_version: int) -> BoardFence:
        """Make ``message_id`` the chat's board, showing ``seen_version`` (what its keyboard carries): a board message
        Telegram took but the store never recorded (its poster died before :meth:`land_board`), found when a button
        on it is pressed. The message the record named joins ``stale``.

        Returns: GRANTED when adopted; BUSY while a lease is held on the chat's board (a call under way may be
        about to record this very message); MOVED when the recorded board is this message or a newer one (the
        pressed message is an old board); GONE when there is no game.
        """
        ...

    async def mark_seen(self, game_id: str, action: int, at: float, *, deadline: float | None = None) -> float | None:
        """Record that the board of the clock's ``action``-th action (the awaited one) reached its player at ``at``
        (their clock counts from then: :meth:`bot.model.clock.GameClock.seen`), without bumping the game's version;
        the first mark of an action wins. ``deadline``: when the running clock runs out, counted from that mark; an
        active game's wake-up deadline is lowered to it when later, so the sweeper never wakes the game after its
        flag falls. Atomic.

        Returns: the time recorded for that action (an earlier mark's when there was one), None when there is no
        game or a later action is marked already (nothing is written: a slow worker cannot undo a newer mark).
        """
        ...

    async def forget_stale(self, game_id: str, chat_id: int, message_id: int) -> None:
        """Remove ``message_id`` from the chat's stale messages (its keyboard is gone). Returns nothing."""
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
