"""Board presentation: every board message converges to the game version saved in the store, and never goes back.

The store is the single source of truth. Beside each game it keeps, per chat, the board message and the version
that message shows (:class:`~bot.storage.games.BoardState`, written without bumping the game's version).
A board is *behind* when its shown version is lower than the game's. :meth:`BoardPresenter.sync` renders the
current version for every board that is behind and edits it (or posts it when the chat has no board yet, or its
board can no longer be edited), then records what it showed. Saving a game therefore never has to reach Telegram
in the same breath: a crash, a SIGTERM, a 502 or a lost reply between the save and the edit leaves a board behind,
and the next sync — requested after every save, retried with backoff after a retryable failure, and run by the
sweeper for every game whose wake-up deadline passed (see :mod:`bot.services.saving`) — brings it up to date.

Across processes (webhook workers on one store) every call about a chat's board is made under the chat's *board
lease* (:class:`BoardCall`, :meth:`~bot.storage.games.GameRecords.fence_board`), taken by the sender's guard right
before each attempt, however long the call waited in the queue: granted only while no other worker holds it, the
recorded board message is the one the call is about, and the call draws the game's saved version (and, for an edit,
one the board does not show yet). Its holder records what Telegram took (:meth:`BoardCall.landed`) and gives the
lease up. So two workers' edits of one board never overtake each other, a board only ever shows newer versions, and
the recorded state is what the chat shows (docs/architecture.md, "One board, many workers"). A board that is replaced
(a new message, ``/board``) is recorded as *stale* in the same step, and its keyboard is taken off (by the sweep
after a crash). A chat that takes no pictures (:mod:`bot.services.media`) gets its board as text, with the same
buttons. Syncs of one game run one at a time in a process (a lock per game); requests arriving meanwhile are
coalesced into one more sync.
"""

from __future__ import annotations

import asyncio
import enum
import html
import io
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from functools import cache
from typing import TYPE_CHECKING, Any, Final, Protocol

from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.methods import EditMessageMedia, EditMessageReplyMarkup, EditMessageText, SendMessage, SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, Message
from PIL import Image

from bot.keyboards.callbacks import game_button_data
from bot.keyboards.game import game_keyboard, over_keyboard
from bot.keyboards.lobby import lobby_over_keyboard
from bot.keyboards.turns import turn_buttons, turn_choices
from bot.keyboards.webapp import WebAppLinks, with_app_button
from bot.log_context import bind_game
from bot.model.actions import GameCommand
from bot.model.game import ChatLink, GameRecord, is_private_chat
from bot.model.settings import ChatSettings, UserSettings
from bot.sender import SendWithdrawn
from bot.services.captions import caption
from bot.services.clock_start import BOTH_SIDES, ClockStarts
from bot.services.engine_flow import drawn_position, load_match
from bot.services.media import ChatMedia, MediaMode, MediaVerdict, media_verdict
from bot.services.messaging import SEND_FAILURES, MessageSender, chat_gone, chat_unreachable, message_gone
from bot.services.render_pool import render_in_processes
from bot.services.tasks import KeyedTasks
from bot.services.text_boards import text_board
from bot.storage import BoardFence, GameRecords, SettingsRecords, StoredGame
from bot.storage.errors import StoreUnavailableError
from bot.texts import board_labels, board_title, tr
from bot.variants import game_name
from nardy import Match, Phase, Step
from nardy.cube import next_cube_value
from rendering import render_board, theme_names

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig

log = logging.getLogger(__name__)


class BoardStore(GameRecords, SettingsRecords, Protocol):
    """The storage roles the boards use: the games and their board entries, and the settings that choose a
    board's theme."""


RETRY_DELAYS: Final = (2.0, 5.0, 15.0, 45.0)
"""Seconds before the in-process retries of a sync that failed for a retryable reason (then the sweeper)."""
BOARD_LEASE: Final = 45.0
"""Seconds a worker's lease on a chat's board lasts (:meth:`~bot.storage.games.GameRecords.fence_board`). It is
taken again right before every attempt of a board call and given up when Telegram has answered; a poster renews it
every third of that while its ``sendPhoto`` waits in the queue. Three times the request timeout of a board call
(``SenderLimits.guarded_call_timeout``), so a call this worker stopped waiting for has long reached Telegram (or
never will) before another worker may call about the same board; after a crash another worker calls once it has
lapsed."""
SYNC_ROUNDS: Final = 4
"""How many times in a row one sync draws a game's boards again when the game was saved while it drew them."""


class BoardStep(enum.Enum):
    """What a board call (or a chat's part of a sync) came to."""

    DONE = "done"
    """The chat shows the saved version (or can never be reached)."""
    RETRY = "retry"
    """Not now: a retryable failure, or another worker's call under way; the sync is retried (then the sweeper)."""
    AGAIN = "again"
    """The game was saved again (or the board replaced) meanwhile: draw it once more from the store."""


_REFUSALS: Final = {
    BoardFence.SHOWN: BoardStep.DONE,
    BoardFence.GONE: BoardStep.DONE,
    BoardFence.BUSY: BoardStep.RETRY,
    BoardFence.OUTDATED: BoardStep.AGAIN,
    BoardFence.MOVED: BoardStep.AGAIN,
}


