"""One door for the work tournaments and arenas share: the ``tournament_reconcile`` job, the sweep of due records
(both live in the store's tournament records) and the end of a game session that belongs to either. The router
looks at the record's format (an arena's has ``"format": "arena"``, :func:`bot.model.arena.is_arena`; a game's
tournament link says ``arena``) and hands the work to the arenas' reconciler or, for every other format, to the
tournaments' reconciler unchanged."""

from __future__ import annotations

import logging

from bot.model.arena import is_arena
from bot.model.game import GameRecord
from bot.services.arena.reconcile import ArenaReconciler
from bot.services.tasks import KeyedTasks
from bot.services.tournaments.reconcile import TournamentReconciler
from bot.storage import TournamentRecords
from bot.storage.errors import StoreUnavailableError

log = logging.getLogger(__name__)


class CompetitionRouter:
    """Sends the shared work to the tournaments or the arenas (see the module docstring)."""

    def __init__(self, store: TournamentRecords, tournaments: TournamentReconciler, arenas: ArenaReconciler) -> None:
        """Read the records' format in ``store``; hand the work to ``tournaments`` or ``arenas``."""
        self.store = store
        self.tournaments = tournaments
        self.arenas = arenas
        self.tasks = KeyedTasks("competition", sleep=tournaments.tasks.sleep)

    async def is_arena(self, record_id: str) -> bool:
        """Return whether the tournament record ``record_id`` is an arena's. Raises: StoreUnavailableError."""
        stored = await self.store.get_tournament(record_id)
        return stored is not None and is_arena(stored.data)

    async def reconcile(self, record_id: str) -> None:
        """Bring the tournament or arena up to date (its reconciler's ``reconcile``). Returns nothing.

        Raises: StoreUnavailableError; a broken record's error."""
        if await self.is_arena(record_id):
            await self.arenas.reconcile(record_id)
        else:
            await self.tournaments.reconcile(record_id)

    def run_in_process(self, record_id: str, *, delay: float = 0.0) -> None:
        """Run :meth:`reconcile` in a task of this process (the job queue's fallback). Returns nothing."""
        self.tasks.request(record_id, self._reconcile_logged, delay=delay)

    async def _reconcile_logged(self, record_id: str) -> None:
        try:
            await self.reconcile(record_id)
        except StoreUnavailableError:
            log.warning("store unavailable: tournament %s is left to the sweeper", record_id)
            self.tasks.forget(record_id)
        except Exception:
            log.exception("tournament %s could not be brought up to date (the sweeper retries)", record_id)
            self.tasks.forget(record_id)

    async def match_finished(self, game_id: str, tournament_id: str, match_id: str, record: GameRecord) -> None:
        """Hand a finished game session's result to the arena or the tournament it belongs to. Returns nothing.

        Raises: StoreUnavailableError."""
        if record.tournament is not None and record.tournament.arena:
            await self.arenas.match_finished(game_id, tournament_id, match_id, record)
        else:
            await self.tournaments.match_finished(game_id, tournament_id, match_id, record)

    async def sweep(self, now: float | None = None, *, limit: int = 100) -> int:
        """Reconcile every tournament and arena whose wake-up deadline is due. Returns: how many were handled.

        Raises: StoreUnavailableError when the due records cannot be listed."""
        now = self.tournaments.clock() if now is None else now
        handled = 0
        for record_id in await self.store.due_tournaments(now, limit=limit):
            if self.tournaments.tasks.busy(record_id) or self.arenas.busy_with(record_id) or self.tasks.busy(record_id):
                continue
            try:
                await self.reconcile(record_id)
                handled += 1
            except StoreUnavailableError:
                raise
            except Exception:
                log.exception("tournament %s could not be brought up to date", record_id)
        return handled

    def busy(self) -> bool:
        """Return whether tournament or arena work runs in the background of this process."""
        return self.tasks.busy_any() or self.tournaments.busy() or self.arenas.busy()

    async def settle(self) -> None:
        """Wait until no tournament or arena work runs in the background. Returns nothing."""
        while self.busy():
            await self.tasks.settle()
            await self.tournaments.settle()
            await self.arenas.settle()

    async def stop(self) -> None:
        """Cancel the background work (the sweeper finishes it after a restart). Returns nothing."""
        await self.tasks.stop()
        await self.tournaments.stop()
        await self.arenas.stop()
