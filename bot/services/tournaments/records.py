"""Reading and writing tournament records: the record of a tournament, a chat's running and last tournament, and
the compare-and-set change that also sets the tournament's wake-up deadline (see :mod:`bot.services.tournaments.service`
for why every change does)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from bot.model.arena import is_arena
from bot.model.tournament import TournamentRecord
from bot.storage import StoredTournament, TournamentRecords
from bot.storage.errors import StoreUnavailableError
from bot.storage.ids import new_id

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig

MUTATE_ATTEMPTS: Final = 20

Change = Callable[[TournamentRecord], TournamentRecord | str | None]
"""A change of a record: the new record, a refusal (a text for the user; nothing is written) or None (nothing to
change)."""


class TournamentRecordKeeper:
    """The tournament records of every chat, read and changed with compare-and-set."""

    def __init__(self, store: TournamentRecords, config: GameConfig, *, retry_after: float) -> None:
        """Keep the records in ``store``, with the clock of ``config``; ``retry_after``: how soon after a save the
        tournament is due for the sweeper (when the work the save implies is not finished by then)."""
        self.store = store
        self.config = config
        self.retry_after = retry_after

    def clock(self) -> float:
        """Return the current time (the services' clock)."""
        return self.config.clock()

    async def create(self, record: TournamentRecord) -> str | None:
        """Store ``record`` as its chat's new tournament, due for the sweeper ``retry_after`` after its creation.

        Returns: the tournament id, or None when the chat already has an unfinished tournament.
        Raises: StoreUnavailableError."""
        tournament_id: str | None = await self.store.create_tournament(
            record.chat_id, record.to_dict(), tournament_id=new_id(), deadline=record.created_at + self.retry_after
        )
        return tournament_id

    async def load(self, tournament_id: str) -> tuple[StoredTournament, TournamentRecord] | None:
        """Return the stored tournament and its record, or None when there is none (an arena's record, kept among
        the tournaments, is none either: :mod:`bot.services.arena`).

        Raises: StoreUnavailableError; TournamentRecordError for a malformed record."""
        stored = await self.store.get_tournament(tournament_id)
        if stored is None or is_arena(stored.data):
            return None
        return stored, TournamentRecord.from_dict(stored.data)

    async def running_in(self, chat_id: int) -> tuple[StoredTournament, TournamentRecord] | None:
        """Return the chat's unfinished tournament, or None. Raises: StoreUnavailableError."""
        tournament_id = await self.store.chat_tournament(chat_id)
        return None if tournament_id is None else await self.load(tournament_id)

    async def last_in(self, chat_id: int) -> tuple[StoredTournament, TournamentRecord] | None:
        """Return the chat's most recently finished tournament that was played (not cancelled), or None.

        Raises: StoreUnavailableError."""
        for tournament_id in await self.store.chat_tournament_history(chat_id, limit=10):
            loaded = await self.load(tournament_id)
            if loaded is not None and loaded[1].status == "finished":
                return loaded
        return None

    async def mutate(
        self,
        tournament_id: str,
        change: Change,
        *,
        finished: bool = False,
        wake: float | None = None,
    ) -> tuple[int, TournamentRecord] | str | None:
        """Apply ``change`` to the stored record with compare-and-set, re-reading and re-applying it on a conflict.

        ``change`` returns the new record, a refusal (a text for the user; nothing is written) or None (nothing to
        change). The save sets the wake-up deadline ``wake`` (default: ``retry_after`` from now), so that whatever
        the change implies is done by the sweeper if this process dies first.
        Returns: (new version, new record), the refusal, or None when there was nothing to change or no such
        tournament. Raises: StoreUnavailableError.
        """
        for _ in range(MUTATE_ATTEMPTS):
            loaded = await self.load(tournament_id)
            if loaded is None:
                return None
            stored, record = loaded
            outcome = change(record)
            if outcome is None or isinstance(outcome, str):
                return outcome
            is_finished = finished or outcome.status in ("finished", "cancelled")
            version = await self.store.update_tournament(
                tournament_id,
                stored.version,
                outcome.to_dict(),
                deadline=self.clock() + self.retry_after if wake is None else wake,
                finished=is_finished,
            )
            if version is not None:
                return version, outcome
        raise StoreUnavailableError(f"tournament {tournament_id} kept changing: {MUTATE_ATTEMPTS} conflicts in a row")

    async def set_wake(self, tournament_id: str, version: int, wake: float | None) -> None:
        """Move the tournament's wake-up deadline to ``wake`` (None: none) if it is still at ``version`` (a newer
        save set its own). Returns nothing. Raises: StoreUnavailableError."""
        await self.store.set_tournament_deadline(tournament_id, version, wake)

    async def due(self, now: float, *, limit: int) -> list[str]:
        """Return the ids of the tournaments whose wake-up deadline is at or before ``now`` (at most ``limit``).

        Raises: StoreUnavailableError."""
        return await self.store.due_tournaments(now, limit=limit)
