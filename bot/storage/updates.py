"""The update claims role: each incoming Telegram update handled at most once across webhook workers."""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

UpdateClaim = Literal["new", "running", "done"]
"""What :meth:`UpdateClaims.claim_update` says of an incoming update."""


@runtime_checkable
class UpdateClaims(Protocol):
    """Claims of incoming updates (webhook workers).

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back
    end cannot be reached.
    """

    async def claim_update(self, update_id: int, *, lease: float) -> UpdateClaim:
        """Claim Telegram update ``update_id`` for this worker, so that a redelivered update (Telegram retries after
        a timeout, an error or a crash, possibly to another worker) is handled at most once.

        Returns: ``"new"`` when this call claimed it (for ``lease`` seconds: a claim of a worker that dies
        mid-update lapses then, and a later redelivery is handled); ``"running"`` while another claim holds;
        ``"done"`` once :meth:`finish_update` recorded it.
        """
        ...

    async def finish_update(self, update_id: int, *, ttl: float) -> None:
        """Record update ``update_id`` as handled for ``ttl`` seconds (redeliveries meanwhile get ``"done"``)."""
        ...

    async def release_update(self, update_id: int) -> None:
        """Drop this worker's claim of an update it could not handle, so a redelivery is handled at once."""
        ...
