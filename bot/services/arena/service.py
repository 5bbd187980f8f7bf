"""Arenas in groups: a tournament of a fixed length where a player is paired again as soon as their game ends
(docs/rules.md "Arena"). See :mod:`bot.services.arena` for the modules and :mod:`bot.services.arena.reconcile` for
why everything converges after a crash and what happens exactly once.

:func:`build_arenas` assembles the parts for the composition root, as :class:`Arenas`; its methods are what the
handlers and the Mini App call: :meth:`Arenas.view` (the arena as a viewer sees it), :meth:`Arenas.version` (what
the Mini App's poll compares), and :meth:`Arenas.join`, :meth:`Arenas.leave`, :meth:`Arenas.pause`,
:meth:`Arenas.resume`, each returning the toast to show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.keyboards.webapp import WebAppLinks
from bot.model.arena import is_arena
from bot.model.game import PlayerInfo
from bot.services.arena.actions import ArenaActions
from bot.services.arena.membership import MemberCheck
from bot.services.arena.messages import ArenaMessages
from bot.services.arena.pairing import ArenaPairing, PairMaker
from bot.services.arena.reconcile import ArenaReconciler
from bot.services.arena.records import ArenaRecordKeeper
from bot.services.arena.view_model import ArenaView, arena_view
from bot.services.media import ChatMedia
from bot.services.messaging import Replies
from bot.services.preferences import Preferences
from bot.services.tasks import Scheduler
from bot.storage import Store

if TYPE_CHECKING:
    from bot.services.actions import GameActions
    from bot.services.game_config import GameConfig


@dataclass(frozen=True, slots=True)
class Arenas:
    """The arenas of every chat, as their parts (see the module docstring). One per bot process."""

    records: ArenaRecordKeeper
    actions: ArenaActions
    pairing: ArenaPairing
    reconciler: ArenaReconciler
    messages: ArenaMessages

    async def view(self, arena_id: str, viewer_id: int, lang: str | None = None) -> ArenaView | None:
        """Return the arena as ``viewer_id`` sees it (its words in ``lang``, default the arena's), or None when
        there is no such arena. Raises: StoreUnavailableError."""
        loaded = await self.records.load(arena_id)
        if loaded is None:
            return None
        record = loaded[1]
        return arena_view(arena_id, record, viewer_id, self.records.clock(), lang or record.lang)

    async def version(self, arena_id: str) -> int | None:
        """Return the stored version of the arena's record, which grows with every change its view shows (a join, a
        pause, a game started or ended, the end), or None when there is no such arena (or the id is a tournament's):
        the Mini App's poll compares it with the version the page shows before building a view. Raises:
        StoreUnavailableError."""
        stored = await self.records.store.get_tournament(arena_id)
        return None if stored is None or not is_arena(stored.data) else stored.version

    async def join(self, arena_id: str, user: PlayerInfo, *, is_member: MemberCheck | None = None) -> str:
        """Join the arena (:meth:`ArenaActions.join`; ``is_member``: the group's membership is checked first, for
        a join from the Mini App). Returns: the toast. Raises: StoreUnavailableError."""
        return await self.actions.join(arena_id, user, is_member=is_member)

    async def leave(self, arena_id: str, user: PlayerInfo) -> str:
        """Leave the arena (:meth:`ArenaActions.leave`). Returns: the toast. Raises: StoreUnavailableError."""
        return await self.actions.leave(arena_id, user.id, user.lang)

    async def pause(self, arena_id: str, user: PlayerInfo) -> str:
        """Pause in the arena (:meth:`ArenaActions.pause`). Returns: the toast. Raises: StoreUnavailableError."""
        return await self.actions.pause(arena_id, user.id, user.lang)

    async def resume(self, arena_id: str, user: PlayerInfo) -> str:
        """Come back after a pause (:meth:`ArenaActions.resume`). Returns: the toast. Raises:
        StoreUnavailableError."""
        return await self.actions.resume(arena_id, user.id, user.lang)


def build_arenas(
    store: Store,
    replies: Replies,
    config: GameConfig,
    scheduler: Scheduler,
    games: GameActions,
    matchmaker: PairMaker,
    *,
    retry_after: float | None = None,
    wave_delay: float = 2.0,
    links: WebAppLinks | None = None,
    media: ChatMedia | None = None,
) -> Arenas:
    """Return the arenas' parts: records kept in ``store`` (its tournaments and pairing pools), messages through
    ``replies``, the clock and sleep of ``config``, reconciling on the job queue of ``scheduler`` when it has one,
    games started with ``games``, pairs claimed with ``matchmaker``. ``retry_after``: how soon after a save the
    sweeper looks again when the work it implies was not finished (default: ``config.board_retry_after``);
    ``wave_delay``: seconds between a game's end and its pairing wave; ``links``: where the Mini App lives (the card
    opens the arena's live view there); ``media``: the chats that forbid the bot's pictures (the standings and the
    result go there as text; None: every picture is tried, and a refused one still goes out as text)."""
    retry = config.board_retry_after if retry_after is None else retry_after
    records = ArenaRecordKeeper(store, lambda: config.clock(), retry_after=retry)
    messages = ArenaMessages(replies, links, media=media, preferences=Preferences(store))
    pairing = ArenaPairing(records, store, matchmaker, store, games, lambda: config.clock())
    reconciler = ArenaReconciler(records, pairing, store, store, messages, config, scheduler, wave_delay=wave_delay)
    actions = ArenaActions(records, store, lambda: config.clock(), on_change=reconciler.request)
    return Arenas(records, actions, pairing, reconciler, messages)


__all__ = ["Arenas", "build_arenas"]
