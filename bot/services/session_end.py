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


class LobbyResults(Protocol):
    """What a finished lobby game means for its players (:class:`bot.services.lobby.after_game.AfterGame`)."""

    async def game_finished(self, game_id: str, record: GameRecord) -> None:
        """Count a lobby game's abandonment for the abandoner's cool-down (once per game). Returns nothing.

        Raises: StoreUnavailableError."""
        ...


class SessionEnd:
    """Rates a finished match, hands a tournament match's result to the tournaments and a lobby game's end to the
    lobby."""

    def __init__(self, store: Store) -> None:
        """Write ratings to ``store``; :attr:`tournaments` (what records a tournament match's result) and
        :attr:`lobby` (what counts a lobby game's abandonment) are set once those services exist (they are built
        after the saver that calls this)."""
        self.store = store
        self.tournaments: MatchResults | None = None
        self.lobby: LobbyResults | None = None

    async def after_finish(self, game_id: str, record: GameRecord) -> None:
        """Rate the match (docs/rules.md §8), record a tournament match's result and a lobby game's abandonment.
        Returns nothing.

        Raises: StoreUnavailableError."""
        plan = record.rating_plan  # written by the finishing save (bot.services.saving)
        if plan is not None:
            await apply_rating_plan(self.store, game_id, plan)
        if record.tournament is not None:
            assert self.tournaments is not None, "SessionEnd.tournaments was not set"
            await self.tournaments.match_finished(
                game_id, record.tournament.tournament_id, record.tournament.match_id, record
            )
        if record.lobby is not None and self.lobby is not None:
            await self.lobby.game_finished(game_id, record)
