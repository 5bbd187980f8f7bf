"""Open challenges (:mod:`bot.model.challenge`): a group's challenge card, a private deep link and a computer offer,
created, read typed and claimed once."""

from __future__ import annotations

from bot.model.challenge import Challenge, ChallengeError, load_challenge
from bot.storage import ChallengeRecords


class Challenges:
    """The open challenges on the challenge records of the store."""

    def __init__(self, store: ChallengeRecords) -> None:
        """Keep the challenges in ``store``."""
        self._store = store

    async def create(self, challenge: Challenge, *, ttl: float, chat_id: int | None = None) -> str:
        """Store ``challenge`` for ``ttl`` seconds (listed among the open challenges of ``chat_id``, if given).

        Returns: its id. Raises: StoreUnavailableError."""
        return await self._store.create_challenge(challenge.to_dict(), ttl=ttl, chat_id=chat_id)

    async def get(self, challenge_id: str) -> Challenge | None:
        """Return the open challenge ``challenge_id``, or None when there is none (accepted, cancelled, expired or
        never made).

        Raises: ChallengeError when the stored document is no challenge (forged or garbled);
        StoreUnavailableError."""
        stored = await self._store.get_challenge(challenge_id)
        return None if stored is None else load_challenge(stored.data)

    async def claim(self, challenge_id: str) -> bool:
        """Take the challenge ``challenge_id`` away, atomically: exactly one caller gets True.

        Returns: whether this call claimed it (False: it was gone already). Raises: StoreUnavailableError."""
        return await self._store.claim_challenge(challenge_id) is not None

    async def open_in(self, chat_id: int) -> list[tuple[str, Challenge]]:
        """Return the open challenges listed in the chat, with their ids (a garbled one is left out).
        Raises: StoreUnavailableError."""
        found: list[tuple[str, Challenge]] = []
        for stored in await self._store.chat_challenges(chat_id):
            try:
                found.append((stored.challenge_id, load_challenge(stored.data)))
            except ChallengeError:
                continue
        return found
