"""Board presentation: every board message converges to the game version saved in the store.

The store is the single source of truth. Beside each game it keeps, per chat, the board message and the version
that message last showed (:class:`~bot.storage.games.BoardState`, written without bumping the game's version).
A board is *behind* when its shown version is lower than the game's. :meth:`BoardPresenter.sync` renders the
current version for every board that is behind and edits it (or posts it when the chat has no board yet, or its
board can no longer be edited), then records what it showed. Saving a game therefore never has to reach Telegram
in the same breath: a crash, a SIGTERM, a 502 or a lost reply between the save and the edit leaves a board behind,
and the next sync — requested after every save, retried with backoff after a retryable failure, and run by the
sweeper for every game whose wake-up deadline passed (see :mod:`bot.services.saving`) — brings it up to date.

There is at most one board message per game and chat: a new one is posted only when there is none or the old one
cannot be edited, and a board that is replaced (``/board``) loses its keyboard. Syncs of one game run one at a
time in a process (a lock per game); requests arriving meanwhile are coalesced into one more sync. Across
processes (webhook workers on one store) the decision to post a new board is exclusive and recorded: the poster
first claims it in the store (:meth:`~bot.storage.games.GameRecords.claim_board`: granted only while the recorded
board message is still the one it saw, and while no other worker holds a live claim), and the sender checks the
claim again right before the ``sendPhoto`` is made (its *guard*), however long it waited in the queue; an edit is
likewise made only while its message is still the recorded board and nobody is replacing it. So a sweep that finds
a board behind while another worker's post or edit is still queued never posts a second board: its claim is
refused (it retries and then edits the recorded message), or, if the other worker's claim expired, it posts and
the other worker's queued photo is withdrawn.
"""

from __future__ import annotations

import asyncio
import html
import io
import logging
import secrets
from collections.abc import Awaitable, Callable
from functools import cache
from typing import TYPE_CHECKING, Any, Final, Protocol

from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.methods import EditMessageMedia, EditMessageReplyMarkup, SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, Message
from PIL import Image

