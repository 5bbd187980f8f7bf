"""What people do to an arena: create it, join, leave, pause and come back. Each command is one compare-and-set
change of the record and returns the text to show (the toast: a refusal or a confirmation); what the change implies
(the card, a pairing wave, the pool) is left to the reconciler, which ``on_change`` asks to run. No Telegram here."""

from __future__ import annotations

from collections.abc import Callable

from bot.model.arena import MAX_PLAYERS, ArenaPlayer, ArenaRecord, ArenaSettings
from bot.model.game import PlayerInfo
from bot.services.arena.membership import MemberCheck
from bot.services.arena.records import ArenaChange, ArenaRecordKeeper
from bot.storage import RatingRecords
from bot.texts import tr


class ArenaActions:
    """The people's commands of the arenas (see the module docstring)."""

    def __init__(
        self,
        records: ArenaRecordKeeper,
        ratings: RatingRecords,
        clock: Callable[[], float],
        on_change: Callable[[str], None],
    ) -> None:
        """Change the arenas through ``records``; read the players' ratings in ``ratings``; on ``clock``; call
        ``on_change(arena_id)`` after every change that was saved (it has the arena reconciled)."""
        self.records = records
        self.ratings = ratings
        self.clock = clock
        self.on_change = on_change

    async def create(
        self,
        chat_id: int,
        organiser: PlayerInfo,
        settings: ArenaSettings,
        *,
        card_message_id: int | None = None,
        thread: int | None = None,
    ) -> str | None:
        """Start the chat's arena at once (it ends ``settings.minutes`` later), its card being ``card_message_id``
        (the tournament creation card, which becomes the arena's card; None: the reconciler posts one) in the forum
        topic ``thread``. Returns: the arena id, or None when the chat already has an unfinished tournament or arena.

        Raises: StoreUnavailableError; ArenaRecordError for settings out of range."""
        now = self.clock()
        record = ArenaRecord(
            chat_id=chat_id,
            organiser=organiser.id,
            settings=settings.checked(),
            lang=organiser.lang,
            thread=thread,
            created_at=now,
            ends_at=now + settings.minutes * 60.0,
            card_message_id=card_message_id,
        )
        arena_id = await self.records.create(record)
        if arena_id is not None:
            self.on_change(arena_id)
        return arena_id

    async def _act(self, arena_id: str, change: ArenaChange, lang: str, done: str) -> str:
        """Apply a person's action and have its effects shown. Returns: the toast — the refusal, "gone" when there
        is no such arena, else the text ``done``."""
        outcome = await self.records.mutate(arena_id, change)
        if isinstance(outcome, str):
            return outcome
        if outcome is None:
            return tr(lang, "arena.gone")
        self.on_change(arena_id)
        return tr(lang, done)

    async def join(self, arena_id: str, person: PlayerInfo, *, is_member: MemberCheck | None = None) -> str:
        """Add ``person`` to the arena (again, after leaving it: their score is still theirs); they are paired as
        soon as someone is free. ``is_member``: when given (a join through the Mini App, whose link anyone may have),
        the person must be a member of the arena's group, else they are refused. Returns: the toast. Raises:
        StoreUnavailableError."""
        loaded = await self.records.load(arena_id)
        if loaded is None:
            return tr(person.lang, "arena.gone")
        if is_member is not None and loaded[1].status == "running":
            member = await is_member(loaded[1].chat_id, person.id)
            if member is None:
                return tr(person.lang, "arena.member_unknown")
            if not member:
                return tr(person.lang, "arena.not_member")
        variant = loaded[1].settings.variant
        rating = float((await self.ratings.get_ratings(variant, [person.id]))[person.id].rating)
        now = self.clock()

        def change(record: ArenaRecord) -> ArenaRecord | str:
            if record.status != "running":
                return tr(person.lang, "arena.closed")
            player = record.player(person.id)
            if player is not None and not player.withdrawn:
                return tr(person.lang, "arena.already.paused" if player.paused else "arena.already")
            if player is not None:
                return record.with_player(person.id, withdrawn=False, paused=False, name=person.name)
            if len(record.players) >= MAX_PLAYERS:
                return tr(person.lang, "arena.full")
            joined = ArenaPlayer(person.id, person.name, person.lang, rating, now)
            return record.with_changes(players=(*record.players, joined))

        return await self._act(arena_id, change, person.lang, "arena.joined")

    async def leave(self, arena_id: str, user_id: int, lang: str) -> str:
        """Withdraw the person: not paired again (a game they are playing goes on and counts); their score stays.
        Returns: the toast. Raises: StoreUnavailableError."""

        def change(record: ArenaRecord) -> ArenaRecord | str:
            player = record.player(user_id)
            if record.status != "running":
                return tr(lang, "arena.closed")
            if player is None or player.withdrawn:
                return tr(lang, "arena.not_in")
            return record.with_player(user_id, withdrawn=True)

        return await self._act(arena_id, change, lang, "arena.left_it")

    async def pause(self, arena_id: str, user_id: int, lang: str) -> str:
        """Pause the person: not paired again until they come back (a game they are playing goes on). Returns: the
        toast. Raises: StoreUnavailableError."""

        def change(record: ArenaRecord) -> ArenaRecord | str:
            player = record.player(user_id)
            if record.status != "running":
                return tr(lang, "arena.closed")
            if player is None or player.withdrawn:
                return tr(lang, "arena.not_in")
            if player.paused:
                return tr(lang, "arena.paused.already")
            return record.with_player(user_id, paused=True)

        return await self._act(arena_id, change, lang, "arena.paused")

    async def resume(self, arena_id: str, user_id: int, lang: str) -> str:
        """Bring a paused person back: paired again as soon as someone is free. Returns: the toast. Raises:
        StoreUnavailableError."""

        def change(record: ArenaRecord) -> ArenaRecord | str:
            player = record.player(user_id)
            if record.status != "running":
                return tr(lang, "arena.closed")
            if player is None or player.withdrawn:
                return tr(lang, "arena.not_in")
            if not player.paused:
                return tr(lang, "arena.back.already")
            return record.with_player(user_id, paused=False)

        return await self._act(arena_id, change, lang, "arena.back")
