"""A clock starts when its board is seen (docs/rules.md §1 "Time control"; :mod:`bot.model.clock`).

A save that awaits a player's action leaves their clock *waiting*. The first time the board of that action (that
version or a later one) reaches the player — a board landing in a chat where they play (the group's one board, or
their own private board; an inline board), or the Mini App sending them the view — :meth:`ClockStarts.seen` records
the moment beside the game (:meth:`~bot.storage.games.GameRecords.mark_seen`: the version is not bumped, so no board
has to be drawn again; the first mark of an action wins, whichever worker makes it), lowers the game's wake-up
deadline to the clock's deadline from then, and asks for a wake-up at it. Every later read of the game applies the
mark (:meth:`~bot.model.game.GameRecord.from_stored`), so the saved record and the mark alone decide the time, after
a restart too. A board Telegram holds back (a group's minute spent, a retried send, a restart before the board went
out) costs its player nothing: their time counts only from the delivery.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Collection
from typing import Final

from bot.model.game import GameRecord
from bot.storage import GameRecords
from bot.storage.errors import StoreUnavailableError

log = logging.getLogger(__name__)

REMEMBERED: Final = 4096
"""The actions whose start this process recorded, remembered so that a board drawn again (or a view sent to every
socket of the player) costs no store call."""

BOTH_SIDES: Final = (0, 1)
"""The sides a board shown to both players reaches: a group's board, an inline board."""


class ClockStarts:
    """Records when the board of each awaited action reached its player (see the module docstring)."""

    def __init__(
        self, store: GameRecords, clock: Callable[[], float], watch: Callable[[str, float], None] | None = None
    ) -> None:
        """Record in ``store`` at the time of ``clock``; ``watch(game_id, deadline)``, when given (or set later), asks
        for a wake-up at the deadline of a clock that starts (:meth:`bot.services.clock_watch.ClockWatch.watch`)."""
        self.store = store
        self.clock = clock
        self.watch = watch
        self._started: OrderedDict[tuple[str, int], None] = OrderedDict()

    async def seen(self, game_id: str, record: GameRecord, sides: Collection[int]) -> float | None:
        """Record that the board of ``record`` (the saved game, as it was drawn or sent) reached ``sides`` now: when
        the awaited player is among them and their clock waits, it starts counting. Never raises: a store that
        cannot be reached is logged, and the next delivery records it.

        Returns: the time the awaited player's clock counts from (an earlier delivery's, when another worker or
        an earlier board recorded one), None when no clock of the record waits for these sides."""
        clock = record.clock
        if clock is None or not clock.waiting or clock.began is None or clock.running not in sides:
            return None
        action = clock.action
        if (game_id, action) in self._started:
            return None
        at = self.clock()
        try:
            recorded = await self.store.mark_seen(game_id, action, at, deadline=clock.seen(action, at).deadline())
        except StoreUnavailableError as error:
            log.warning(
                "the start of a clock in game %s is not recorded (%s): the next delivery records it", game_id, error
            )
            return None
        if recorded is None:
            return None
        self._started[(game_id, action)] = None
        if len(self._started) > REMEMBERED:
            self._started.popitem(last=False)
        deadline = clock.seen(action, recorded).deadline()
        if deadline is not None and self.watch is not None:
            self.watch(game_id, deadline)
        return recorded
