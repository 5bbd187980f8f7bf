"""The sweeper: everything that happens by time rather than by a press.

Every game whose wake-up deadline is due is looked at once per sweep, on its own (one failing game never stops the
others; a record that cannot be loaded is quarantined): boards that are behind their saved version are brought up
to date (after a crash, a shutdown or a failed edit), a finished game's effects are completed, a lost computer reply
is played, a person whose clock ran out loses the match on time (docs/rules.md §1 "Time control"; the safety net of
the clock's own wake-up, :mod:`bot.services.clock_watch`, after a restart or a lost job), and a person
who does not act is reminded once and then loses the game by timeout.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from aiogram.methods import SendMessage
from aiogram.types import ReplyParameters

from bot.log_context import bind_game
from bot.model.game import Event, GameRecord
from bot.services.boards import BoardPresenter
from bot.services.clocks import earliest, ran_out
from bot.services.computer import ComputerTurns, computer_to_act
from bot.services.engine_flow import advance, load_match
from bot.services.messaging import SEND_FAILURES, MessageSender
from bot.services.saving import GameSaver
from bot.storage import StoredGame
from bot.storage.errors import StoreUnavailableError
from bot.texts import tr
from nardy import NardyError

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig
    from bot.storage import GameRecords

log = logging.getLogger(__name__)


class Sweeper:
    """Handles due games (see the module docstring)."""

    def __init__(
        self,
        store: GameRecords,
        sender: MessageSender,
        config: GameConfig,
        boards: BoardPresenter,
        saver: GameSaver,
        computer: ComputerTurns,
    ) -> None:
        """Look at the due games of ``store`` with the clock, dice and timings of ``config``; bring boards up to date
        with ``boards``, write with ``saver``, have ``computer`` play a lost reply, remind through ``sender``."""
        self.store = store
        self.sender = sender
        self.config = config
        self.boards = boards
        self.saver = saver
        self.computer = computer

    async def sweep(self, now: float | None = None, *, limit: int = 100) -> int:
        """Handle every game whose wake-up deadline is at or before ``now``. Returns: how many were handled.

        Raises: StoreUnavailableError when the store cannot list the due games.
        """
        now = self.config.clock() if now is None else now
        handled = 0
        for game_id in await self.store.due_games(now, limit=limit):
            try:
                if await self.handle(game_id, now):
                    handled += 1
            except StoreUnavailableError:
                raise
            except Exception as error:
                log.exception("game %s cannot be handled by the sweeper: quarantined", game_id)
                try:
                    await self.store.quarantine_game(game_id, f"{type(error).__name__}: {error}"[:500])
                except StoreUnavailableError:
                    raise
        return handled

    async def handle(self, game_id: str, now: float) -> bool:
        """Do what a due game needs now. Returns: whether something was done.

        Raises: StoreUnavailableError; anything else means the record is broken (the caller quarantines it).
        """
        bind_game(game_id)
        stored = await self.store.get_game(game_id)
        if stored is None or stored.quarantined or stored.deadline is None or stored.deadline > now:
            return False
        if self.boards.busy(game_id):
            return False  # this process is updating the boards right now
        record = GameRecord.from_stored(stored)  # a record that cannot be read is quarantined
        if self.boards.behind(stored, record) or _clock_unstarted(record, now):
            load_match(record, game_id, self.config.dice)  # a record that cannot be loaded is quarantined
            await self.boards.sync(game_id)
            return True
        if stored.finished:
            await self.saver.release(stored, record)
            return True
        if ran_out(record, now):  # the running player's time ran out: the match is lost on time, once
            if await self.saver.lose_on_time(game_id, stored.version, record) is None:
                return False
            await self.boards.sync(game_id)
            return True
        turn_deadline = record.turn_deadline  # saved before the clock started, it may be later than the flag
        if turn_deadline is not None and turn_deadline > now:
            await self.saver.release(stored, record)
            return True
        match = load_match(record, game_id, self.config.dice)
        game = match.game
        if computer_to_act(record, match) is not None:
            self.computer.request(game_id)  # the computer's reply was lost (a restart, an error): play it now
            return True
        if not record.reminded:
            return await self._remind(stored, record, now)
        try:
            game.abandon(game.turn)
        except NardyError:
            log.warning("game %s is overdue but cannot be abandoned in phase %s", game_id, game.phase)
            await self.store.set_deadline(game_id, stored.version, None)
            return False
        events: list[Event] = []
        record.pending_steps = []
        advance(match, record, events)
        record.events = events
        if await self.saver.save(game_id, stored.version, record, match) is None:
            return False
        await self.boards.sync(game_id)  # the sweeper has time to wait for the final board
        return True

    async def _remind(self, stored: StoredGame, record: GameRecord, now: float) -> bool:
        match = load_match(record, stored.game_id, self.config.dice)
        turn = match.game.turn
        record.reminded = True
        last = now if record.last_action is None else record.last_action
        record.turn_deadline = earliest(max(now, last + self.config.turn_timeout), record)
        version = await self.saver.write(
            stored.game_id, stored.version, record, finished=False, wake=now + self.config.board_retry_after
        )
        if version is None:
            return False
        await self.boards.sync(stored.game_id)  # the buttons carry the version: the boards follow it
        player = record.players[turn]
        for chat in record.chats:
            if chat.viewer not in (None, turn):
                continue
            inline = chat.is_inline  # no chat to write to: the player's private chat, if it takes it
            message_id = None if inline else self.boards.current_message(stored, record, chat.chat_id)
            try:
                await self.sender.send(
                    SendMessage(
                        chat_id=player.id if inline else chat.chat_id,
                        message_thread_id=chat.thread,
                        text=tr(player.lang, "reminder", name=player.name),
                        reply_parameters=(
                            ReplyParameters(message_id=message_id, allow_sending_without_reply=True)
                            if message_id
                            else None
                        ),
                    )
                )
            except SEND_FAILURES as error:
                log.info("reminder failed: %s", error)
        return True


def _clock_unstarted(record: GameRecord, now: float) -> bool:
    """Return whether the awaited player's clock still waits for its board although the turn is not overdue: its
    board may have landed without the start being recorded (a crash in between, the store down), and a sync
    records it (:mod:`bot.services.clock_start`)."""
    clock = record.clock
    turn_deadline = record.turn_deadline
    return clock is not None and clock.waiting and turn_deadline is not None and turn_deadline > now
