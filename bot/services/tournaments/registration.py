"""What people do to a tournament: open its registration, join, leave, add a computer player, cancel, start, and
withdraw during play. Each command is one compare-and-set change of the record and returns the text to show (the
toast: a refusal or a confirmation); what the change implies (the card, the first round) is left to the reconciler,
which ``on_change`` asks to run. No Telegram here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.model.game import PlayerInfo
from bot.model.tournament import MIN_PLAYERS, PERSON_PREFIX, Entrant, TournamentRecord, TournamentSettings
from bot.services.tournaments.records import Change, TournamentRecordKeeper
from bot.services.tournaments.rules import build_tournament
from bot.storage import RatingRecords
from bot.texts import tr
from bot.variants import computer_plays
from tournaments import TournamentError, tournament_to_dict

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig

WITHDRAW_CONFIRM_WITHIN = 60.0
"""Seconds within which a second press of "withdraw" confirms the first."""


class TournamentRegistration:
    """The registration commands and the withdrawal (see the module docstring)."""

    def __init__(
        self,
        records: TournamentRecordKeeper,
        ratings: RatingRecords,
        config: GameConfig,
        on_change: Callable[[str], None],
    ) -> None:
        """Change the tournaments through ``records``; seed players with their ratings in ``ratings``; with the
        clock of ``config``; call ``on_change(tournament_id)`` after every change that was saved (it has the
        tournament reconciled)."""
        self.records = records
        self.ratings = ratings
        self.config = config
        self.on_change = on_change
        self._quit_pending: dict[tuple[str, int], float] = {}

    def clock(self) -> float:
        """Return the current time (the services' clock)."""
        return self.config.clock()

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
        record = TournamentRecord(
            chat_id=chat_id,
            organiser=organiser.id,
            settings=settings.checked(),
            lang=organiser.lang,
            card_message_id=card_message_id,
            created_at=self.clock(),
            thread=thread,
        )
        tournament_id = await self.records.create(record)
        if tournament_id is not None:
            self.on_change(tournament_id)
        return tournament_id

    async def _act(self, tournament_id: str, change: Change, lang: str, done: str) -> str:
        """Apply a person's action with :meth:`TournamentRecordKeeper.mutate` and have its effects shown. Returns:
        the toast — the refusal, "gone" when there is no such tournament, else the text ``done``."""
        outcome = await self.records.mutate(tournament_id, change)
        if isinstance(outcome, str):
            return outcome
        if outcome is None:
            return tr(lang, "tour.gone")
        self.on_change(tournament_id)
        return tr(lang, done)

    async def rating_of(self, variant: str, user_id: int) -> float:
        """Return the user's rating in ``variant``. Raises: StoreUnavailableError."""
        ratings = await self.ratings.get_ratings(variant, [user_id])
        return float(ratings[user_id].rating)

    async def join(self, tournament_id: str, person: PlayerInfo) -> str:
        """Add ``person`` to the registration. Returns: the toast to show. Raises: StoreUnavailableError."""
        loaded = await self.records.load(tournament_id)
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
        """Take the person off the registration. Returns: the toast to show. Raises: StoreUnavailableError."""

        def change(record: TournamentRecord) -> TournamentRecord | str:
            if record.status != "registration":
                return tr(lang, "tour.closed")
            if record.person(user_id) is None:
                return tr(lang, "tour.not_in")
            return record.with_changes(entrants=tuple(e for e in record.entrants if e.user_id != user_id))

        return await self._act(tournament_id, change, lang, "tour.left")

    async def add_computer(self, tournament_id: str, user_id: int, level: str, lang: str, *, admin: bool) -> str:
        """Add a computer player of ``level`` (the organiser or an admin only). Returns: the toast to show.

        Raises: StoreUnavailableError."""

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
        """Cancel a tournament still in registration (the organiser or an admin). Returns: the toast to show.

        Raises: StoreUnavailableError."""

        def change(record: TournamentRecord) -> TournamentRecord | str:
            refusal = _registration_refusal(record, lang, user_id, admin=admin)
            if refusal is not None:
                return refusal
            return record.with_changes(status="cancelled", finished_at=self.clock())

        return await self._act(tournament_id, change, lang, "tour.cancelled")

    async def start(self, tournament_id: str, user_id: int, lang: str, *, admin: bool) -> str:
        """Close the registration and begin play (the organiser or an admin; at least two players). The players'
        current ratings seed the field. Returns: the toast to show. Raises: StoreUnavailableError."""
        loaded = await self.records.load(tournament_id)
        if loaded is None:
            return tr(lang, "tour.gone")
        people = [e.user_id for e in loaded[1].entrants if e.user_id is not None]
        ratings = await self.ratings.get_ratings(loaded[1].settings.variant, people)

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
        minute withdraws (every remaining match of theirs is lost by forfeit, docs/rules.md §8). Returns: the toast.

        Raises: StoreUnavailableError."""
        now = self.clock()
        key = (tournament_id, user_id)
        asked = self._quit_pending.pop(key, None)
        loaded = await self.records.load(tournament_id)
        if loaded is None:
            return tr(lang, "tour.gone")
        entrant = loaded[1].person(user_id)
        if loaded[1].status != "running" or entrant is None or not _may_withdraw(loaded[1], entrant.pid):
            return tr(lang, "tour.not_in")  # not playing, or already withdrawn or eliminated
        if asked is None or now - asked > WITHDRAW_CONFIRM_WITHIN:
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
