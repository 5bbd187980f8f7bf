"""The challenges role: open challenges that expire, claimed exactly once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .documents import JSONDict


@dataclass(frozen=True, slots=True)
class StoredChallenge:
    """An open challenge: opaque ``data`` and the chat it was posted in (``chat_id``; None for a link)."""

    challenge_id: str
    data: JSONDict
    chat_id: int | None = None


@runtime_checkable
class ChallengeRecords(Protocol):
    """Open challenges (in a chat or behind a deep link).

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back
    end cannot be reached.
    """

    async def create_challenge(self, data: JSONDict, *, ttl: float, chat_id: int | None = None) -> str:
        """Store an open challenge that expires ``ttl`` seconds from now.

        Returns: the challenge id (``[A-Za-z0-9_-]{10}``, fit for a ``?start=`` deep link payload).
        """
        ...

    async def get_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """Return the open challenge, or None when it does not exist, expired or was claimed."""
        ...

    async def claim_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """Atomically take the challenge out of the store (accept, decline or cancel it).

        Of any number of concurrent claims exactly one gets the challenge; the others get None.
        Returns: the challenge, or None when it does not exist, expired or was already claimed.
        """
        ...

    async def chat_challenges(self, chat_id: int) -> list[StoredChallenge]:
        """Return the open, unexpired challenges posted in the chat, soonest expiry first."""
        ...