class BoardCall:
    """One Bot API call about a chat's board (an edit, or a post of a new message replacing ``message_id``), made
    under the chat's board lease: :meth:`guard` (the sender's guard) takes the lease right before every attempt, for
    the game's current ``version`` only; :meth:`landed` records what the call made the chat show and gives the lease
    up; :meth:`give_up` gives it up after a failed call. See docs/architecture.md, "One board, many workers"."""

    def __init__(
        self,
        store: GameRecords,
        owner: str,
        game_id: str,
        chat_id: int,
        message_id: int | None,
        version: int,
        *,
        post: bool = False,
    ) -> None:
        """A call of worker ``owner`` drawing ``version`` of the game on ``message_id`` of ``chat_id`` (``post``: a new
        message replacing it; None: the chat has no board yet)."""
        self.store = store
        self.owner = owner
        self.game_id = game_id
        self.chat_id = chat_id
        self.message_id = message_id
        self.version = version
        self.post = post
        self.outcome: BoardFence | None = None
        """The store's last answer (None: no guard ran — the call was coalesced into a newer one)."""

    async def _fence(self, lease: float, *, version: int | None) -> BoardFence:
        self.outcome = await self.store.fence_board(
            self.game_id, self.chat_id, self.message_id, self.owner, lease, version=version, post=self.post
        )
        return self.outcome

    async def guard(self) -> bool:
        """Take the lease for this call now. Returns: whether it may be made. Raises: StoreUnavailableError (the
        sender then withdraws the call)."""
        return await self._fence(BOARD_LEASE, version=self.version) is BoardFence.GRANTED

    async def claim(self) -> bool:
        """Take the lease ahead of a post (renewed by :meth:`renew` while it waits). Returns: whether granted."""
        return await self.guard()

    async def renew(self) -> bool:
        """Renew the lease this call holds (no version check: the guard checks it). Returns: whether still held."""
        return await self._fence(BOARD_LEASE, version=None) is BoardFence.GRANTED

    def refused(self) -> BoardStep:
        """Return what a withdrawn call comes to, by the store's answer (an edit coalesced into a newer one, whose
        guard was not this call's, is drawn again)."""
        return BoardStep.AGAIN if self.outcome is None else _REFUSALS.get(self.outcome, BoardStep.AGAIN)

    async def landed(self, message_id: int) -> BoardStep:
        """Record that the call made the chat show ``message_id`` at this call's version and give the lease up.
        Returns: DONE, or AGAIN when the game was saved again meanwhile. Raises: StoreUnavailableError."""
        if self.outcome is not BoardFence.GRANTED:
            return BoardStep.AGAIN  # coalesced: the newer call that was made records what it showed
        saved = await self.store.land_board(self.game_id, self.chat_id, self.owner, message_id, self.version)
        return BoardStep.AGAIN if saved is not None and saved > self.version else BoardStep.DONE

    async def give_up(self) -> None:
        """Give the lease up after a call that showed nothing. Returns nothing. Raises: StoreUnavailableError."""
        if self.outcome is BoardFence.GRANTED:
            await self.store.land_board(self.game_id, self.chat_id, self.owner, self.message_id, None)


THEME_KEY: Final = "theme"
"""The key of the board theme in a user's settings (their private chats' boards) and a chat's (its boards)."""
THEMES: Final = theme_names()
"""The board themes to choose from, the default (classic) first."""


def known_theme(value: str | None) -> str:
    """Return the board theme a ``theme`` setting names (:attr:`UserSettings.theme` or :attr:`ChatSettings.theme`):
    the default, classic, when it is unset or no theme of the renderer's."""
    return value if isinstance(value, str) and value in THEMES else THEMES[0]


async def board_theme(store: SettingsRecords, chat: ChatLink) -> str:
    """Return the theme a chat's board is drawn in: a private chat's (whose id is its user's) in that user's theme,
    a group's in the group's theme chosen by its admins, an inline message's in the default.
    Raises: StoreUnavailableError."""
    if chat.is_inline:
        return THEMES[0]
    if chat.is_private:
        return known_theme(UserSettings.from_dict(await store.get_user_settings(chat.chat_id)).theme)
    return known_theme(ChatSettings.from_dict(await store.get_chat_settings(chat.chat_id)).theme)


def winner_mark(match: Match, lang: str) -> dict[str, Any]:
    """Return the renderer's ``winner`` and ``winner_label`` options for a finished game with a winner (the label
    says the points it won, e.g. "Победа: 2 оч."), or no options while it is played or after a draw."""
    game = match.game
    result = game.result
    if game.phase is not Phase.OVER or result is None or result.winner not in (0, 1):
        return {}
    label = html.unescape(str(tr(lang, "board.winner", points=f"{result.points:g}")))
    return {"winner": result.winner, "winner_label": label}


@cache
def placeholder_photo() -> bytes:
    """Return a small plain JPEG shown instead of a board the renderer failed to draw (so the board message, its
    caption and its keyboard still exist and can be edited later)."""
    buffer = io.BytesIO()
    Image.new("RGB", (640, 568), (96, 64, 40)).save(buffer, format="JPEG", quality=70)
    return buffer.getvalue()


