"""Reading and writing arena records (kept with the tournaments: the store's ``TournamentRecords`` role): an arena's
record, a chat's running arena, and the compare-and-set change that also sets the arena's wake-up deadline (as
:mod:`bot.services.tournaments.records` does for a tournament, so that whatever a change implies is done by the
sweeper if this process dies first)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.model.arena import ArenaRecord, is_arena
from bot.storage import StoredTournament, TournamentRecords
from bot.storage.errors import StoreUnavailableError
from bot.storage.ids import new_id

MUTATE_ATTEMPTS: Final = 20

ArenaChange = Callable[[ArenaRecord], ArenaRecord | str | None]
"""A change of a record: the new record, a refusal (a text for the user; nothing is written) or None (nothing to
change)."""


class ArenaRecordKeeper:
    """The arena records of every chat, read and changed with compare-and-set."""

    def __init__(self, store: TournamentRecords, clock: Callable[[], float], *, retry_after: float) -> None:
        """Keep the records in ``store``, on ``clock``; ``retry_after``: how soon after a save the arena is due for
        the sweeper (when the work the save implies is not finished by then)."""
        self.store = store
        self.clock = clock
        self.retry_after = retry_after

    async def create(self, record: ArenaRecord) -> str | None:
        """Store ``record`` as its chat's new running tournament, due for the sweeper at once.

        Returns: the arena id, or None when the chat already has an unfinished tournament or arena.
        Raises: StoreUnavailableError."""
        arena_id: str | None = await self.store.create_tournament(
            record.chat_id, record.to_dict(), tournament_id=new_id(), deadline=record.created_at + self.retry_after
        )
        return arena_id

    async def load(self, arena_id: str) -> tuple[StoredTournament, ArenaRecord] | None:
        """Return the stored record and the arena, or None when there is none (or it is a tournament's).

        Raises: StoreUnavailableError; ArenaRecordError for a malformed record."""
        stored = await self.store.get_tournament(arena_id)
        if stored is None or not is_arena(stored.data):
            return None
        return stored, ArenaRecord.from_dict(stored.data)

    async def running_in(self, chat_id: int) -> tuple[str, ArenaRecord] | None:
        """Return the id and record of the chat's running arena, or None (no running tournament, or a tournament).

        Raises: StoreUnavailableError."""
        arena_id = await self.store.chat_tournament(chat_id)
        if arena_id is None:
            return None
        loaded = await self.load(arena_id)
        return None if loaded is None else (arena_id, loaded[1])

    async def mutate(
        self, arena_id: str, change: ArenaChange, *, wake: float | None = None
    ) -> tuple[int, ArenaRecord] | str | None:
        """Apply ``change`` to the stored record with compare-and-set, re-reading and re-applying it on a conflict;
        the save sets the wake-up deadline ``wake`` (default: ``retry_after`` from now) and marks the arena finished
        in the store when its status is.

        Returns: (new version, new record), the refusal, or None when there was nothing to change or no such arena.
        Raises: StoreUnavailableError."""
        for _ in range(MUTATE_ATTEMPTS):
            loaded = await self.load(arena_id)
            if loaded is None:
                return None
            stored, record = loaded
            outcome = change(record)
            if outcome is None or isinstance(outcome, str):
                return outcome
            version = await self.store.update_tournament(
                arena_id,
                stored.version,
                outcome.to_dict(),
                deadline=self.clock() + self.retry_after if wake is None else wake,
                finished=outcome.status == "finished",
            )
            if version is not None:
                return version, outcome
        raise StoreUnavailableError(f"arena {arena_id} kept changing: {MUTATE_ATTEMPTS} conflicts in a row")

    async def set_wake(self, arena_id: str, version: int, wake: float | None) -> None:
        """Move the arena's wake-up deadline to ``wake`` (None: none) if it is still at ``version``. Returns
        nothing. Raises: StoreUnavailableError."""
        await self.store.set_tournament_deadline(arena_id, version, wake)
