"""Group tournaments: registration, rounds, matches that start by themselves, results, forfeits and the final table.

Every change is one compare-and-set of the tournament record (:meth:`TournamentService.mutate`), which also sets the
tournament's wake-up deadline a few seconds ahead. What a change implies — starting the new matches, announcing
them, posting results, updating the standings picture, reminding late players, forfeiting matches at their
deadline, closing the tournament — is done by :meth:`TournamentService.reconcile`, from the saved record alone; it
then moves the wake-up deadline to the next time something is due. A crash anywhere leaves the deadline due, and the
sweeper runs ``reconcile`` again (after a restart too), so everything converges.

Exactly once where it matters: a match's result is recorded once (a result for a match that is no longer playable
is ignored, so a retried or concurrent report changes nothing); match games are created under ids made from the
tournament and match ids (a retried start creates the same game); the pure tournament pairs the next round from the
recorded results, the same way every time. Messages are sent at least once: a crash between a send and the save
that records it can repeat an announcement, never lose one.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from aiogram.methods import EditMessageMedia, EditMessageText, GetMe, SendMediaGroup, SendMessage, SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto, ReplyParameters

from bot.keyboards.tournament import registration_keyboard
from bot.model.game import ChatLink, GameRecord, PlayerInfo, TournamentLink
from bot.model.tournament import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PERSON_PREFIX,
    Entrant,
    TournamentRecord,
    TournamentRecordError,
    TournamentSettings,
)
from bot.services import tournament_views as views
from bot.services.messaging import SEND_FAILURES, Replies
from bot.services.players import COMPUTER_ID
from bot.services.tasks import KeyedTasks, Scheduler
from bot.services.tournament_sim import simulate_match
from bot.storage import Store, StoredTournament
from bot.storage.errors import StoreUnavailableError
from bot.storage.ids import new_id
from bot.texts import tr
from bot.variants import computer_plays
from nardy import Match as NardyMatch
from tournaments import (
    Elimination,
    Match,
    Player,
    Result,
    Tournament,
    TournamentError,
    double_elimination,
    double_round_robin,
    forfeit,
    round_robin,
    single_elimination,
    swiss,
    tournament_to_dict,
)

if TYPE_CHECKING:
    from bot.services.actions import GameActions
    from bot.services.game_config import GameConfig

log = logging.getLogger(__name__)

REGISTRATION_TTL: Final = 48 * 3600.0
"""A registration nobody starts is cancelled after this long."""
REMIND_AT: Final = 0.75
"""Players of a match still running after this share of the round deadline are reminded (once)."""
MUTATE_ATTEMPTS: Final = 20
RECONCILE_PASSES: Final = 64
"""A bound on the steps of one :meth:`TournamentService.reconcile` (each does one thing; a round of simulated
computer matches takes several, and a tournament stopping short of its end waits for the sweeper)."""


class TournamentService:
    """Runs the tournaments of every chat (see the module docstring). One per bot process, beside the game service."""

    def __init__(
        self,
        store: Store,
        replies: Replies,
        config: GameConfig,
        scheduler: Scheduler,
        games: GameActions,
        *,
        batch_window: float = 3.0,
        retry_after: float | None = None,
    ) -> None:
        """Keep tournaments in ``store``, talk to the chats through ``replies``, with the clock, sleep and computer
        players of ``config``; reconcile on the job queue of ``scheduler`` when it has one; start and forfeit the
        matches' games with ``games``. ``batch_window``: seconds to wait after a result before announcing it, so
        that results arriving together go out in one message; ``retry_after``: how soon after a save the sweeper
        looks again when the work it implies was not finished (default: ``config.board_retry_after``)."""
        self.store = store
        self.replies = replies
        self.config = config
        self.scheduler = scheduler
        self.games = games
        self.batch_window = batch_window
        self.retry_after = config.board_retry_after if retry_after is None else retry_after
        self.tasks = KeyedTasks("tournament", sleep=lambda seconds: config.sleep(seconds))
        self._quit_pending: dict[tuple[str, int], float] = {}
        self._username: str | None = None

    def clock(self) -> float:
        """Return the current time (the services' clock)."""
        return self.config.clock()

    # ================================================================== reading and writing

    async def load(self, tournament_id: str) -> tuple[StoredTournament, TournamentRecord] | None:
        """Return the stored tournament and its record, or None when there is none.

        Raises: StoreUnavailableError; TournamentRecordError for a malformed record."""
        stored = await self.store.get_tournament(tournament_id)
        if stored is None:
            return None
        return stored, TournamentRecord.from_dict(stored.data)

    async def running_in(self, chat_id: int) -> tuple[StoredTournament, TournamentRecord] | None:
        """Return the chat's unfinished tournament, or None. Raises: StoreUnavailableError."""
        tournament_id = await self.store.chat_tournament(chat_id)
        return None if tournament_id is None else await self.load(tournament_id)

    async def last_in(self, chat_id: int) -> tuple[StoredTournament, TournamentRecord] | None:
        """Return the chat's most recently finished tournament that was played (not cancelled), or None."""
        for tournament_id in await self.store.chat_tournament_history(chat_id, limit=10):
            loaded = await self.load(tournament_id)
            if loaded is not None and loaded[1].status == "finished":
                return loaded
        return None

    async def mutate(
        self,
        tournament_id: str,
        change: Callable[[TournamentRecord], TournamentRecord | str | None],
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

    # ================================================================== registration

    async def open_registration(
        self,
        chat_id: int,
        organiser: PlayerInfo,
        settings: TournamentSettings,
        card_message_id: int | None,
        *,
        thread: int | None = None,
    ) -> str | None:
        """Create the chat's tournament in registration, its card being ``card_message_id`` (the creation card,
        which becomes the registration card); ``thread``: the forum topic its announcements, standings and group
        games go to (None: the chat's general thread). Returns: the tournament id, or None when the chat already has an
        unfinished tournament. Raises: StoreUnavailableError."""
        now = self.clock()
        record = TournamentRecord(
            chat_id=chat_id,
            organiser=organiser.id,
            settings=settings.checked(),
            lang=organiser.lang,
            card_message_id=card_message_id,
            created_at=now,
            thread=thread,
        )
        tournament_id: str | None = await self.store.create_tournament(
            chat_id, record.to_dict(), tournament_id=new_id(), deadline=now + self.retry_after
        )
        if tournament_id is not None:
            self.request(tournament_id)
        return tournament_id

    async def _act(
        self,
        tournament_id: str,
        change: Callable[[TournamentRecord], TournamentRecord | str | None],
        lang: str,
        done: str,
    ) -> str:
        """Apply a person's action with :meth:`mutate` and have its effects shown. Returns: the toast — the
        refusal, "gone" when there is no such tournament, else the text ``done``."""
        outcome = await self.mutate(tournament_id, change)
        if isinstance(outcome, str):
            return outcome
        if outcome is None:
            return tr(lang, "tour.gone")
        self.request(tournament_id)
        return tr(lang, done)

    async def rating_of(self, variant: str, user_id: int) -> float:
        """Return the user's rating in ``variant``. Raises: StoreUnavailableError."""
        ratings = await self.store.get_ratings(variant, [user_id])
        return float(ratings[user_id].rating)

    async def join(self, tournament_id: str, person: PlayerInfo) -> str:
        """Add ``person`` to the registration. Returns: the toast to show."""
        loaded = await self.load(tournament_id)
        if loaded is None:
            return tr(person.lang, "tour.gone")
        rating = await self.rating_of(loaded[1].settings.variant, person.id)

        def change(record: TournamentRecord) -> TournamentRecord | str:
            if record.status != "registration":
                return tr(person.lang, "tour.closed")
            if record.person(person.id) is not None:
                return tr(person.lang, "tour.already")
            if len(record.entrants) >= record.settings.limit:
                return tr(person.lang, "tour.full")
            entrant = Entrant(f"{PERSON_PREFIX}{person.id}", person.name, rating, person.id, None, person.lang)
            return record.with_changes(entrants=(*record.entrants, entrant))

        return await self._act(tournament_id, change, person.lang, "tour.joined")

    async def leave(self, tournament_id: str, user_id: int, lang: str) -> str:
        """Take the person off the registration. Returns: the toast to show."""

        def change(record: TournamentRecord) -> TournamentRecord | str:
            if record.status != "registration":
                return tr(lang, "tour.closed")
            if record.person(user_id) is None:
                return tr(lang, "tour.not_in")
            return record.with_changes(entrants=tuple(e for e in record.entrants if e.user_id != user_id))

        return await self._act(tournament_id, change, lang, "tour.left")

    async def add_computer(self, tournament_id: str, user_id: int, level: str, lang: str, *, admin: bool) -> str:
        """Add a computer player of ``level`` (the organiser or an admin only). Returns: the toast to show."""

        def change(record: TournamentRecord) -> TournamentRecord | str:
            refusal = _registration_refusal(record, lang, user_id, admin=admin)
            if refusal is not None:
                return refusal
            if len(record.entrants) >= record.settings.limit:
                return tr(lang, "tour.full")
            if not computer_plays(record.settings.variant):
                return tr(lang, "tour.no_computer", variant=tr(lang, f"variant.{record.settings.variant}"))
            pid = record.next_computer_pid()
            name = tr(record.lang, "tour.computer", level=tr(record.lang, f"level.{level}"), n=pid[1:])
            entrant = Entrant(pid, name, 1500.0, None, level, record.lang)
            return record.with_changes(entrants=(*record.entrants, entrant))

        return await self._act(tournament_id, change, lang, "tour.added")

    async def cancel(self, tournament_id: str, user_id: int, lang: str, *, admin: bool) -> str:
        """Cancel a tournament still in registration (the organiser or an admin). Returns: the toast to show."""

        def change(record: TournamentRecord) -> TournamentRecord | str:
            refusal = _registration_refusal(record, lang, user_id, admin=admin)
            if refusal is not None:
                return refusal
            return record.with_changes(status="cancelled", finished_at=self.clock())

        return await self._act(tournament_id, change, lang, "tour.cancelled")

    async def start(self, tournament_id: str, user_id: int, lang: str, *, admin: bool) -> str:
        """Close the registration and begin play (the organiser or an admin; at least two players). The players'
        current ratings seed the field. Returns: the toast to show."""
        loaded = await self.load(tournament_id)
        if loaded is None:
            return tr(lang, "tour.gone")
        people = [e.user_id for e in loaded[1].entrants if e.user_id is not None]
        ratings = await self.store.get_ratings(loaded[1].settings.variant, people)

        def change(record: TournamentRecord) -> TournamentRecord | str:
            refusal = _registration_refusal(record, lang, user_id, admin=admin)
            if refusal is not None:
                return refusal
            if len(record.entrants) < MIN_PLAYERS:
                return tr(lang, "tour.too_few", minimum=MIN_PLAYERS)
            entrants = tuple(
                replace(e, rating=float(ratings[e.user_id].rating)) if e.user_id in ratings else e
                for e in record.entrants
            )
            started = record.with_changes(entrants=entrants)
            core = build_tournament(started)
            before = {e.pid: e.rating for e in entrants if e.user_id is not None}
            return started.with_changes(status="running", core=tournament_to_dict(core), ratings_before=before)

        return await self._act(tournament_id, change, lang, "tour.started")

    async def withdraw(self, tournament_id: str, user_id: int, lang: str) -> str:
        """Withdraw the person from a running tournament: a first press asks to press again, a second one within a
        minute withdraws (every remaining match of theirs is lost by forfeit, docs/rules.md §8). Returns: the toast."""
        now = self.clock()
        key = (tournament_id, user_id)
        asked = self._quit_pending.pop(key, None)
        loaded = await self.load(tournament_id)
        if loaded is None:
            return tr(lang, "tour.gone")
        entrant = loaded[1].person(user_id)
        if loaded[1].status != "running" or entrant is None or not _may_withdraw(loaded[1], entrant.pid):
            return tr(lang, "tour.not_in")  # not playing, or already withdrawn or eliminated
        if asked is None or now - asked > 60.0:
            self._quit_pending[key] = now
            return tr(lang, "tour.quit.confirm")
        pid = entrant.pid

        def change(record: TournamentRecord) -> TournamentRecord | str:
            tournament = record.tournament()
            if tournament.is_over or pid in tournament.withdrawn:
                return tr(lang, "tour.not_in")
            decided = {r.match_id for r in tournament.results}
            try:
                after = tournament.withdraw(pid)
            except TournamentError:
                return tr(lang, "tour.not_in")  # eliminated meanwhile
            forfeited = tuple(r.match_id for r in after.results if r.match_id not in decided)
            return record.with_changes(core=tournament_to_dict(after), outbox=(*record.outbox, *forfeited))

        return await self._act(tournament_id, change, lang, "tour.quit.done")

    # ================================================================== results

    async def match_finished(self, game_id: str, tournament_id: str, match_id: str, record: GameRecord) -> None:
        """Record the result of a tournament match whose game session has finished (idempotent: nothing changes
        when the match already has a result, e.g. a retry or a forfeit recorded first). Returns nothing.

        Raises: StoreUnavailableError."""
        if record.forfeit is not None:
            return  # a forfeit: the tournament recorded it before ending the game
        outcome = match_outcome(record.match)
        if outcome is None:
            return

        def change(tour: TournamentRecord) -> TournamentRecord | None:
            if tour.status != "running":
                return None
            tournament = tour.tournament()
            match = next((m for m in tournament.playable() if m.id == match_id), None)
            if match is None or tour.games.get(match_id) != game_id:
                return None
            result = result_from_game(match, outcome, tour.settings.length)
            try:
                after = tournament.record(result)
            except TournamentError as error:
                log.warning("result of match %s of tournament %s refused: %s", match_id, tournament_id, error)
                return None
            return tour.with_changes(core=tournament_to_dict(after), outbox=(*tour.outbox, match_id))

        done = await self.mutate(tournament_id, change, wake=self.clock() + self.batch_window)
        if done is not None:
            self.request(tournament_id, delay=self.batch_window)

    # ================================================================== converging

    def request(self, tournament_id: str, *, delay: float = 0.0) -> None:
        """Have :meth:`reconcile` run for the tournament in the background: a ``tournament_reconcile`` job on the
        queue when there is one (:mod:`bot.jobs`), else :meth:`run_in_process`."""
        queue = self.scheduler.queue
        if queue is not None:
            queue.tournament_reconcile(tournament_id, delay)
        else:
            self.run_in_process(tournament_id, delay=delay)

    def run_in_process(self, tournament_id: str, *, delay: float = 0.0) -> None:
        """Run :meth:`reconcile` for the tournament in a task of this process (once more if it is running now)."""
        self.tasks.request(tournament_id, self._reconcile_logged, delay=delay)

    async def _reconcile_logged(self, tournament_id: str) -> None:
        try:
            await self.reconcile(tournament_id)
        except StoreUnavailableError:
            log.warning("store unavailable: tournament %s is left to the sweeper", tournament_id)
            self.tasks.forget(tournament_id)
        except Exception:
            log.exception("tournament %s could not be brought up to date (the sweeper retries)", tournament_id)
            self.tasks.forget(tournament_id)

    def busy(self) -> bool:
        """Return whether tournament work runs in the background."""
        return self.tasks.busy_any()

    async def settle(self) -> None:
        """Wait until no tournament work runs in the background (tests, shutdown). Returns nothing."""
        await self.tasks.settle()

    async def stop(self) -> None:
        """Cancel the background work (the sweeper finishes it after a restart). Returns nothing."""
        await self.tasks.stop()

    async def sweep(self, now: float | None = None, *, limit: int = 100) -> int:
        """Reconcile every tournament whose wake-up deadline is due. Returns: how many were handled.

        Raises: StoreUnavailableError when the due tournaments cannot be listed."""
        now = self.clock() if now is None else now
        handled = 0
        for tournament_id in await self.store.due_tournaments(now, limit=limit):
            if self.tasks.busy(tournament_id):
                continue
            try:
                await self.reconcile(tournament_id)
                handled += 1
            except StoreUnavailableError:
                raise
            except Exception:
                log.exception("tournament %s could not be brought up to date", tournament_id)
        return handled

    async def reconcile(self, tournament_id: str) -> None:
        """Do everything the saved record implies and is not done yet, then set the next wake-up. Returns nothing.

        Raises: StoreUnavailableError; TournamentRecordError for a broken record."""
        for _ in range(RECONCILE_PASSES):
            loaded = await self.load(tournament_id)
            if loaded is None:
                return
            stored, record = loaded
            if not await self._step(tournament_id, record):
                wake = self._next_wake(record)
                await self.store.set_tournament_deadline(tournament_id, stored.version, wake)
                return

    async def _step(self, tournament_id: str, record: TournamentRecord) -> bool:
        """Do the first thing that is owed; return whether something was changed (then the caller reads again)."""
        if record.status in ("registration", "cancelled"):
            if record.status == "registration" and self.clock() >= record.created_at + REGISTRATION_TTL:
                return await self.mutate(tournament_id, _expire(self.clock())) is not None
            return await self._sync_card(tournament_id, record)
        if record.status == "finished":
            return await self._sync_card(tournament_id, record)
        tournament = record.tournament()
        steps = (
            self._card_step,
            self._forfeit_overdue,
            self._end_forfeited_games,
            self._post_results,  # a round's last results go out before the next round's pairings
            self._start_matches,
            self._announce,
            self._play_computer_matches,  # after the round's announcement: their results follow it
            self._sync_standings,
            self._remind,
            self._finish,
        )
        for step in steps:
            if await step(tournament_id, record, tournament):
                return True
        return False

    async def _card_step(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        return await self._sync_card(tournament_id, record)

    def _next_wake(self, record: TournamentRecord) -> float | None:
        """Return when the tournament must be looked at next: a reminder, a deadline, the end of registration."""
        if record.status == "registration":
            return record.created_at + REGISTRATION_TTL
        if record.status != "running":
            return None
        deadline = record.settings.deadline_seconds
        times: list[float] = []
        for match in record.tournament().playable():
            started = record.started.get(match.id)
            if started is None:
                return self.clock() + self.retry_after
            times.append(started + deadline)
            if match.id not in record.reminded:
                times.append(started + REMIND_AT * deadline)
        return min(times) if times else self.clock() + self.retry_after

    # ------------------------------------------------------------------ the cards

    async def _sync_card(self, tournament_id: str, record: TournamentRecord) -> bool:
        if record.card_message_id is None:
            return False
        text = views.registration_text(record.lang, record)
        keyboard: InlineKeyboardMarkup | None = None
        if record.status == "registration":
            keyboard = registration_keyboard(
                tournament_id,
                record.lang,
                deep_link=await self._deep_link(tournament_id) if record.settings.venue == "private" else None,
                full=len(record.entrants) >= record.settings.limit,
            )
        key = _digest(text + (keyboard.model_dump_json() if keyboard else ""))
        if key == record.card_shown:
            return False
        await self.replies.edit(
            EditMessageText(chat_id=record.chat_id, message_id=record.card_message_id, text=text, reply_markup=keyboard)
        )
        return await self.mutate(tournament_id, lambda r: r.with_changes(card_shown=key)) is not None

    async def _deep_link(self, tournament_id: str) -> str | None:
        if self._username is None:
            try:
                me = await self.replies.send(GetMe())
            except SEND_FAILURES as error:
                log.info("getMe failed: %s", error)
                return None
            self._username = me.username or ""
        return f"https://t.me/{self._username}?start=t_{tournament_id}" if self._username else None

    # ------------------------------------------------------------------ forfeits

    async def _forfeit_overdue(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        now = self.clock()
        deadline = record.settings.deadline_seconds
        overdue = [
            m for m in tournament.playable() if m.id in record.started and record.started[m.id] + deadline <= now
        ]
        if not overdue:
            return False
        losers = {m.id: await self._player_to_move(record, m) for m in overdue}

        def change(tour: TournamentRecord) -> TournamentRecord | None:
            current = tour.tournament()
            playable = {m.id: m for m in current.playable()}
            recorded: list[str] = []
            for match_id, loser in losers.items():
                match = playable.get(match_id)
                if match is None:
                    continue
                current = current.record(forfeit(match, loser))
                recorded.append(match_id)
            if not recorded:
                return None
            return tour.with_changes(core=tournament_to_dict(current), outbox=(*tour.outbox, *recorded))

        return await self.mutate(tournament_id, change) is not None

    async def _player_to_move(self, record: TournamentRecord, match: Match) -> str:
        """Return who loses a match that runs out of time: the player to move in its game (docs/rules.md §8)."""
        game_id = record.games.get(match.id)
        stored = None if game_id is None else await self.store.get_game(game_id)
        if stored is not None and not stored.finished:
            turn = NardyMatch.from_dict(stored.data["match"]).game.turn
            order = game_order(record, match)
            if 0 <= turn < 2:
                return order[turn]
        return match.second

    async def _end_forfeited_games(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        forfeited = [
            r for r in tournament.results if r.forfeit and r.match_id in record.games and r.match_id not in record.ended
        ]
        if not forfeited:
            return False
        for result in forfeited:
            match = next(m for m, r in tournament.played() if r.match_id == result.match_id)
            assert result.winner is not None
            loser_index = game_order(record, match).index(match.opponent(result.winner))
            await self.games.end_match(record.games[result.match_id], loser_index)
        ids = {r.match_id for r in forfeited}
        return (
            await self.mutate(tournament_id, lambda r: r.with_changes(ended=(*r.ended, *sorted(ids - set(r.ended)))))
            is not None
        )

    # ------------------------------------------------------------------ matches

    async def _play_computer_matches(
        self, tournament_id: str, record: TournamentRecord, tournament: Tournament
    ) -> bool:
        pending = [m for m in tournament.playable() if m.id in record.announced and _both_computers(record, m)]
        if not pending:
            return False
        results: dict[str, Result] = {}
        for match in pending:
            first, second = record.entrant(match.first), record.entrant(match.second)
            assert first is not None and second is not None and first.level and second.level
            outcome = await asyncio.to_thread(
                simulate_match,
                record.settings.variant,
                record.settings.length,
                (first.level, second.level),
                f"{tournament_id}:{match.id}",
                self.config.computer,
            )
            winner = (match.first, match.second)[outcome.winner]
            length = record.settings.length
            results[match.id] = Result(match.id, winner, min(outcome.score[0], length), min(outcome.score[1], length))

        def change(tour: TournamentRecord) -> TournamentRecord | None:
            current = tour.tournament()
            playable = {m.id for m in current.playable()}
            recorded = [mid for mid in results if mid in playable]
            for match_id in recorded:
                current = current.record(results[match_id])
            if not recorded:
                return None
            now = self.clock()
            started = {**tour.started, **{mid: now for mid in recorded if mid not in tour.started}}
            return tour.with_changes(
                core=tournament_to_dict(current),
                outbox=(*tour.outbox, *recorded),
                started=started,
                announced=(*tour.announced, *recorded),
            )

        return await self.mutate(tournament_id, change) is not None

    async def _start_matches(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        """Start every playable match: note its start (its deadline runs from then) and, unless both players are
        computers (whose match is simulated), give it a game id; then create the games not created yet."""
        playable = tournament.playable()

        def unstarted(tour: TournamentRecord, match: Match) -> bool:
            return match.id not in tour.started or (not _both_computers(tour, match) and match.id not in tour.games)

        if any(unstarted(record, m) for m in playable):
            now = self.clock()

            def change(tour: TournamentRecord) -> TournamentRecord | None:
                new = [m for m in tour.tournament().playable() if unstarted(tour, m)]
                if not new:
                    return None
                games = {
                    **tour.games,
                    **{m.id: tour.game_id_for(tournament_id, m.id) for m in new if not _both_computers(tour, m)},
                }
                started = {**tour.started, **{m.id: now for m in new if m.id not in tour.started}}
                return tour.with_changes(games=games, started=started)

            return await self.mutate(tournament_id, change) is not None
        for match in playable:
            game_id = record.games.get(match.id)
            if game_id is not None and await self.store.get_game(game_id) is None:
                await self._create_game(tournament_id, record, match, game_id)
        return False

    async def _create_game(self, tournament_id: str, record: TournamentRecord, match: Match, game_id: str) -> None:
        order = game_order(record, match)
        entrants = [record.entrant(pid) for pid in order]
        players: list[PlayerInfo] = []
        for entrant in entrants:
            assert entrant is not None
            if entrant.is_computer:
                players.append(PlayerInfo(COMPUTER_ID, entrant.name, entrant.lang, entrant.level))
            else:
                assert entrant.user_id is not None
                players.append(PlayerInfo(entrant.user_id, entrant.name, entrant.lang))
        if record.settings.venue == "group":
            chats = [ChatLink(record.chat_id, None, thread=record.thread)]
        else:
            chats = [ChatLink(p.id, index) for index, p in enumerate(players) if not p.ai]
        await self.games.start_tournament_game(
            record.settings.variant,
            record.settings.length,
            players,
            chats,
            game_id=game_id,
            tournament=TournamentLink(tournament_id, match.id),
            kind="group" if record.settings.venue == "group" else "private",
        )

    # ------------------------------------------------------------------ messages

    async def _announce(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        new = [m for m in tournament.playable() if m.id in record.started and m.id not in record.announced]
        if not new:
            return False
        deadline = min(record.started[m.id] for m in new) + record.settings.deadline_seconds
        text = views.announcement(record.lang, record, tournament, new, deadline)
        await self._say(record.chat_id, text, thread=record.thread)
        if views.bracket_album_due(tournament, record.announced, new):
            await self.send_bracket(record.chat_id, record, tournament, record.lang, thread=record.thread)
        ids = {m.id for m in new}
        return (
            await self.mutate(
                tournament_id, lambda r: r.with_changes(announced=(*r.announced, *sorted(ids - set(r.announced))))
            )
            is not None
        )

    async def _post_results(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        if not record.outbox:
            return False
        played = {m.id: (m, r) for m, r in tournament.played()}
        lines = [views.result_line(record.lang, record, *played[mid]) for mid in record.outbox if mid in played]
        if lines:
            await self._say(record.chat_id, "\n".join(lines[: views.MAX_LISTED]), thread=record.thread)
        sent = set(record.outbox)
        return (
            await self.mutate(
                tournament_id, lambda r: r.with_changes(outbox=tuple(m for m in r.outbox if m not in sent))
            )
            is not None
        )

    async def _sync_standings(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        key = f"{len(tournament.results)}:{len(tournament.withdrawn)}"
        if key == record.standings_shown:
            return False
        photo = await asyncio.to_thread(views.standings_image, record.lang, record, tournament)
        caption = views.standings_caption(record.lang, record, tournament)
        file = BufferedInputFile(photo, filename="standings.jpg")
        message_id = record.standings_message_id
        if message_id is not None:
            edited = await self.replies.edit(
                EditMessageMedia(
                    chat_id=record.chat_id,
                    message_id=message_id,
                    media=InputMediaPhoto(media=file, caption=caption),
                )
            )
            if edited is None:
                message_id = None  # the message is gone or cannot be edited: post a new one
        if message_id is None:
            try:
                sent = await self.replies.send(
                    SendPhoto(chat_id=record.chat_id, photo=file, caption=caption, message_thread_id=record.thread)
                )
                message_id = sent.message_id
            except SEND_FAILURES as error:
                log.info("standings of tournament %s not posted: %s", tournament_id, error)
        return (
            await self.mutate(
                tournament_id, lambda r: r.with_changes(standings_shown=key, standings_message_id=message_id)
            )
            is not None
        )

    async def _remind(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        now = self.clock()
        deadline = record.settings.deadline_seconds
        late = [
            m
            for m in tournament.playable()
            if m.id in record.started
            and m.id not in record.reminded
            and record.started[m.id] + REMIND_AT * deadline <= now
        ]
        if not late:
            return False
        for match in late:
            due = views.deadline_text(record.lang, record.started[match.id] + deadline)
            for pid in (match.first, match.second):
                entrant = record.entrant(pid)
                if entrant is None or entrant.user_id is None:
                    continue
                text = tr(entrant.lang, "tour.remind", name=entrant.name, deadline=due)
                if record.settings.venue == "group":
                    await self._say(record.chat_id, text, thread=record.thread)
                else:
                    await self._say(entrant.user_id, text)
        ids = {m.id for m in late}
        return (
            await self.mutate(
                tournament_id, lambda r: r.with_changes(reminded=(*r.reminded, *sorted(ids - set(r.reminded))))
            )
            is not None
        )

    async def _finish(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        if not tournament.is_over or record.outbox:
            return False
        people = {e.user_id: e.pid for e in record.entrants if e.user_id is not None}
        ratings = await self.store.get_ratings(record.settings.variant, list(people))
        after = {people[user]: float(rating.rating) for user, rating in ratings.items()}
        # a reply to the live standings picture, which already shows the final table
        if isinstance(tournament, Elimination) and not views.standings_shows_bracket(tournament):
            # the final bracket, then the closing text (a reply to the live table)
            await self.send_bracket(record.chat_id, record, tournament, record.lang, thread=record.thread)
        final = views.final_text(record.lang, record, tournament, after)
        await self._say(record.chat_id, final, reply_to=record.standings_message_id, thread=record.thread)
        now = self.clock()
        return (
            await self.mutate(
                tournament_id,
                lambda r: r.with_changes(status="finished", finished_at=now) if r.status == "running" else None,
                finished=True,
            )
            is not None
        )

    async def send_bracket(
        self, chat_id: int, record: TournamentRecord, tournament: Tournament, lang: str, *, thread: int | None = None
    ) -> int:
        """Send the bracket of an elimination as an album (several pictures, each readable on a phone; more than
        ten go as further albums) or a photo (one picture); nothing for other formats. An album cannot be edited as
        one, so each call posts a new one: with the first announcement and the (grand) final's
        (:func:`~bot.services.tournament_views.bracket_album_due`), at the end, and on request (``/tournament``); the
        rounds between edit only the live table. Returns the number of pictures sent; Telegram errors are logged."""
        if not isinstance(tournament, Elimination):
            return 0
        pictures = await asyncio.to_thread(views.bracket_pictures, lang, record, tournament)
        caption = views.bracket_caption(lang, record)
        sent = 0
        try:
            for number, album in enumerate(views.album_chunks(pictures)):
                files = [BufferedInputFile(p, filename=f"bracket-{number}-{i}.jpg") for i, p in enumerate(album)]
                if len(files) == 1:
                    await self.replies.send(
                        SendPhoto(chat_id=chat_id, photo=files[0], caption=caption, message_thread_id=thread)
                    )
                else:
                    media: list[Any] = [
                        InputMediaPhoto(media=file, caption=caption if i == 0 else None) for i, file in enumerate(files)
                    ]
                    await self.replies.send(SendMediaGroup(chat_id=chat_id, media=media, message_thread_id=thread))
                sent += len(files)
        except SEND_FAILURES as error:
            log.info("bracket of a tournament not sent to %s: %s", chat_id, error)
        return sent

    async def _say(self, chat_id: int, text: str, *, reply_to: int | None = None, thread: int | None = None) -> None:
        reply = None if reply_to is None else ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
        try:
            await self.replies.send(
                SendMessage(chat_id=chat_id, text=text, reply_parameters=reply, message_thread_id=thread)
            )
        except SEND_FAILURES as error:
            log.info("tournament message to %s failed: %s", chat_id, error)


# ====================================================================== pure helpers


def build_tournament(record: TournamentRecord) -> Tournament:
    """Return the pure tournament of a record's settings and entrants (in joining order; the formats seed by
    rating where §8 says so). Raises: TournamentError for a field the format cannot take."""
    players = [Player(e.pid, e.rating) for e in record.entrants]
    settings = record.settings
    name = settings.format_name
    if name == "round_robin":
        return round_robin(players, length=settings.length)
    if name == "double_round_robin":
        return double_round_robin(players, length=settings.length)
    if name == "swiss":
        return swiss(players, rounds=views.swiss_rounds(settings, len(players)), length=settings.length)
    if name == "single_elimination":
        return single_elimination(players, length=settings.length)
    return double_elimination(players, length=settings.length)


def game_order(record: TournamentRecord, match: Match) -> tuple[str, str]:
    """Return the match's players in the order of its game's players (the first named player plays first)."""
    return match.first, match.second


def _registration_refusal(record: TournamentRecord, lang: str, user_id: int, *, admin: bool) -> str | None:
    """Return why the organiser's action ``user_id`` asks for cannot be done (registration closed, or neither the
    organiser nor an admin), or None when it can."""
    if record.status != "registration":
        return tr(lang, "tour.closed")
    if user_id != record.organiser and not admin:
        return tr(lang, "tour.organiser_only")
    return None


def _may_withdraw(record: TournamentRecord, pid: str) -> bool:
    """Return whether the player is still in the running tournament (not withdrawn, not eliminated)."""
    try:
        record.tournament().withdraw(pid)
    except TournamentError:
        return False
    return True


def _both_computers(record: TournamentRecord, match: Match) -> bool:
    return all((e := record.entrant(p)) is not None and e.is_computer for p in (match.first, match.second))


def match_outcome(match_data: dict[str, Any]) -> tuple[int, tuple[int, int]] | None:
    """Return (winner index, (points of player 0, points of player 1)) of a game session that is over, or None while
    it goes on or when it has no winner (a draw). Raises: NardyError for a match the engine cannot load."""
    match = NardyMatch.from_dict(match_data)
    result = match.game.result
    if result is None:
        return None
    winner = match.winner if match.length else result.winner
    if winner is None:
        return None
    a, b = match.score_after_game()
    return winner, (int(a), int(b))


def result_from_game(match: Match, outcome: tuple[int, tuple[int, int]], length: int) -> Result:
    """Return the tournament result of a match from its game's outcome (players in :func:`game_order`): the match
    score, each side's points counted up to the match length (a gammon on a doubled cube wins a match to 1 as
    1–0, as a match score is written)."""
    winner, (a, b) = outcome
    return Result(match.id, (match.first, match.second)[winner], min(a, length), min(b, length))


def _expire(now: float) -> Callable[[TournamentRecord], TournamentRecord | None]:
    def change(record: TournamentRecord) -> TournamentRecord | None:
        if record.status != "registration":
            return None
        return record.with_changes(status="cancelled", finished_at=now)

    return change


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]


__all__ = [
    "MAX_PLAYERS",
    "TournamentRecordError",
    "TournamentService",
    "build_tournament",
    "match_outcome",
]