def chat_lang(record: GameRecord, chat: ChatLink) -> str:
    """Return the language of a chat of the record (the chat's own, else its viewer's, else the first player's)."""
    if chat.lang:
        return chat.lang
    viewer = chat.viewer
    players = record.players
    index = viewer if viewer is not None and 0 <= viewer < len(players) else 0
    return players[index].lang if players else "ru"


def board_keyboard(
    record: GameRecord, match: Match, game_id: str, version: int, lang: str, *, group: bool = False
) -> InlineKeyboardMarkup | None:
    """Return the keyboard of the board at ``version``: the game's buttons, or the game-over buttons (none for a
    tournament match, the lobby's for a lobby game).

    In a group (``group``) a move is offered as whole-turn buttons whenever the turns left to choose from are few
    (:mod:`bot.keyboards.turns`), so that a turn costs one board edit; otherwise, and in private chats, as single
    steps."""
    game = match.game
    if game.phase is Phase.OVER and record.tournament is not None:
        return None  # a tournament match is not replayed: the tournament pairs the next one
    if game.phase is Phase.OVER and record.lobby is not None:
        return lobby_over_keyboard(game_id, lang)  # rematch by agreement, new opponent, block, report
    if game.phase is Phase.OVER:
        return over_keyboard(game_id, version, game_name(match), lang, computer=record.against_computer)
    pending = list(record.pending_steps)
    options: list[Step] = []
    complete = False
    turn_rows: list[list[InlineKeyboardButton]] = []
    if game.phase is Phase.MOVE:
        plan = game.plan()
        complete = bool(pending) and plan.is_complete(pending)
        choices = turn_choices(plan, pending) if group and not complete else None
        if choices:
            turn_rows = turn_buttons(choices, game_id, version)
        else:
            options = plan.next_steps(pending)
    keyboard = game_keyboard(
        game,
        game_id,
        version,
        lang,
        options=options,
        pending=pending,
        complete=complete,
        next_cube=next_cube_value(game.cube_value, game.options),
        undo=bool(pending) and record.chosen > 0,
    )
    rows = [*turn_rows, *(keyboard.inline_keyboard if keyboard else [])]
    if berserk_allowed(record, game.turn):
        data = game_button_data(game_id, version, GameCommand.BERSERK)
        rows.append([InlineKeyboardButton(text=tr(lang, "arena.btn.berserk"), callback_data=data)])
    elif not turn_rows:
        return keyboard
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def berserk_allowed(record: GameRecord, side: int) -> bool:
    """Return whether ``side`` may go berserk in the game: an arena game on a clock, a person, their first action
    of the session still to come (docs/rules.md "Arena")."""
    link, clock = record.tournament, record.clock
    if link is None or not link.arena or clock is None or side not in (0, 1) or record.players[side].ai:
        return False
    return clock.may_go_berserk(side)


def spectators(stored: StoredGame, record: GameRecord) -> list[int]:
    """Return the private chats watching the game: board entries of the store for chats the record does not show
    the game in (a Watch press adds one, :meth:`BoardPresenter.watch`)."""
    return [chat_id for chat_id in stored.boards if is_private_chat(chat_id) and record.chat(chat_id) is None]


def keyboard_in_chat(record: GameRecord, match: Match, chat: ChatLink) -> bool:
    """Return whether the chat's board carries buttons: when the game is over, and otherwise in the chat of the
    person whose action is awaited (a group's one board always, unless the computer is to act)."""
    game = match.game
    if game.phase is Phase.OVER:
        return True
    viewer = chat.viewer
    awaited = game.turn
    return (viewer is None or viewer == awaited) and not record.players[awaited].ai


async def render_photo(
    config: GameConfig, record: GameRecord, match: Match, viewer: int | None, lang: str, *, theme: str = "classic"
) -> bytes:
    """Return the board of the record as a JPEG seen by ``viewer`` (None: from the side to move) in ``theme``,
    a finished game's winner marked, rendered off the event loop with the renderer of ``config`` (in its render
    processes when it is the default renderer and ``config.render_processes`` > 0).
    Raises: whatever the renderer raises."""
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
        "width": config.board_width,
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
        over = game.phase is Phase.OVER
        score = match.score_after_game() if over else match.score  # a finished game counts, as in the caption
        kwargs["match_score"] = (int(score[0]), int(score[1]))
        kwargs["match_length"] = match.length
        kwargs["crawford"] = not over and bool(game.crawford) and game.variant.cube_enabled(game.options)
    position = drawn_position(record, match)  # the roller's frame, the pending steps played out
    if config.render_processes > 0 and config.renderer is render_board:
        return await render_in_processes(config.render_processes, position, match.game.variant.name, **kwargs)
    return await asyncio.to_thread(config.renderer, position, match.game.variant.name, **kwargs)


