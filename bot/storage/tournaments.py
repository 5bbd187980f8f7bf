"""The tournament records role: one versioned document per tournament, at most one running per chat.

A tournament is stored like a game (opaque JSON ``data`` and a compare-and-set *version*), under its chat: a chat
has at most ONE running (unfinished) tournament, which ``create_tournament`` enforces atomically; finishing it
(``update_tournament(..., finished=True)``) frees the chat and moves the tournament to the chat's history, from
which it expires after :data:`TOURNAMENT_HISTORY_RETENTION`. Its deadline index keeps the guarantee of the game
deadline index (never later than the record).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .documents import UNSET, JSONDict

TOURNAMENT_HISTORY_RETENTION = 365 * 24 * 3600.0
"""Seconds for which a finished tournament is kept (then it expires and leaves the chat's history)."""


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """One tournament as read from a store.

    Attributes:
        tournament_id: the id given by ``create_tournament`` (``[A-Za-z0-9_-]{10}``).
        version: the current version; pass it to ``update_tournament`` as ``expected_version``.
        data: the record (a fresh copy; mutating it changes nothing in the store).
        chat_id: the chat the tournament runs in.
        finished: True once ``update_tournament(..., finished=True)`` was applied (it then expires after
            :data:`TOURNAMENT_HISTORY_RETENTION`).
        deadline: the tournament's wake-up time (unix time; it is listed by ``due_tournaments`` from then on),
            or None.
    """

    tournament_id: str
    version: int
    data: JSONDict
    chat_id: int
    finished: bool = False
    deadline: float | None = None


@runtime_checkable
class TournamentRecords(Protocol):
    """Tournaments: versioned records, the chat's running one and history, deadlines.

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back
    end cannot be reached.
    """

    async def create_tournament(
        self,
        chat_id: int,
        data: JSONDict,
        *,
        tournament_id: str | None = None,
        deadline: float | None = None,
    ) -> str | None:
        """Store a new tournament at version 1 as the chat's one running (unfinished) tournament.

        Of concurrent creations in one chat at most one succeeds. A chat whose running tournament was left
        half-created by a crash (or finished, or expired) counts as free.
        ``tournament_id``: an id made beforehand with :func:`bot.storage.ids.new_id`; when a tournament with this id
            already exists nothing is overwritten and the same id is returned, so retrying a creation whose reply
            was lost creates nothing twice. None: the store picks a new id.
        ``deadline``: puts the tournament in the tournament deadline index (``due_tournaments``).
        Returns: the tournament id; None (nothing written) when the chat already has another unfinished
            tournament.
        Raises: ValueError when ``tournament_id`` is not a well-formed id.
        """
        ...

    async def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        """Return the tournament, or None when no such tournament exists (or it expired)."""
        ...

    async def update_tournament(
        self,
        tournament_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
        finished: bool = False,
    ) -> int | None:
        """Replace the record if the stored version equals ``expected_version`` (atomic compare-and-set).

        ``deadline``: a new wake-up time (unix time), None to clear it, or omitted to keep it.
        ``finished``: True marks the tournament finished: the chat's running slot is released, the tournament
            joins the chat's tournament history and expires after :data:`TOURNAMENT_HISTORY_RETENTION`. A finished
            tournament can still be updated (e.g. to clear an outbox); it stays finished (False never reopens it).
        Returns: the new version (``expected_version + 1``) on success, None when the version differs (nothing
            was written).
        Raises: GameNotFoundError when the tournament does not exist (or expired).
        """
        ...

    async def set_tournament_deadline(self, tournament_id: str, expected_version: int, deadline: float | None) -> bool:
        """Change only the tournament's deadline (the version is not bumped) if its version equals
        ``expected_version``; works on finished tournaments too. None clears it (it leaves the deadline index).

        Returns: True when written; False on a version conflict or when the tournament does not exist.
        """
        ...

    async def chat_tournament(self, chat_id: int) -> str | None:
        """Return the id of the chat's running (unfinished) tournament, or None when it has none."""
        ...

    async def chat_tournament_history(self, chat_id: int, limit: int = 10) -> list[str]:
        """Return the ids of the chat's finished, unexpired tournaments, most recently finished first (at most
        ``limit``)."""
        ...

    async def due_tournaments(self, now: float, limit: int = 100) -> list[str]:
        """Return ids of tournaments whose deadline is at or before ``now``, earliest deadline first.

        Finished (unexpired) tournaments too while they have a deadline: check ``StoredTournament.finished`` after
        re-reading. As with ``due_games``, a call may return fewer than ``limit`` ids while repairing the index.
        """
        ...
