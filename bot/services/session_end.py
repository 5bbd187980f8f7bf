"""What follows the end of a game session besides its stats: the rating of the match and a tournament match's result.

:class:`SessionEnd` is the saver's ``after_finish`` (:class:`bot.services.saving.GameSaver`); each step is idempotent,
so the sweeper may repeat it until it is done."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from bot.model.game import GameRecord
from bot.services.ratings import apply_rating_plan

if TYPE_CHECKING:
    from bot.storage import Store


class MatchResults(Protocol):
    """Where a tournament match's result goes (the tournaments' reconciler,
    :class:`bot.services.tournaments.reconcile.TournamentReconciler`)."""

    async def match_finished(self, game_id: str, tournament_id: str, match_id: str, record: GameRecord) -> None:
        """Record the result of the tournament match played in the finished game session. Returns nothing.

        Raises: StoreUnavailableError."""
        ...


class SessionEnd:
    """Rates a finished match and hands a tournament match's result to the tournaments."""

    def __init__(self, store: Store) -> None:
        """Write ratings to ``store``; :attr:`tournaments` (what records a tournament match's result) is set once
        the tournament service exists (it is built after the saver that calls this)."""
        self.store = store
        self.tournaments: MatchResults | None = None

    async def after_finish(self, game_id: str, record: GameRecord) -> None:
        """Rate the match (docs/rules.md §8) and record a tournament match's result. Returns nothing.

        Raises: StoreUnavailableError."""
        plan = record.rating_plan  # written by the finishing save (bot.services.saving)
        if plan is not None:
            await apply_rating_plan(self.store, game_id, plan)
        if record.tournament is not None:
            assert self.tournaments is not None, "SessionEnd.tournaments was not set"
            await self.tournaments.match_finished(
                game_id, record.tournament.tournament_id, record.tournament.match_id, record
            )