class InlineBoards(Protocol):
    """How the boards of inline games are shown (:class:`bot.services.inline.InlineGames`)."""

    def board_markup(
        self,
        record: GameRecord,
        match: Match,
        game_id: str,
        version: int,
        lang: str,
        keyboard: InlineKeyboardMarkup | None,
    ) -> InlineKeyboardMarkup | None:
        """Return the inline message's keyboard for the board."""
        ...

    async def show_board(
        self,
        stored: StoredGame,
        record: GameRecord,
        match: Match,
        chat: ChatLink,
        text: str,
        keyboard: InlineKeyboardMarkup | None,
        photo: bytes,
        board: BoardCall,
    ) -> BoardStep:
        """Show the board on the inline message under the lease of ``board``. Returns: what it came to."""
        ...


class BoardPresenter:
    """Renders boards and converges every board message of a game to its saved version."""

    def __init__(self, store: BoardStore, sender: MessageSender, config: GameConfig) -> None:
        """Read games from ``store``, send and edit through ``sender``, draw with the renderer, dice and timings of
        ``config`` (read at call time, so tests may swap them). :meth:`connect` adds the collaborators built after
        it (they need it first)."""
        self.store = store
        self.sender = sender
        self.config = config
        self.release: Callable[[StoredGame, GameRecord], Awaitable[None]] | None = None
        self.inline: InlineBoards | None = None
        self.links: WebAppLinks | None = None
        """The Mini App's address (``WEBAPP_URL``): boards then carry a button that opens it; None: no button."""
        self.media: ChatMedia | None = None
        """The groups that forbid the bot's pictures (their boards go as text); None: every board is a picture."""
        self.clock_starts: ClockStarts | None = None
        """Starts the awaited player's clock once a board of their action reached them
        (:mod:`bot.services.clock_start`); None: only the Mini App starts clocks (tests)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self.tasks = KeyedTasks("nardy-board", sleep=lambda seconds: config.sleep(seconds))
        self.failures = 0
        """How many board syncs failed for a retryable reason (diagnostics)."""
        self.owner = secrets.token_hex(8)
        """This process's name in the store's board leases (:meth:`~bot.storage.games.GameRecords.fence_board`)."""

    def connect(self, *, release: Callable[[StoredGame, GameRecord], Awaitable[None]], inline: InlineBoards) -> None:
        """Add the collaborators that need this presenter first: ``release`` (:meth:`GameSaver.release`, called
        once a game's boards are current) and ``inline`` (shows the boards of inline games). Returns nothing."""
        self.release = release
        self.inline = inline

    def with_app_button(
        self, keyboard: InlineKeyboardMarkup | None, match: Match, chat: ChatLink, game_id: str, lang: str
    ) -> InlineKeyboardMarkup | None:
        """Return the board's ``keyboard`` with the Mini App's button while the game runs: a ``web_app`` button in a
        private chat, a t.me link in a group or on an inline message (``keyboard`` as it is without the Mini App or
        once the game is over)."""
        if match.game.phase is Phase.OVER:
            return keyboard
        return with_app_button(keyboard, self.links, game_id, lang, private=chat.is_private)

    # ------------------------------------------------------------------ requests (background)

    def request(self, game_id: str) -> None:
        """Bring the game's boards up to date in a background task (one per game; a request while it runs makes
        it sync once more). Returns nothing."""
        self.tasks.request(game_id, self._converge)

    def busy(self, game_id: str) -> bool:
        """Return whether a sync of the game is running or waiting for a retry in this process."""
        return self.tasks.busy(game_id)

    def busy_any(self) -> bool:
        """Return whether any sync is running or waiting for a retry in this process."""
        return self.tasks.busy_any()

    async def _converge(self, game_id: str) -> None:
        attempt = 0
        while True:
            try:
                done = await self.sync(game_id)
            except StoreUnavailableError:
                done = False
            except Exception:
                log.exception("syncing the boards of game %s failed", game_id)
                done = False
            if done:
                return
            self.failures += 1
            if attempt >= len(RETRY_DELAYS):
                self.tasks.forget(game_id)
                return  # the sweeper takes over: the game's wake-up deadline stays due
            await self.config.sleep(RETRY_DELAYS[attempt])
            attempt += 1

    async def settle(self) -> None:
        """Wait until no sync is running (for tests and a graceful shutdown). Returns nothing."""
        await self.tasks.settle()

    async def stop(self) -> None:
        """Cancel the running syncs (the sweeper finishes them after a restart). Returns nothing."""
        await self.tasks.stop()

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            if len(self._locks) > 10_000:
                for key in [k for k, v in self._locks.items() if not v.locked()]:
                    del self._locks[key]
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ converging

    async def sync(self, game_id: str) -> bool:
        """Edit (or post) every board of the game that is behind its saved version, take the keyboards off its
        stale board messages, then release the game's wake-up deadline (:meth:`GameSaver.release`). A board drawn
        while the game was saved again is drawn once more (up to :data:`SYNC_ROUNDS` times in a row).

        Returns: True when every board shows the saved version (or its chat can never be reached), False when a
        retryable failure (network, 5xx, 429 beyond the retries, a shutdown, another worker's call under way) left
        a board behind.
        Raises: StoreUnavailableError.
        """
        bind_game(game_id)
        async with self._lock(game_id):
            for _ in range(SYNC_ROUNDS):
                stored = await self.store.get_game(game_id)
                if stored is None or stored.quarantined:
                    return True
                try:
                    record = GameRecord.from_stored(stored)  # a RecordError is a ValueError
                    match = load_match(record, game_id, self.config.dice)
                except (ValueError, KeyError, TypeError):
                    log.exception("game %s cannot be loaded to draw its board", game_id)
                    return True
                steps = await asyncio.gather(*(self._sync_chat(stored, record, match, chat) for chat in record.chats))
                watchers = [ChatLink(chat_id) for chat_id in spectators(stored, record)]
                # best effort: a spectator's board never holds the game's deadline (nor its players' boards) back
                await asyncio.gather(
                    *(self._sync_chat(stored, record, match, chat, spectator=True) for chat in watchers),
                    return_exceptions=True,
                )
                if BoardStep.RETRY in steps:
                    return False
                if BoardStep.AGAIN not in steps:
                    break
            else:
                return False  # saved again and again while drawing: the retry (or the sweeper) catches up
        assert self.release is not None, "BoardPresenter.connect() was not called"
        await self.release(stored, record)
        return True

    async def _sync_chat(
        self, stored: StoredGame, record: GameRecord, match: Match, chat: ChatLink, *, spectator: bool = False
    ) -> BoardStep:
        chat_id = chat.chat_id
        state = stored.boards.get(chat_id)
        message_id = state.message_id if state is not None else chat.message_id
        stripped = True
        if state is not None and state.stale:
            stripped = await self._strip_stale(stored.game_id, chat_id, state.stale)
        if state is not None and state.shown_version >= stored.version:
            if not spectator:
                await self._seen(stored, record, chat)
            return BoardStep.DONE if stripped else BoardStep.RETRY
        lang = chat_lang(record, chat)
        keyboard = (
            board_keyboard(record, match, stored.game_id, stored.version, lang, group=chat.is_shared)
            if keyboard_in_chat(record, match, chat) and not spectator
            else None
        )
        keyboard = self.with_app_button(keyboard, match, chat, stored.game_id, lang)
        if chat.is_inline:
            text = caption(record, match, lang, stored.game_id)
            photo = await self._photo(stored.game_id, record, match, chat.viewer, lang, THEMES[0])
            inline = self.inline
            assert inline is not None, "BoardPresenter.connect() was not called"
            markup = inline.board_markup(record, match, stored.game_id, stored.version, lang, keyboard)
            board = BoardCall(self.store, self.owner, stored.game_id, chat_id, message_id, stored.version)
            picture = photo or placeholder_photo()
            step = await inline.show_board(stored, record, match, chat, text, markup, picture, board)
        else:
            try:
                step = await self._show(stored, record, match, chat, message_id, keyboard, lang, repost=False)
            except TelegramAPIError as error:
                if not (chat_unreachable(error) or _permanent(error)):
                    log.info("board of game %s in chat %s is behind (%s): will retry", stored.game_id, chat_id, error)
                    return BoardStep.RETRY
                log.warning("board of game %s in chat %s given up: %s", stored.game_id, chat_id, error)
                await self.store.set_board(stored.game_id, chat_id, message_id, stored.version)
                if not chat_gone(error):
                    return BoardStep.DONE
                # a chat the players left or blocked counts as reached: their clocks are not held for ever
                step = BoardStep.DONE
            except (asyncio.CancelledError, RuntimeError, LookupError) as error:
                if isinstance(error, asyncio.CancelledError) and _current_task_cancelling():
                    raise
                log.info("board of game %s in chat %s was not sent (%r): will retry", stored.game_id, chat_id, error)
                return BoardStep.RETRY
        if step is BoardStep.DONE and not spectator:
            await self._seen(stored, record, chat)
        return step

    async def _seen(self, stored: StoredGame, record: GameRecord, chat: ChatLink) -> None:
        """The chat's board shows the saved version: start the clock of the awaited player when it reached them.
        Raises: StoreUnavailableError (the sync is retried, so the clock is started then)."""
        if self.clock_starts is not None:
            sides = BOTH_SIDES if chat.viewer is None else (chat.viewer,)
            await self.clock_starts.seen(stored.game_id, stored.version, record, sides)

    async def _show(
        self,
        stored: StoredGame,
        record: GameRecord,
        match: Match,
        chat: ChatLink,
        message_id: int | None,
        keyboard: InlineKeyboardMarkup | None,
        lang: str,
        *,
        repost: bool,
    ) -> BoardStep:
        """Show the saved version on the chat's board ``message_id`` (None: none yet), or on a new board replacing
        it when ``repost``: the picture, unless the chat takes no pictures (:mod:`bot.services.media`: then, or
        when this picture is refused, the board as text with the same keyboard). Returns: what it came to.
        Raises: TelegramAPIError (other failures), StoreUnavailableError."""
        mode = await self._media_mode(chat)
        if mode is not MediaMode.TEXT:
            theme = await board_theme(self.store, chat)
            photo = await self._photo(stored.game_id, record, match, chat.viewer, lang, theme)
            text = caption(record, match, lang, stored.game_id)
            try:
                step = await self._show_picture(stored, chat, message_id, text, keyboard, photo, repost=repost)
            except TelegramAPIError as error:
                verdict = media_verdict(error)
                if verdict is MediaVerdict.CHAT_FORBIDS:
                    log.info(
                        "chat %s takes no pictures: the board of game %s goes as text", chat.chat_id, stored.game_id
                    )
                    if self.media is not None:
                        await self.media.refused(chat.chat_id, lang=lang, thread=chat.thread)
                elif verdict is MediaVerdict.PICTURE_REFUSED:
                    log.info("the board of game %s was refused as a picture (%s): as text", stored.game_id, error)
                else:
                    raise
            else:
                if mode is MediaMode.RETRY and step is not BoardStep.RETRY and self.media is not None:
                    await self.media.accepted(chat.chat_id)
                return step
        return await self._show_text(stored, record, match, chat, message_id, keyboard, lang, repost=repost)

    async def _media_mode(self, chat: ChatLink) -> MediaMode:
        """Return whether the chat's board goes as a picture: groups may forbid the bot's media, private chats
        never do."""
        if self.media is None or not chat.is_shared or chat.is_inline:
            return MediaMode.PICTURES
        return await self.media.mode(chat.chat_id)

    async def _show_picture(
        self,
        stored: StoredGame,
        chat: ChatLink,
        message_id: int | None,
        text: str,
        keyboard: InlineKeyboardMarkup | None,
        photo: bytes | None,
        *,
        repost: bool,
    ) -> BoardStep:
        """Edit the board message to the picture (a text board becomes a picture too), or post it anew when there
        is none, it is gone, or ``repost``. Returns: what it came to. Raises: TelegramAPIError."""
        picture = BufferedInputFile(photo or placeholder_photo(), filename="board.jpg")
        if message_id is not None and not repost:
            media = InputMediaPhoto(media=picture, caption=text)
            edit = EditMessageMedia(chat_id=chat.chat_id, message_id=message_id, media=media, reply_markup=keyboard)
            step = await self._edit_board(stored, chat.chat_id, message_id, edit)
            if step is not None:
                return step
        method = SendPhoto(
            chat_id=chat.chat_id, photo=picture, message_thread_id=chat.thread, caption=text, reply_markup=keyboard
        )
        return await self._post_board(stored, chat.chat_id, message_id, method)

    async def _show_text(
        self,
        stored: StoredGame,
        record: GameRecord,
        match: Match,
        chat: ChatLink,
        message_id: int | None,
        keyboard: InlineKeyboardMarkup | None,
        lang: str,
        *,
        repost: bool,
    ) -> BoardStep:
        """Edit the board message to the board as text (:func:`~bot.services.text_boards.text_board`), or post it
        anew when there is none, it is gone or is a picture (a picture cannot become text), or ``repost``.
        Returns: what it came to. Raises: TelegramAPIError."""
        text = text_board(record, match, lang, stored.game_id)
        if message_id is not None and not repost:
            edit = EditMessageText(chat_id=chat.chat_id, message_id=message_id, text=text, reply_markup=keyboard)
            step = await self._edit_board(stored, chat.chat_id, message_id, edit)
            if step is not None:
                return step
        method = SendMessage(chat_id=chat.chat_id, text=text, message_thread_id=chat.thread, reply_markup=keyboard)
        return await self._post_board(stored, chat.chat_id, message_id, method)

    async def _edit_board(
        self, stored: StoredGame, chat_id: int, message_id: int, method: EditMessageMedia | EditMessageText
    ) -> BoardStep | None:
        """Edit the chat's board ``message_id`` with ``method`` under the chat's board lease. Returns: what it came
        to, or None when the message cannot take the edit (it is gone, or a picture cannot become text): a new
        board is to be posted. Raises: TelegramAPIError (the lease given up first), StoreUnavailableError."""
        edit = BoardCall(self.store, self.owner, stored.game_id, chat_id, message_id, stored.version)
        try:
            await self.sender.edit(method, guard=edit.guard)
        except SendWithdrawn:
            return edit.refused()
        except TelegramAPIError as error:
            await edit.give_up()
            if not (message_gone(error) or _no_text(error)):
                raise
            log.info("board %s in chat %s cannot be edited (%s): posting it anew", message_id, chat_id, error)
            return None
        return await edit.landed(message_id)

    async def _post_board(
        self, stored: StoredGame, chat_id: int, replaced: int | None, method: SendPhoto | SendMessage
    ) -> BoardStep:
        """Post a new board (``method``) replacing ``replaced`` (None: the chat has none) under the chat's board
        lease, record it, and take the old one's keyboard off. Returns: what it came to. Raises:
        TelegramAPIError (the lease given up first), StoreUnavailableError."""
        post = BoardCall(self.store, self.owner, stored.game_id, chat_id, replaced, stored.version, post=True)
        if not await post.claim():
            log.info("board of game %s in chat %s: not posted (%s)", stored.game_id, chat_id, post.outcome)
            return post.refused()
        try:
            sent = await self._post(post, method)
        except SendWithdrawn:
            return post.refused()
        except BaseException:
            await _quietly(post.give_up())
            raise
        if not isinstance(sent, Message):
            await post.give_up()
            return BoardStep.RETRY
        step = await post.landed(sent.message_id)
        if replaced is not None and replaced != sent.message_id:
            await self._strip_stale(stored.game_id, chat_id, (replaced,))
        return step

    async def _strip_stale(self, game_id: str, chat_id: int, stale: tuple[int, ...]) -> bool:
        """Take the keyboards off the chat's older board messages ``stale`` and forget each once it is gone (or the
        message cannot be edited any more). Returns: whether all of them are done (False: a retryable failure).
        Raises: StoreUnavailableError."""
        done = True
        for message_id in stale:
            try:
                await self.sender.edit(
                    EditMessageReplyMarkup(chat_id=chat_id, message_id=message_id, reply_markup=None)
                )
            except TelegramAPIError as error:
                if not (isinstance(error, TelegramBadRequest) or chat_unreachable(error)):  # gone, or uneditable
                    log.info("keyboard of old board %s in chat %s still there (%s)", message_id, chat_id, error)
                    done = False
                    continue
            except (RuntimeError, LookupError) as error:
                log.info("keyboard of old board %s in chat %s still there (%r)", message_id, chat_id, error)
                done = False
                continue
            await self.store.forget_stale(game_id, chat_id, message_id)
        return done

    async def _post(self, call: BoardCall, method: SendPhoto | SendMessage) -> object:
        """Send a new board (``method``) under ``call``'s lease (already granted): the lease is renewed while the
        photo waits and is sent, and taken again right before the call.
        Returns: the sent message. Raises: like the sender (SendWithdrawn when the lease was lost)."""
        renewal = asyncio.create_task(self._renew(call), name=f"nardy-lease-{call.game_id}")
        try:
            return await self.sender.send(method, guard=call.guard)
        finally:
            renewal.cancel()
            await asyncio.gather(renewal, return_exceptions=True)

    @staticmethod
    async def _renew(call: BoardCall) -> None:
        """Renew ``call``'s lease every third of its length (on real time, as the store's clock is) until
        cancelled or lost. Returns nothing."""
        while True:
            await asyncio.sleep(BOARD_LEASE / 3)
            try:
                if not await call.renew():
                    return  # another worker took it over: the guard withdraws our photo
            except StoreUnavailableError:
                continue

    async def _photo(
        self, game_id: str, record: GameRecord, match: Match, viewer: int | None, lang: str, theme: str
    ) -> bytes | None:
        """Return the rendered board (JPEG) in ``theme``, or None when the renderer failed (logged)."""
        try:
            return await render_photo(self.config, record, match, viewer, lang, theme=theme)
        except Exception:  # a renderer bug must not lose the board: the placeholder keeps caption and buttons
            log.exception("rendering the board of game %s failed", game_id)
            return None

    # ------------------------------------------------------------------ spectators

    async def show_to(self, game_id: str, user_id: int, lang: str) -> bool:
        """Send a picture of the game's board as it is now to the user's private chat (a spectator's look), in the
        user's board theme.

        Returns: whether it was sent (False when the game is gone or the bot may not write to the user)."""
        stored = await self.store.get_game(game_id)
        if stored is None:
            return False
        record = GameRecord.from_stored(stored)
        match = load_match(record, game_id, self.config.dice)
        theme = known_theme(UserSettings.from_dict(await self.store.get_user_settings(user_id)).theme)
        photo = await render_photo(self.config, record, match, None, lang, theme=theme)
        try:
            await self.sender.send(
                SendPhoto(
                    chat_id=user_id,
                    photo=BufferedInputFile(photo, filename="board.jpg"),
                    caption=caption(record, match, lang, game_id),
                )
            )
        except SEND_FAILURES as error:
            log.info("board of %s not shown to %s: %s", game_id, user_id, error)
            return False
        return True

    async def watch(self, game_id: str, user_id: int) -> str:
        """Have the user's private chat follow the game's board (a spectator: no buttons). Returns: ``"ok"``,
        ``"player"`` (the user plays it), ``"already"`` or ``"gone"``. Raises: StoreUnavailableError."""
        stored = await self.store.get_game(game_id)
        if stored is None or stored.finished or stored.quarantined:
            return "gone"
        record = GameRecord.from_stored(stored)
        if record.player_index(user_id) is not None or record.chat(user_id) is not None:
            return "player"
        if user_id in stored.boards:
            return "already"
        if not await self.store.set_board(game_id, user_id, None, 0):
            return "gone"
        self.request(game_id)
        return "ok"

    # ------------------------------------------------------------------ reposting and old boards

    async def repost(self, game_id: str, chat_id: int) -> bool:
        """Post the game's board anew at the bottom of the chat, make it the chat's board, and take the keyboard
        off the old one (recorded as stale first, so that a crash before it is gone leaves it to the sweeper).
        Returns: whether the new board was posted. Raises: StoreUnavailableError."""
        async with self._lock(game_id):
            stored = await self.store.get_game(game_id)
            if stored is None:
                return False
            record = GameRecord.from_stored(stored)
            chat = record.chat(chat_id)
            if chat is None:
                return False
            state = stored.boards.get(chat_id)
            old = state.message_id if state is not None else chat.message_id
            match = load_match(record, game_id, self.config.dice)
            lang = chat_lang(record, chat)
            keyboard = (
                board_keyboard(record, match, game_id, stored.version, lang, group=chat.is_shared)
                if keyboard_in_chat(record, match, chat)
                else None
            )
            keyboard = self.with_app_button(keyboard, match, chat, game_id, lang)
            await self._wake_soon(stored)  # a crash before the old board's keyboard is gone leaves it to the sweeper
            try:
                step = await self._show(stored, record, match, chat, old, keyboard, lang, repost=True)
            except TelegramAPIError as error:
                log.info("reposting the board of game %s failed: %s", game_id, error)
                return False
        if step is BoardStep.RETRY:
            log.info("the board of game %s in chat %s was not reposted", game_id, chat_id)
            return False
        self.request(game_id)  # draws what was saved meanwhile, and releases the wake-up once all is current
        return True

    async def resync(self, stored: StoredGame, chat_id: int, message_id: int, seen_version: int) -> bool:
        """Bring the chat's board up to date after a press showed that Telegram has it at ``seen_version`` (the
        version its keyboard carried): when the store believes it shows more, the store is corrected first
        (:meth:`~bot.storage.games.GameRecords.demote_board`: not while another worker's call is under way), then
        the game's boards are synced in the background. Returns: whether a sync was requested (the board is
        behind). Raises: StoreUnavailableError."""
        state = stored.boards.get(chat_id)
        behind = state is None or state.shown_version < stored.version
        if state is not None and state.message_id == message_id and seen_version < state.shown_version:
            behind = (
                await self.store.demote_board(stored.game_id, chat_id, message_id, seen_version, state.shown_version)
                or state.shown_version < stored.version
            )
        if behind:
            self.request(stored.game_id)
        return behind

    async def adopt(self, game_id: str, chat_id: int, message_id: int, seen_version: int) -> BoardFence:
        """Make a board message that a button was pressed on, newer than the chat's recorded board and unknown to
        the store (its poster died before recording it), the chat's board (see
        :meth:`~bot.storage.games.GameRecords.adopt_board`); the old one's keyboard is taken off by the next sync,
        requested here. Returns: the store's answer (GRANTED: adopted). Raises: StoreUnavailableError."""
        outcome = await self.store.adopt_board(game_id, chat_id, message_id, seen_version)
        if outcome is BoardFence.GRANTED:
            log.info("board message %s of game %s in chat %s was adopted", message_id, game_id, chat_id)
            stored = await self.store.get_game(game_id)
            if stored is not None:
                await self._wake_soon(stored)  # the old board's keyboard is the sweeper's after a crash
            self.request(game_id)
        return outcome

    async def _wake_soon(self, stored: StoredGame) -> None:
        """Bring the game's wake-up deadline forward to ``board_retry_after`` from now (unless it is due sooner),
        so that the sweeper finishes the board work begun here if this process dies; :meth:`sync` releases it.
        Returns nothing. Raises: StoreUnavailableError."""
        wake = self.config.clock() + self.config.board_retry_after
        if stored.deadline is None or stored.deadline > wake:
            await self.store.set_deadline(stored.game_id, stored.version, wake)

    async def strip_keyboard(self, chat_id: int, message_id: int) -> None:
        """Take the keyboard off a message that is no longer a current board (errors are logged). Returns
        nothing."""
        try:
            await self.sender.edit(EditMessageReplyMarkup(chat_id=chat_id, message_id=message_id, reply_markup=None))
        except (TelegramAPIError, RuntimeError, LookupError, asyncio.CancelledError) as error:
            if isinstance(error, asyncio.CancelledError) and _current_task_cancelling():
                raise
            log.info("cannot take the keyboard off message %s in chat %s: %s", message_id, chat_id, error)

    @staticmethod
    def behind(stored: StoredGame, record: GameRecord) -> bool:
        """Return whether some board of the game (``stored``, whose record is ``record``) does not show its saved
        version, or an older board message of a chat may still carry a keyboard."""
        for chat in record.chats:
            state = stored.boards.get(chat.chat_id)
            if state is None or state.shown_version < stored.version or state.stale:
                return True
        return False

    @staticmethod
    def current_message(stored: StoredGame, record: GameRecord, chat_id: int) -> int | None:
        """Return the id of the game's current board message in the chat (None when it has none)."""
        state = stored.boards.get(chat_id)
        if state is not None:
            return state.message_id
        chat = record.chat(chat_id)
        return chat.message_id if chat is not None else None


def _no_text(error: TelegramAPIError) -> bool:
    """Return True when an edit to text failed because the message is a picture (it cannot become text)."""
    return isinstance(error, TelegramBadRequest) and "no text in the message" in error.message.lower()


def _permanent(error: TelegramAPIError) -> bool:
    """Return True for Bot API refusals that a retry of the same request cannot cure (a 400 other than a gone
    message, e.g. a caption Telegram rejects)."""
    return isinstance(error, TelegramBadRequest)


async def _quietly(release: Coroutine[Any, Any, None]) -> None:
    """Await ``release`` (giving a lease up while another error is on its way), logging a store failure instead of
    raising it: the lease lapses by itself."""
    try:
        await release
    except StoreUnavailableError:
        log.info("a board lease could not be given up (it lapses)")


def _current_task_cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