from bot.keyboards.game import game_keyboard, over_keyboard
from bot.keyboards.turns import turn_buttons, turn_choices
from bot.keyboards.webapp import WebAppLinks, with_app_button
from bot.log_context import bind_game
from bot.model.game import ChatLink, GameRecord, is_private_chat
from bot.model.settings import ChatSettings, UserSettings
from bot.sender import Guard
from bot.services.captions import caption
from bot.services.engine_flow import load_match
from bot.services.messaging import SEND_FAILURES, MessageSender, chat_unreachable, message_gone
from bot.services.render_pool import render_in_processes
from bot.services.tasks import KeyedTasks
from bot.storage import GameRecords, SettingsRecords, StoredGame
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
BOARD_CLAIM_LEASE: Final = 15.0
"""Seconds a worker's claim to post a chat's new board lasts (:meth:`~bot.storage.games.GameRecords.claim_board`).
The poster renews it every third of that while its ``sendPhoto`` waits in the queue or is being made, and right
before the call; after a crash another worker may post the board once it has passed."""


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
    tournament match).

    In a group (``group``) a move is offered as whole-turn buttons whenever the turns left to choose from are few
    (:mod:`bot.keyboards.turns`), so that a turn costs one board edit; otherwise, and in private chats, as single
    steps."""
    game = match.game
    if game.phase is Phase.OVER and record.tournament is not None:
        return None  # a tournament match is not replayed: the tournament pairs the next one
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
    if not turn_rows:
        return keyboard
    return InlineKeyboardMarkup(inline_keyboard=[*turn_rows, *(keyboard.inline_keyboard if keyboard else [])])


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
        kwargs["match_score"] = (int(match.score[0]), int(match.score[1]))
        kwargs["match_length"] = match.length
    position = game.position_for(mover)
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
    ) -> bool:
        """Show the board on the inline message. Returns: whether it is shown (or can never be)."""
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
        self._locks: dict[str, asyncio.Lock] = {}
        self.tasks = KeyedTasks("nardy-board", sleep=lambda seconds: config.sleep(seconds))
        self.failures = 0
        """How many board syncs failed for a retryable reason (diagnostics)."""
        self.owner = secrets.token_hex(8)
        """This process's name in the store's board claims (:meth:`~bot.storage.games.GameRecords.claim_board`)."""

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
        """Edit (or post) every board of the game that is behind its saved version, then release the game's
        wake-up deadline (:meth:`GameSaver.release`).

        Returns: True when every board shows the saved version (or its chat can never be reached), False when a
        retryable failure (network, 5xx, 429 beyond the retries, a shutdown) left a board behind.
        Raises: StoreUnavailableError.
        """
        bind_game(game_id)
        async with self._lock(game_id):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.quarantined:
                return True
            try:
                record = GameRecord.from_stored(stored)  # a RecordError is a ValueError
                match = load_match(record, game_id, self.config.dice)
            except (ValueError, KeyError, TypeError):
                log.exception("game %s cannot be loaded to draw its board", game_id)
                return True
            results = await asyncio.gather(*(self._sync_chat(stored, record, match, chat) for chat in record.chats))
            watchers = [ChatLink(chat_id) for chat_id in spectators(stored, record)]
            # best effort: a spectator's board never holds the game's deadline (nor its players' boards) back
            await asyncio.gather(
                *(self._sync_chat(stored, record, match, chat, spectator=True) for chat in watchers),
                return_exceptions=True,
            )
            if not all(results):
                return False
        assert self.release is not None, "BoardPresenter.connect() was not called"
        await self.release(stored, record)
        return True

    async def _sync_chat(
        self, stored: StoredGame, record: GameRecord, match: Match, chat: ChatLink, *, spectator: bool = False
    ) -> bool:
        chat_id = chat.chat_id
        state = stored.boards.get(chat_id)
        message_id = state.message_id if state is not None else chat.message_id
        if state is not None and state.shown_version >= stored.version:
            return True
        lang = chat_lang(record, chat)
        text = caption(record, match, lang, stored.game_id)
        keyboard = (
            board_keyboard(record, match, stored.game_id, stored.version, lang, group=chat.is_shared)
            if keyboard_in_chat(record, match, chat) and not spectator
            else None
        )
        keyboard = self.with_app_button(keyboard, match, chat, stored.game_id, lang)
        theme = await board_theme(self.store, chat)
        photo = await self._photo(stored.game_id, record, match, chat.viewer, lang, theme)
        if chat.is_inline:
            inline = self.inline
            assert inline is not None, "BoardPresenter.connect() was not called"
            markup = inline.board_markup(record, match, stored.game_id, stored.version, lang, keyboard)
            return await inline.show_board(stored, record, match, chat, text, markup, photo or placeholder_photo())
        replaced = message_id
        try:
            if message_id is not None:
                try:
                    await self.sender.edit(
                        EditMessageMedia(
                            chat_id=chat_id,
                            message_id=message_id,
                            media=InputMediaPhoto(
                                media=BufferedInputFile(photo or placeholder_photo(), filename="board.jpg"),
                                caption=text,
                            ),
                            reply_markup=keyboard,
                        ),
                        guard=self._guard(stored.game_id, chat_id, message_id, lease=0.0),
                    )
                except TelegramAPIError as error:
                    if not message_gone(error):
                        raise
                    log.info("board %s in chat %s cannot be edited (%s): posting it anew", message_id, chat_id, error)
                    message_id = None
            if message_id is None:
                if not await self._claim(stored.game_id, chat_id, replaced):
                    log.info("board of game %s in chat %s is being posted by another worker", stored.game_id, chat_id)
                    return False
                sent = await self._post(
                    stored.game_id,
                    replaced,
                    SendPhoto(
                        chat_id=chat_id,
                        photo=BufferedInputFile(photo or placeholder_photo(), filename="board.jpg"),
                        message_thread_id=chat.thread,
                        caption=text,
                        reply_markup=keyboard,
                    ),
                )
                message_id = sent.message_id if isinstance(sent, Message) else None
        except TelegramAPIError as error:
            if chat_unreachable(error) or _permanent(error):
                log.warning("board of game %s in chat %s given up: %s", stored.game_id, chat_id, error)
                await self.store.set_board(stored.game_id, chat_id, message_id, stored.version)
                return True
            log.info("board of game %s in chat %s is behind (%s): will retry", stored.game_id, chat_id, error)
            return False
        except (asyncio.CancelledError, RuntimeError, LookupError) as error:
            if isinstance(error, asyncio.CancelledError) and _current_task_cancelling():
                raise
            log.info("board of game %s in chat %s was not sent (%r): will retry", stored.game_id, chat_id, error)
            return False
        await self.store.set_board(stored.game_id, chat_id, message_id, stored.version)
        return True

    async def _claim(
        self, game_id: str, chat_id: int, message_id: int | None, lease: float = BOARD_CLAIM_LEASE
    ) -> bool:
        """Claim (``lease`` > 0) or check (0) in the store the right to replace the chat's board ``message_id``
        (None: no board yet), for this process. Returns: whether it was granted. Raises: StoreUnavailableError."""
        return await self.store.claim_board(game_id, chat_id, message_id, self.owner, lease)

    def _guard(self, game_id: str, chat_id: int, message_id: int | None, lease: float = BOARD_CLAIM_LEASE) -> Guard:
        """Return the sender's guard of a board call: :meth:`_claim` again, right before the call is made."""

        async def guard() -> bool:
            return await self._claim(game_id, chat_id, message_id, lease)

        return guard

    async def _post(self, game_id: str, replaced: int | None, method: SendPhoto) -> object:
        """Send a new board (``method``) that replaces ``replaced`` under this process's claim (already granted):
        the claim is renewed while the photo waits and is sent, and checked again right before the call.
        Returns: the sent message. Raises: like the sender (SendWithdrawn when the claim was lost)."""
        chat_id = int(method.chat_id)
        renewal = asyncio.create_task(self._renew(game_id, chat_id, replaced), name=f"nardy-claim-{game_id}")
        try:
            return await self.sender.send(method, guard=self._guard(game_id, chat_id, replaced))
        finally:
            renewal.cancel()
            await asyncio.gather(renewal, return_exceptions=True)

    async def _renew(self, game_id: str, chat_id: int, replaced: int | None) -> None:
        """Renew this process's claim every third of its lease (on real time, as the store's clock is) until
        cancelled or lost. Returns nothing."""
        while True:
            await asyncio.sleep(BOARD_CLAIM_LEASE / 3)
            try:
                if not await self._claim(game_id, chat_id, replaced):
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
        off the old one. Returns: whether the new board was posted. Raises: StoreUnavailableError."""
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
            theme = await board_theme(self.store, chat)
            photo = await self._photo(game_id, record, match, chat.viewer, lang, theme)
            if not await self._claim(game_id, chat_id, old):
                log.info("the board of game %s in chat %s is being replaced by another worker", game_id, chat_id)
                return False
            try:
                sent = await self._post(
                    game_id,
                    old,
                    SendPhoto(
                        chat_id=chat_id,
                        photo=BufferedInputFile(photo or placeholder_photo(), filename="board.jpg"),
                        message_thread_id=chat.thread,
                        caption=caption(record, match, lang, game_id),
                        reply_markup=keyboard,
                    ),
                )
            except TelegramAPIError as error:
                log.info("reposting the board of game %s failed: %s", game_id, error)
                return False
            if not isinstance(sent, Message):
                return False
            await self.store.set_board(game_id, chat_id, sent.message_id, stored.version)
        if old is not None and old != sent.message_id:
            await self.strip_keyboard(chat_id, old)
        return True

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
        version."""
        for chat in record.chats:
            state = stored.boards.get(chat.chat_id)
            if state is None or state.shown_version < stored.version:
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


def _permanent(error: TelegramAPIError) -> bool:
    """Return True for Bot API refusals that a retry of the same request cannot cure (a 400 other than a gone
    message, e.g. a caption Telegram rejects)."""
    return isinstance(error, TelegramBadRequest)


def _current_task_cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
