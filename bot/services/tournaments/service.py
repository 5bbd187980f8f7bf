"""Group tournaments: registration, rounds, matches that start by themselves, results, forfeits and the final table.

Every change is one compare-and-set of the tournament record, which also sets the tournament's wake-up deadline a
few seconds ahead. What a change implies — starting the new matches, announcing them, posting results, updating the
standings picture, reminding late players, forfeiting matches at their deadline, closing the tournament — is done by
the reconciler from the saved record alone; it then moves the wake-up deadline to the next time something is due. A
crash anywhere leaves the deadline due, and the sweeper reconciles again (after a restart too), so everything
converges.

Exactly once where it matters: a match's result is recorded once (a result for a match that is no longer playable
is ignored, so a retried or concurrent report changes nothing); match games are created under ids made from the
tournament and match ids (a retried start creates the same game); the pure tournament pairs the next round from the
recorded results, the same way every time. Messages are sent at least once: a crash between a send and the save
that records it can repeat an announcement, never lose one.

:func:`build_tournaments` assembles the parts for the composition root, as :class:`Tournaments`:

- :attr:`~Tournaments.records` (:mod:`~bot.services.tournaments.records`): reads the records and changes them
  with compare-and-set, setting the wake-up deadline;
- :attr:`~Tournaments.registration` (:mod:`~bot.services.tournaments.registration`): the people's commands —
  open, join, leave, add a computer, cancel, start, withdraw — each returning the toast to show;
- :attr:`~Tournaments.reconciler` (:mod:`~bot.services.tournaments.reconcile`): the state machine, its keyed
  tasks or job-queue requests, the results of finished games and the sweep of due tournaments;
- :attr:`~Tournaments.messages` (:mod:`~bot.services.tournaments.messages`): everything said in the chats (the
  card, announcements, results, the standings picture, reminders, the bracket album, the closing text).

Pure helpers: :mod:`~bot.services.tournaments.rules`; texts and pictures: :mod:`~bot.services.tournaments.chat_views`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.keyboards.webapp import WebAppLinks
from bot.services.media import ChatMedia
from bot.services.messaging import Replies
from bot.services.preferences import Preferences
from bot.services.tasks import Scheduler
from bot.services.tournaments.messages import TournamentMessages
from bot.services.tournaments.reconcile import TournamentReconciler
from bot.services.tournaments.records import TournamentRecordKeeper
from bot.services.tournaments.registration import TournamentRegistration
from bot.storage import Store

if TYPE_CHECKING:
    from bot.services.actions import GameActions
    from bot.services.game_config import GameConfig


@dataclass(frozen=True, slots=True)
class Tournaments:
    """The tournaments of every chat, as their parts (see the module docstring). One per bot process."""

    records: TournamentRecordKeeper
    registration: TournamentRegistration
    reconciler: TournamentReconciler
    messages: TournamentMessages


def build_tournaments(
    store: Store,
    replies: Replies,
    config: GameConfig,
    scheduler: Scheduler,
    games: GameActions,
    *,
    batch_window: float = 3.0,
    retry_after: float | None = None,
    links: WebAppLinks | None = None,
    media: ChatMedia | None = None,
) -> Tournaments:
    """Return the tournaments' parts: records kept in ``store``, messages through ``replies``, the clock, sleep and
    computer players of ``config``, reconciling on the job queue of ``scheduler`` when it has one, the matches'
    games started and forfeited with ``games``. ``batch_window``: seconds to wait after a result before announcing
    it, so that results arriving together go out in one message; ``retry_after``: how soon after a save the sweeper
    looks again when the work it implies was not finished (default: ``config.board_retry_after``); ``links``: the
    Mini App's, for the button that opens a tournament there (None: not configured); ``media``: the chats that
    forbid the bot's pictures (:mod:`bot.services.media`; None: every picture is tried, a refused one goes as text)."""
    retry = config.board_retry_after if retry_after is None else retry_after
    records = TournamentRecordKeeper(store, config, retry_after=retry)
    messages = TournamentMessages(replies, links=links, media=media, preferences=Preferences(store))
    reconciler = TournamentReconciler(
        records,
        game_records=store,
        ratings=store,
        messages=messages,
        games=games,
        config=config,
        scheduler=scheduler,
        batch_window=batch_window,
    )
    registration = TournamentRegistration(records, store, config, on_change=reconciler.request)
    return Tournaments(records, registration, reconciler, messages)


__all__ = ["Tournaments", "build_tournaments"]
