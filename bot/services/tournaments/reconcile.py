"""The tournaments' state machine: from the saved record alone, do the first thing that is owed — update the card,
forfeit overdue matches, end their games, post results, start and announce matches, simulate computer matches,
update the standings picture, remind late players, close the tournament — note it in the record, and repeat; then
set the next wake-up. Also: a finished game's result (:meth:`TournamentReconciler.match_finished`), the requests to
reconcile (on the job queue or in a keyed task of this process) and the sweep of due tournaments.

See :mod:`bot.services.tournaments.service` for why this converges after a crash and what happens exactly once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from bot.model.game import ChatLink, GameRecord, PlayerInfo, TournamentLink
from bot.model.tournament import TournamentRecord
from bot.services.players import COMPUTER_ID
from bot.services.tasks import KeyedTasks, Scheduler
from bot.services.tournaments.messages import TournamentMessages
from bot.services.tournaments.records import TournamentRecordKeeper
from bot.services.tournaments.rules import both_computers, game_order, match_outcome, result_from_game
from bot.services.tournaments.sim import simulate_match
from bot.storage import GameRecords, RatingRecords
from bot.storage.errors import StoreUnavailableError
from nardy import Match as NardyMatch
from tournaments import Match, Result, Tournament, TournamentError, forfeit, tournament_to_dict

if TYPE_CHECKING:
    from bot.services.actions import GameActions
    from bot.services.game_config import GameConfig

log = logging.getLogger(__name__)

REGISTRATION_TTL: Final = 48 * 3600.0
"""A registration nobody starts is cancelled after this long."""
REMIND_AT: Final = 0.75
"""Players of a match still running after this share of the round deadline are reminded (once)."""
RECONCILE_PASSES: Final = 64
"""A bound on the steps of one :meth:`TournamentReconciler.reconcile` (each does one thing; a round of simulated
computer matches takes several, and a tournament stopping short of its end waits for the sweeper)."""


class TournamentReconciler:
    """Brings tournaments up to date with their records (see the module docstring)."""

    def __init__(
        self,
        records: TournamentRecordKeeper,
        game_records: GameRecords,
        ratings: RatingRecords,
        messages: TournamentMessages,
        games: GameActions,
        config: GameConfig,
        scheduler: Scheduler,
        *,
        batch_window: float = 3.0,
    ) -> None:
        """Read and change the tournaments through ``records``; look at the matches' games in ``game_records`` and
        the players' ratings in ``ratings``; talk to the chats through ``messages``; start and forfeit the matches'
        games with ``games``; with the clock, sleep and computer players of ``config``; reconcile on the job queue of
        ``scheduler`` when it has one. ``batch_window``: seconds to wait after a result before announcing it, so
        that results arriving together go out in one message."""
        self.records = records
        self.game_records = game_records
        self.ratings = ratings
        self.messages = messages
        self.games = games
        self.config = config
        self.scheduler = scheduler
        self.batch_window = batch_window
        self.tasks = KeyedTasks("tournament", sleep=lambda seconds: config.sleep(seconds))

    def clock(self) -> float:
        """Return the current time (the services' clock)."""
        return self.config.clock()

    # ================================================================== results

    async def match_finished(self, game_id: str, tournament_id: str, match_id: str, record: GameRecord) -> None:
        """Record the result of a tournament match whose game session has finished (idempotent: nothing changes
        when the match already has a result, e.g. a retry or a forfeit recorded first); a match lost on time is
        recorded as a forfeit by the player whose clock ran out. Returns nothing.

        Raises: StoreUnavailableError."""
        if record.forfeit is not None:
            return  # a forfeit: the tournament recorded it before ending the game
        flag = None if record.clock is None else record.clock.flag
        outcome = None if flag is not None else match_outcome(record.match)
        if flag is None and outcome is None:
            return

        def change(tour: TournamentRecord) -> TournamentRecord | None:
            if tour.status != "running":
                return None
            tournament = tour.tournament()
            match = next((m for m in tournament.playable() if m.id == match_id), None)
            if match is None or tour.games.get(match_id) != game_id:
                return None
            if flag is not None:  # lost on time: a forfeit by time (docs/rules.md §1 "Time control", §8)
                result = forfeit(match, game_order(tour, match)[flag])
            else:
                assert outcome is not None
                result = result_from_game(match, outcome, tour.settings.length)
            try:
                after = tournament.record(result)
            except TournamentError as error:
                log.warning("result of match %s of tournament %s refused: %s", match_id, tournament_id, error)
                return None
            return tour.with_changes(core=tournament_to_dict(after), outbox=(*tour.outbox, match_id))

        done = await self.records.mutate(tournament_id, change, wake=self.clock() + self.batch_window)
        if done is not None:
            self.request(tournament_id, delay=self.batch_window)

    # ================================================================== converging

    def request(self, tournament_id: str, *, delay: float = 0.0) -> None:
        """Have :meth:`reconcile` run for the tournament in the background: a ``tournament_reconcile`` job on the
        queue when there is one (:mod:`bot.jobs`), else :meth:`run_in_process`. Returns nothing."""
        queue = self.scheduler.queue
        if queue is not None:
            queue.tournament_reconcile(tournament_id, delay)
        else:
            self.run_in_process(tournament_id, delay=delay)

    def run_in_process(self, tournament_id: str, *, delay: float = 0.0) -> None:
        """Run :meth:`reconcile` for the tournament in a task of this process (once more if it is running now).
        Returns nothing."""
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
        for tournament_id in await self.records.due(now, limit=limit):
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
            loaded = await self.records.load(tournament_id)
            if loaded is None:
                return
            stored, record = loaded
            if not await self._step(tournament_id, record):
                wake = self._next_wake(record)
                await self.records.set_wake(tournament_id, stored.version, wake)
                return

    async def _step(self, tournament_id: str, record: TournamentRecord) -> bool:
        """Do the first thing that is owed; return whether something was changed (then the caller reads again)."""
        if record.status in ("registration", "cancelled"):
            if record.status == "registration" and self.clock() >= record.created_at + REGISTRATION_TTL:
                return await self.records.mutate(tournament_id, _expire(self.clock())) is not None
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
        retry_after = self.records.retry_after
        deadline = record.settings.deadline_seconds
        times: list[float] = []
        for match in record.tournament().playable():
            started = record.started.get(match.id)
            if started is None:
                return self.clock() + retry_after
            times.append(started + deadline)
            if match.id not in record.reminded:
                times.append(started + REMIND_AT * deadline)
        return min(times) if times else self.clock() + retry_after

    # ------------------------------------------------------------------ the card

    async def _sync_card(self, tournament_id: str, record: TournamentRecord) -> bool:
        key = await self.messages.sync_card(tournament_id, record)
        if key is None:
            return False
        return await self.records.mutate(tournament_id, lambda r: r.with_changes(card_shown=key)) is not None

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

        return await self.records.mutate(tournament_id, change) is not None

    async def _player_to_move(self, record: TournamentRecord, match: Match) -> str:
        """Return who loses a match that runs out of time: the player to move in its game (docs/rules.md §8)."""
        game_id = record.games.get(match.id)
        stored = None if game_id is None else await self.game_records.get_game(game_id)
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
            await self.records.mutate(
                tournament_id, lambda r: r.with_changes(ended=(*r.ended, *sorted(ids - set(r.ended))))
            )
            is not None
        )

    # ------------------------------------------------------------------ matches

    async def _play_computer_matches(
        self, tournament_id: str, record: TournamentRecord, tournament: Tournament
    ) -> bool:
        pending = [m for m in tournament.playable() if m.id in record.announced and both_computers(record, m)]
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
            recorded: list[str] = []
            for match_id in (mid for mid in results if mid in playable):
                try:
                    current = current.record(results[match_id])
                except TournamentError as error:  # as for a finished game's result: logged, never a crashed pass
                    log.warning("result of match %s of tournament %s refused: %s", match_id, tournament_id, error)
                    continue
                recorded.append(match_id)
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

        return await self.records.mutate(tournament_id, change) is not None

    async def _start_matches(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        """Start every playable match: note its start (its deadline runs from then) and, unless both players are
        computers (whose match is simulated), give it a game id; then create the games not created yet."""
        playable = tournament.playable()

        def unstarted(tour: TournamentRecord, match: Match) -> bool:
            return match.id not in tour.started or (not both_computers(tour, match) and match.id not in tour.games)

        if any(unstarted(record, m) for m in playable):
            now = self.clock()

            def change(tour: TournamentRecord) -> TournamentRecord | None:
                new = [m for m in tour.tournament().playable() if unstarted(tour, m)]
                if not new:
                    return None
                games = {
                    **tour.games,
                    **{m.id: tour.game_id_for(tournament_id, m.id) for m in new if not both_computers(tour, m)},
                }
                started = {**tour.started, **{m.id: now for m in new if m.id not in tour.started}}
                return tour.with_changes(games=games, started=started)

            return await self.records.mutate(tournament_id, change) is not None
        for match in playable:
            game_id = record.games.get(match.id)
            if game_id is not None and await self.game_records.get_game(game_id) is None:
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
            clock=record.settings.clock,
        )

    # ------------------------------------------------------------------ what the chats are told

    async def _announce(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        new = [m for m in tournament.playable() if m.id in record.started and m.id not in record.announced]
        if not new:
            return False
        await self.messages.announce(record, tournament, new)
        ids = {m.id for m in new}
        return (
            await self.records.mutate(
                tournament_id, lambda r: r.with_changes(announced=(*r.announced, *sorted(ids - set(r.announced))))
            )
            is not None
        )

    async def _post_results(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        if not record.outbox:
            return False
        await self.messages.post_results(record, tournament)
        sent = set(record.outbox)
        return (
            await self.records.mutate(
                tournament_id, lambda r: r.with_changes(outbox=tuple(m for m in r.outbox if m not in sent))
            )
            is not None
        )

    async def _sync_standings(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        key = f"{len(tournament.results)}:{len(tournament.withdrawn)}"
        if key == record.standings_shown:
            return False
        message_id = await self.messages.show_standings(tournament_id, record, tournament)
        return (
            await self.records.mutate(
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
        await self.messages.remind(record, late, deadline)
        ids = {m.id for m in late}
        return (
            await self.records.mutate(
                tournament_id, lambda r: r.with_changes(reminded=(*r.reminded, *sorted(ids - set(r.reminded))))
            )
            is not None
        )

    async def _finish(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> bool:
        if not tournament.is_over or record.outbox:
            return False
        people = {e.user_id: e.pid for e in record.entrants if e.user_id is not None}
        ratings = await self.ratings.get_ratings(record.settings.variant, list(people))
        after = {people[user]: float(rating.rating) for user, rating in ratings.items()}
        await self.messages.closing(record, tournament, after)
        now = self.clock()
        return (
            await self.records.mutate(
                tournament_id,
                lambda r: r.with_changes(status="finished", finished_at=now) if r.status == "running" else None,
                finished=True,
            )
            is not None
        )


def _expire(now: float) -> Callable[[TournamentRecord], TournamentRecord | None]:
    def change(record: TournamentRecord) -> TournamentRecord | None:
        if record.status != "registration":
            return None
        return record.with_changes(status="cancelled", finished_at=now)

    return change
