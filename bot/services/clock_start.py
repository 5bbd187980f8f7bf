"""A clock starts when its board is seen (docs/rules.md §1 "Time control"; :mod:`bot.model.clock`).

A save that awaits a player's action leaves their clock *waiting*. The first time the board of that action (that
version or a later one) reaches the player — a board landing in a chat where they play (the group's one board, or
their own private board; an inline board), or the Mini App sending them the view — :meth:`ClockStarts.seen` records
the moment beside the game (:meth:`~bot.storage.games.GameRecords.mark_seen`: the version is not bumped, so no board
has to be drawn again; the first mark of an action wins, whichever worker makes it, and a mark of an older action
than the one recorded is refused), lowers the game's wake-up deadline to the clock's deadline from then, asks for a
wake-up at it, and announces the version again to the Mini App's sockets (their views then show the clock running).
Every later read of the game applies the mark (:meth:`~bot.model.game.GameRecord.from_stored`), so the saved record
and the mark alone decide the time, after a restart too. A board Telegram holds back (a group's minute spent, a
retried send, a restart before the board went out) costs its player nothing: their time counts only from the
delivery.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection
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
        self,
        store: GameRecords,
        clock: Callable[[], float],
        watch: Callable[[str, float], None] | None = None,
        publish: Callable[[str, int], Awaitable[None]] | None = None,
    ) -> None:
        """Record in ``store`` at the time of ``clock``; ``watch(game_id, deadline)``, when given, asks for a wake-up
        at the deadline of a clock that starts (:meth:`bot.services.clock_watch.ClockWatch.watch`);
        ``publish(game_id, version)``, when given, announces the version again to the live views
        (:meth:`bot.services.saving.GameSaver.announce`, which never raises)."""
        self.store = store
        self.clock = clock
        self.watch = watch
        self.publish = publish
        self._started: OrderedDict[tuple[str, int], None] = OrderedDict()

    async def seen(self, game_id: str, version: int, record: GameRecord, sides: Collection[int]) -> float | None:
        """Record that the board of ``record`` (the game saved at ``version``, as it was drawn or sent) reached
        ``sides`` now: when the awaited player is among them and their clock waits, it starts counting.

        Returns: the time the awaited player's clock counts from (an earlier delivery's, when another worker or
        an earlier board recorded one), None when no clock of the record waits for these sides (or the record is
        older than the recorded mark).
        Raises: StoreUnavailableError (nothing is recorded: the caller retries, or the next delivery records it)."""
        clock = record.clock
        if clock is None or not clock.waiting or clock.began is None or clock.running not in sides:
            return None
        action = clock.action
        if (game_id, action) in self._started:
            return None
        at = self.clock()
        recorded = await self.store.mark_seen(game_id, action, at, deadline=clock.seen(action, at).deadline())
        if recorded is None:
            return None
        self._started[(game_id, action)] = None
        if len(self._started) > REMEMBERED:
            self._started.popitem(last=False)
        deadline = clock.seen(action, recorded).deadline()
        if deadline is not None and self.watch is not None:
            self.watch(game_id, deadline)
        if recorded == at and self.publish is not None:  # this call's mark: the live views show the clock running
            await self.publish(game_id, version)
        return recorded

    async def shown_in_app(self, game_id: str, version: int, record: GameRecord, side: int) -> bool:
        """Record that the Mini App showed player ``side`` the version ``version`` of the game (see :meth:`seen`).
        Never raises: a store that cannot be reached is logged, and the app's next view records it.
        Returns: whether that player's clock counts now (it started with this view or before)."""
        try:
            return await self.seen(game_id, version, record, (side,)) is not None
        except StoreUnavailableError as error:
            log.warning("the start of a clock in game %s is not recorded (%s)", game_id, error)
            return False
