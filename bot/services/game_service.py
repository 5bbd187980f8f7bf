"""The game service: the façade the handlers talk to, and the one place that assembles the game services.

Each part gets only the collaborators it needs, in its constructor (none of them knows this façade):

- :mod:`bot.services.actions` — people's actions: start, buttons, typed moves, rematch, /board, /resign, and the
  tournament's starting and forfeiting of matches;
- :mod:`bot.services.saving` — compare-and-set saves that carry what must follow them (boards, stats);
- :mod:`bot.services.boards` — board presentation, converging every board message to the saved version;
- :mod:`bot.services.timers` — the sweeper: boards left behind, reminders, timeouts, lost computer replies;
- :mod:`bot.services.computer` — the computer's replies, thought off the event loop;
- :mod:`bot.services.inline` — inline mode; :mod:`bot.services.tournament_service` — tournaments;
- :mod:`bot.services.session_end` — ratings and tournament results after a session;
- :class:`bot.services.messaging.Replies` — send, edit and reply through the sender.

They share one :class:`~bot.services.game_config.GameConfig` (dice, clock, timings, renderer; tests change its
fields through this façade's attributes of the same names) and one :class:`~bot.services.tasks.Scheduler` (the job
queue, when one runs the background work). Handlers call the ``GameService`` methods; they return the short text to
show the user (a toast or a reply), or None when the action was applied. Nothing a user sends raises out of here
except store outages (:class:`~bot.storage.errors.StoreUnavailableError`), which the error middleware turns into an
apology.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from typing import Any

from aiogram.methods import TelegramMethod
from aiogram.types import InlineKeyboardMarkup, Message

from bot.model.actions import GameAction
from bot.model.game import ChatLink, GameRecord, Kind, PlayerInfo, TournamentLink
from bot.services.actions import MAX_OPTIONS_SHOWN, GameActions
from bot.services.boards import BoardPresenter, render_photo
from bot.services.computer import (
    MAX_COMPUTER_ACTIONS,
    ComputerFactory,
    ComputerTurns,
    computer_to_act,
    default_computer,
)
from bot.services.engine_flow import options_for
from bot.services.game_config import GameConfig
from bot.services.inline import InlineGames
from bot.services.messaging import DirectSender, MessageSender, Replies
from bot.services.players import (
    COMPUTER_ID,
    COMPUTER_LEVELS,
    COMPUTER_STATS_CHAT,
    computer_player,
    player_index,
)
from bot.services.saving import GameSaver
from bot.services.session_end import SessionEnd
from bot.services.tasks import JobQueue, Scheduler
from bot.services.timers import Sweeper
from bot.services.tournament_service import TournamentService
from bot.storage import Store, StoredGame
from nardy import Match, Options

log = logging.getLogger(__name__)

__all__ = [
    "COMPUTER_ID",
    "COMPUTER_LEVELS",
    "COMPUTER_STATS_CHAT",
    "MAX_COMPUTER_ACTIONS",
    "MAX_OPTIONS_SHOWN",
    "ChatLink",
    "ComputerFactory",
    "DirectSender",
    "GameRecord",
    "GameService",
    "MessageSender",
    "PlayerInfo",
    "TournamentLink",
    "computer_player",
    "default_computer",
]


def _config_field(name: str) -> Any:
    """A façade attribute that reads and writes the field ``name`` of the shared :class:`GameConfig`."""

    def get(self: GameService) -> Any:
        return getattr(self.config, name)

    def set_(self: GameService, value: Any) -> None:
        setattr(self.config, name, value)

    return property(get, set_, doc=f"``GameConfig.{name}`` (shared by every part).")


class GameService:
    """Runs games for the handlers. One instance per bot process (it holds no game state itself)."""

    dice = _config_field("dice")
    clock = _config_field("clock")
    sleep = _config_field("sleep")
    renderer = _config_field("renderer")
    board_width = _config_field("board_width")
    render_processes = _config_field("render_processes")
    turn_reminder_after = _config_field("turn_reminder_after")
    turn_timeout = _config_field("turn_timeout")
    finished_game_ttl = _config_field("finished_game_ttl")
    computer = _config_field("computer")
    computer_delay = _config_field("computer_delay")
    computer_retry_after = _config_field("computer_retry_after")
    board_retry_after = _config_field("board_retry_after")
    max_games_per_user = _config_field("max_games_per_user")
    max_games_per_chat = _config_field("max_games_per_chat")

    def __init__(
        self,
        store: Store,
        sender: MessageSender,
        config: GameConfig,
        *,
        computer_processes: int = 1,
        inline_secret: bytes | None = None,
        inline_storage_chat: int | None = None,
        invite_ttl: float = 86400.0,
    ) -> None:
        """Build the parts on ``store``, ``sender`` (the infra ``Sender``, or :class:`DirectSender` around a Bot) and
        ``config`` (dice, clock, sleep, renderer, timings, caps; shared by every part, see
        :class:`~bot.services.game_config.GameConfig`). ``computer_processes`` worker processes think for the
        computer (0: a thread). ``inline_secret`` signs inline invitations (the same in every worker; None: a random
        one of this process), ``inline_storage_chat`` takes the uploads of inline boards, ``invite_ttl``: seconds an
        inline invitation can be joined (:mod:`bot.services.inline`)."""
        self.store = store
        self.sender = sender
        self.config = config
        self.scheduler = Scheduler()
        self.replies = Replies(sender)
        session_end = SessionEnd(store)
        self.boards = BoardPresenter(store, sender, self.config)
        self.saver = GameSaver(
            store, self.config, request_boards=self.boards.request, after_finish=session_end.after_finish
        )
        self.computer_turns = ComputerTurns(
            store, self.config, self.scheduler, self.saver.save, processes=computer_processes
        )
        self.actions = GameActions(store, sender, self.config, self.boards, self.saver, self.computer_turns)
        self.inline = InlineGames(
            store,
            sender,
            self.config,
            self.boards,
            self.actions.start_game,
            secret=inline_secret if inline_secret is not None else secrets.token_bytes(32),
            storage_chat=inline_storage_chat,
            invite_ttl=invite_ttl,
        )
        self.boards.connect(release=self.saver.release, inline=self.inline)
        self.sweeper = Sweeper(store, sender, self.config, self.boards, self.saver, self.computer_turns)
        self.tournaments = TournamentService(store, self.replies, self.config, self.scheduler, self.actions)
        session_end.tournaments = self.tournaments

    @property
    def jobs(self) -> JobQueue | None:
        """The job queue that runs the background work (:mod:`bot.jobs`), or None: in this process."""
        return self.scheduler.queue

    @jobs.setter
    def jobs(self, queue: JobQueue | None) -> None:
        self.scheduler.queue = queue

    # ------------------------------------------------------------------ telegram calls (Replies)

    async def send(self, method: TelegramMethod[Any]) -> Any:
        """See :meth:`bot.services.messaging.Replies.send`."""
        return await self.replies.send(method)

    async def edit(self, method: TelegramMethod[Any]) -> Any:
        """See :meth:`bot.services.messaging.Replies.edit`."""
        return await self.replies.edit(method)

    async def reply(
        self, message: Message, text: str, *, keyboard: InlineKeyboardMarkup | None = None, quote: bool = True
    ) -> None:
        """See :meth:`bot.services.messaging.Replies.reply`."""
        await self.replies.reply(message, text, keyboard=keyboard, quote=quote)

    @staticmethod
    def options_for(variant: str, chat_settings: dict[str, Any]) -> Options:
        """See :func:`bot.services.engine_flow.options_for`."""
        return options_for(variant, chat_settings)

    # ------------------------------------------------------------------ rendering

    async def render_photo(
        self, record: GameRecord, match: Match, viewer: int | None, lang: str, *, theme: str = "classic"
    ) -> bytes:
        """See :func:`bot.services.boards.render_photo`."""
        return await render_photo(self.config, record, match, viewer, lang, theme=theme)

    # ------------------------------------------------------------------ actions (bot.services.actions)

    async def start_game(
        self,
        variant: str,
        length: int,
        players: Sequence[PlayerInfo],
        chats: Sequence[ChatLink],
        *,
        kind: Kind,
        confirm: bool = False,
        options: Options | None = None,
        game_id: str | None = None,
        tournament: TournamentLink | None = None,
    ) -> str | None:
        """See :meth:`bot.services.actions.GameActions.start_game`."""
        return await self.actions.start_game(
            variant,
            length,
            players,
            chats,
            kind=kind,
            confirm=confirm,
            options=options,
            game_id=game_id,
            tournament=tournament,
        )

    async def press(
        self,
        game_id: str,
        version: int,
        action: GameAction,
        user_id: int,
        lang: str,
        *,
        chat_id: int | None = None,
        message_id: int | None = None,
    ) -> str:
        """See :meth:`bot.services.actions.GameActions.press`."""
        return await self.actions.press(game_id, version, action, user_id, lang, chat_id=chat_id, message_id=message_id)

    async def text_move(self, chat_id: int, user_id: int, text: str, lang: str) -> str | None:
        """See :meth:`bot.services.actions.GameActions.text_move`."""
        return await self.actions.text_move(chat_id, user_id, text, lang)

    async def find_game(self, chat_id: int, user_id: int) -> StoredGame | None:
        """See :meth:`bot.services.actions.GameActions.find_game`."""
        return await self.actions.find_game(chat_id, user_id)

    async def repost(self, chat_id: int, user_id: int, lang: str) -> str | None:
        """See :meth:`bot.services.actions.GameActions.repost`."""
        return await self.actions.repost(chat_id, user_id, lang)

    async def offer_resign_menu(self, chat_id: int, user_id: int, lang: str) -> str | None:
        """See :meth:`bot.services.actions.GameActions.offer_resign_menu`."""
        return await self.actions.offer_resign_menu(chat_id, user_id, lang)

    @staticmethod
    def player_index(record: GameRecord, user_id: int) -> int | None:
        """Return 0 or 1 for a (human) player of the record, else None."""
        return player_index(record, user_id)

    async def show_board_to(self, game_id: str, user_id: int, lang: str) -> bool:
        """See :meth:`bot.services.boards.BoardPresenter.show_to`."""
        return await self.boards.show_to(game_id, user_id, lang)

    # ------------------------------------------------------------------ time (bot.services.timers)

    async def sweep(self, now: float | None = None) -> int:
        """See :meth:`bot.services.timers.Sweeper.sweep`."""
        return await self.sweeper.sweep(now)

    async def recover(self) -> int:
        """At start-up: bring up to date every board a previous process left behind (its games' wake-up deadlines
        are at most ``board_retry_after`` ahead) and do whatever else is due. Returns: games handled."""
        return await self.sweeper.sweep(self.config.clock() + self.config.board_retry_after, limit=1000)

    # ------------------------------------------------------------------ the computer (bot.services.computer)

    @staticmethod
    def computer_to_act(record: GameRecord, match: Match) -> int | None:
        """Return the index of the computer player whose action the game awaits, or None."""
        return computer_to_act(record, match)

    async def computer_reply(self, game_id: str) -> bool:
        """See :meth:`bot.services.computer.ComputerTurns.reply`."""
        return await self.computer_turns.reply(game_id)

    async def settle(self) -> None:
        """Wait until no computer reply and no board sync is running (for tests and a graceful shutdown).
        Returns nothing."""
        while self.computer_turns.running or self.boards.busy_any() or self.tournaments.busy():
            await self.computer_turns.settle()
            await self.boards.settle()
            await self.tournaments.settle()

    async def stop_computer(self) -> None:
        """Cancel the running computer replies and board syncs (the sweeper finishes them after a restart).
        Returns nothing."""
        await self.computer_turns.stop()
        await self.boards.stop()
        await self.tournaments.stop()
