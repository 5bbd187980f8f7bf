"""The game service: one object the handlers talk to, composed of one module per job.

- :mod:`bot.services.actions` — people's actions: start, buttons, typed moves, rematch, /board, /resign;
- :mod:`bot.services.saving` — compare-and-set saves that carry what must follow them (boards, stats);
- :mod:`bot.services.boards` — board presentation, converging every board message to the saved version;
- :mod:`bot.services.timers` — the sweeper: boards left behind, reminders, timeouts, lost computer replies;
- :mod:`bot.services.computer` — the computer's replies, thought off the event loop.

Handlers call the ``GameService`` methods; they return the short text to show the user (a toast or a reply), or None
when the action was applied. Nothing a user sends raises out of here except store outages
(:class:`~bot.storage.errors.StoreUnavailableError`), which the error middleware turns into an apology. The
settings below are plain attributes, read by the parts at call time.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from aiogram.exceptions import TelegramAPIError
from aiogram.methods import SendMessage, SendPhoto, TelegramMethod
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, Message, ReplyParameters

from bot.keyboards.actions import GameAction
from bot.services.actions import MAX_OPTIONS_SHOWN, GameActions
from bot.services.boards import BoardPresenter, board_theme_of, winner_mark
from bot.services.captions import caption
from bot.services.computer import (
    MAX_COMPUTER_ACTIONS,
    ComputerFactory,
    ComputerTurns,
    computer_to_act,
    default_computer,
)
from bot.services.engine_flow import DiceFactory, load_match, system_dice
from bot.services.inline import InlineGames
from bot.services.messaging import DirectSender, MessageSender
from bot.services.players import (
    COMPUTER_ID,
    COMPUTER_LEVELS,
    COMPUTER_STATS_CHAT,
    PlayerInfo,
    computer_player,
    player_index,
)
from bot.services.ratings import apply_rating_plan
from bot.services.record import ChatLink, GameRecord, Kind, TournamentLink
from bot.services.render_pool import render_in_processes
from bot.services.saving import GameSaver
from bot.services.timers import Sweeper
from bot.services.tournament_service import TournamentService
from bot.storage import Store, StoredGame
from bot.texts import board_labels, board_title

if TYPE_CHECKING:
    from bot.jobs import JobQueue
from nardy import Match, NardyError, Options, Phase
from rendering import render_board

log = logging.getLogger(__name__)

Renderer = Callable[..., bytes]

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


class GameService:
    """Runs games for the handlers. One instance per bot process (it holds no game state itself)."""

    def __init__(
        self,
        store: Store,
        sender: MessageSender,
        *,
        dice: DiceFactory = system_dice,
        renderer: Renderer = render_board,
        board_width: int = 1280,
        turn_reminder_after: float = 6 * 3600.0,
        turn_timeout: float = 24 * 3600.0,
        finished_game_ttl: float = 30 * 24 * 3600.0,
        clock: Callable[[], float] = time.time,
        computer: ComputerFactory = default_computer,
        computer_delay: float = 1.0,
        computer_retry_after: float = 60.0,
        computer_processes: int = 1,
        render_processes: int = 0,
        board_retry_after: float = 20.0,
        max_games_per_user: int = 20,
        max_games_per_chat: int = 500,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        inline_secret: bytes | None = None,
        inline_storage_chat: int | None = None,
        invite_ttl: float = 86400.0,
    ) -> None:
        """Keep the collaborators: ``sender`` (the infra ``Sender``, or :class:`DirectSender` around a Bot).

        ``computer`` builds computer players; ``computer_delay`` (``BOT_MOVE_DELAY``) is the pause, slept with
        ``sleep``, before the computer's reply is shown; a computer turn still pending ``computer_retry_after``
        seconds after the last save (e.g. after a restart) is played by the timeout sweeper. ``computer_processes``
        worker processes think for the computer (0: a thread); ``render_processes`` worker processes draw the boards
        when ``renderer`` is the package's own (0: a thread; :mod:`bot.services.render_pool`).
        ``board_retry_after``: seconds after a save when the sweeper looks at boards the save left behind.
        ``max_games_per_user`` / ``max_games_per_chat``: caps on active games. ``inline_secret`` signs inline
        invitations (the same in every worker; None: a random one of this process), ``inline_storage_chat`` takes
        the uploads of inline boards, ``invite_ttl``: seconds an inline invitation can be joined
        (:mod:`bot.services.inline`)."""
        self.store = store
        self.sender = sender
        self.dice = dice
        self.renderer = renderer
        self.render_processes = render_processes
        self.board_width = board_width
        self.turn_reminder_after = turn_reminder_after
        self.turn_timeout = turn_timeout
        self.finished_game_ttl = finished_game_ttl
        self.clock = clock
        self.computer = computer
        self.computer_delay = computer_delay
        self.computer_retry_after = computer_retry_after
        self.board_retry_after = board_retry_after
        self.max_games_per_user = max_games_per_user
        self.max_games_per_chat = max_games_per_chat
        self.sleep = sleep
        self.saver = GameSaver(self)
        self.boards = BoardPresenter(self)
        self.actions = GameActions(self)
        self.sweeper = Sweeper(self)
        self.computer_turns = ComputerTurns(self, processes=computer_processes)
        self.jobs: JobQueue | None = None  # set when a job queue runs the background work (bot.jobs)
        self.tournaments = TournamentService(self)
        self.inline = InlineGames(
            self,
            secret=inline_secret if inline_secret is not None else secrets.token_bytes(32),
            storage_chat=inline_storage_chat,
            invite_ttl=invite_ttl,
        )

    # ------------------------------------------------------------------ telegram calls

    async def send(self, method: TelegramMethod[Any]) -> Any:
        """Send a method through the sender. Returns: its result. Raises: TelegramAPIError."""
        return await self.sender.send(method)

    async def edit(self, method: TelegramMethod[Any]) -> Any:
        """Send an edit through the sender; Telegram errors are logged, not raised. Returns: the result or None."""
        try:
            return await self.sender.edit(method)
        except (TelegramAPIError, RuntimeError, LookupError) as error:
            log.info("edit failed: %s", error)
            return None

    async def reply(
        self, message: Message, text: str, *, keyboard: InlineKeyboardMarkup | None = None, quote: bool = True
    ) -> None:
        """Send ``text`` to the message's chat through the sender (as a reply when ``quote``). Telegram errors are
        logged, not raised. Returns nothing."""
        method = SendMessage(
            chat_id=message.chat.id,
            text=text,
            reply_markup=keyboard,
            message_thread_id=message.message_thread_id if message.is_topic_message else None,
            reply_parameters=(
                ReplyParameters(message_id=message.message_id, allow_sending_without_reply=True) if quote else None
            ),
        )
        try:
            await self.send(method)
        except (TelegramAPIError, RuntimeError, LookupError) as error:
            log.info("reply failed: %s", error)

    @staticmethod
    def options_for(variant: str, chat_settings: dict[str, Any]) -> Options:
        """Return the rule options of a new game from the chat settings (``cube_long``: the cube in long nardy)."""
        if variant == "long" and chat_settings.get("cube_long"):
            return Options(cube=True)
        return Options()

    # ------------------------------------------------------------------ rendering

    async def render_photo(
        self, record: GameRecord, match: Match, viewer: int | None, lang: str, *, theme: str = "classic"
    ) -> bytes:
        """Return the board of the record as a JPEG seen by ``viewer`` (None: from the side to move) in ``theme``,
        a finished game's winner marked, rendered off the event loop. Raises: whatever the renderer raises."""
        game = match.game
        pending = list(record.pending_steps)
        mover = game.roller
        names = (record.players[0].name, record.players[1].name)
        kwargs: dict[str, Any] = {
            "mover": mover,
            "viewer": viewer,
            "dice": game.dice if game.phase is Phase.MOVE else None,
            "used_dice": [s.die for s in pending],
            "cube_value": game.cube_value,
            "cube_owner": game.cube_owner,
            "show_cube": game.cube_enabled,
            "pending_steps": pending or None,
            "names": names,
            "width": self.board_width,
            "labels": board_labels(lang),
            "title": board_title(lang, game.variant.name),
            "finished": game.phase is Phase.OVER,
            "theme": theme,
            **winner_mark(match, lang),
        }
        pool = game.pool
        if game.phase is Phase.MOVE and pool is not None and pool.dice[0] == pool.dice[1] and pool.count != 4:
            kwargs["dice_count"] = pool.count  # a Gul bara hand-over of fewer than four moves
        if not pending and game.last_move is not None:
            kwargs["last_move"] = game.last_move.steps
            kwargs["last_move_player"] = game.last_mover
        if match.length:
            kwargs["match_score"] = (int(match.score[0]), int(match.score[1]))
            kwargs["match_length"] = match.length
        position = game.position_for(mover)
        if self.render_processes > 0 and self.renderer is render_board:
            return await render_in_processes(self.render_processes, position, match.game.variant.name, **kwargs)
        return await asyncio.to_thread(self.renderer, position, match.game.variant.name, **kwargs)

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

    # ------------------------------------------------------------------ the end of a session

    async def after_finish(self, game_id: str, record: GameRecord) -> None:
        """Do what follows the end of a game session besides its stats, each step idempotent (the sweeper repeats
        this until it is done): rate the match (RULES.md §8) and record a tournament match's result.
        Returns nothing. Raises: StoreUnavailableError."""
        plan = record.extra.get("rating_plan")  # written by the finishing save (bot.services.saving)
        if isinstance(plan, dict):
            await apply_rating_plan(self.store, game_id, plan)
        if record.tournament is not None:
            await self.tournaments.match_finished(
                game_id, record.tournament.tournament_id, record.tournament.match_id, record
            )

    async def start_tournament_game(
        self,
        variant: str,
        length: int,
        players: Sequence[PlayerInfo],
        chats: Sequence[ChatLink],
        *,
        game_id: str,
        tournament: TournamentLink,
        kind: Kind,
    ) -> str | None:
        """Start the game of a tournament match under the id the tournament chose (idempotent), with no cap on
        the players' games. Returns: the game id. Raises: StoreUnavailableError."""
        return await self.actions.start_game(
            variant, length, players, chats, kind=kind, game_id=game_id, tournament=tournament, limits=False
        )

    async def end_match(self, game_id: str, loser: int) -> None:
        """End a game session as lost by ``loser`` (a tournament forfeit: the deadline passed or the player
        withdrew): the current game is abandoned and the session finished, whatever the match score. Nothing is
        counted in the stats (a forfeit is not a result, RULES.md §8). Idempotent. Returns nothing.

        Raises: StoreUnavailableError."""
        for _ in range(10):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.finished or stored.quarantined:
                return
            record = GameRecord.from_stored(stored)
            match = load_match(record, game_id, self.dice)
            game = match.game
            if game.phase is not Phase.OVER:
                try:
                    game.abandon(loser)
                except NardyError:
                    return
            assert game.result is not None
            record.clear_turn()
            over = {"t": "over", **game.result.to_dict(), "score": list(match.score_after_game()), "forfeit": True}
            record.events = [over]
            record.match = match.to_dict()
            record.stats_plan = []
            record.turn_deadline = None
            record.extra["forfeit"] = loser
            version = await self.saver.write(
                game_id, stored.version, record, finished=True, wake=self.clock() + self.board_retry_after
            )
            if version is not None:
                self.boards.request(game_id)
                return

    async def show_board_to(self, game_id: str, user_id: int, lang: str) -> bool:
        """Send a picture of the game's board as it is now to the user's private chat (a spectator's look).

        Returns: whether it was sent (False when the game is gone or the bot may not write to the user)."""
        stored = await self.store.get_game(game_id)
        if stored is None:
            return False
        record = GameRecord.from_stored(stored)
        match = load_match(record, game_id, self.dice)
        theme = board_theme_of(await self.store.get_user_settings(user_id))
        photo = await self.render_photo(record, match, None, lang, theme=theme)
        try:
            await self.send(
                SendPhoto(
                    chat_id=user_id,
                    photo=BufferedInputFile(photo, filename="board.jpg"),
                    caption=caption(record, match, lang, game_id),
                )
            )
        except (TelegramAPIError, RuntimeError, LookupError) as error:
            log.info("board of %s not shown to %s: %s", game_id, user_id, error)
            return False
        return True

    # ------------------------------------------------------------------ time (bot.services.timers)

    async def sweep(self, now: float | None = None) -> int:
        """See :meth:`bot.services.timers.Sweeper.sweep`."""
        return await self.sweeper.sweep(now)

    async def recover(self) -> int:
        """At start-up: bring up to date every board a previous process left behind (its games' wake-up deadlines
        are at most ``board_retry_after`` ahead) and do whatever else is due. Returns: games handled."""
        return await self.sweeper.sweep(self.clock() + self.board_retry_after, limit=1000)

    # ------------------------------------------------------------------ the computer (bot.services.computer)

    @staticmethod
    def computer_to_act(record: GameRecord, match: Match) -> int | None:
        """Return the index of the computer player whose action the game awaits, or None."""
        return computer_to_act(record, match)

    def after_action(self, game_id: str, record: GameRecord, match: Match) -> None:
        """Wake the computer when the saved action leaves it to act. Returns nothing."""
        if computer_to_act(record, match) is not None:
            self.wake_computer(game_id)

    def wake_computer(self, game_id: str) -> None:
        """Have the computer reply in the game: a ``computer_turn`` job on the queue when there is one
        (:mod:`bot.jobs`), else :meth:`bot.services.computer.ComputerTurns.wake` in this process."""
        if self.jobs is not None:
            self.jobs.computer_turn(game_id, self.computer_delay)
        else:
            self.computer_turns.wake(game_id)

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
