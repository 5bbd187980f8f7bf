"""Inline mode: ``@bot`` in any chat posts an invitation, and the game is played on that one inline message.

**Invitations.** An inline query is answered with articles ("short nardy", "long nardy", "short nardy, match to
5", …; a typed variant or length comes first). Choosing one posts, in the chat the query was typed in, a text
message with Join and Withdraw buttons. Nothing is stored for it: the invitation lives in the buttons' data
(:class:`~bot.keyboards.callbacks.InviteCb`), signed with an HMAC under the bot's secret, since a client can forge
the data of an inline message's buttons. An invitation expires after ``invite_ttl`` seconds.

**Joining.** The first other person to press Join starts the game. Its id is derived from the
``inline_message_id`` (:func:`inline_game_id`) and creation goes through a lease in the store (the claim of
:meth:`~bot.storage.updates.UpdateClaims.claim_update` under a negative key, which no Telegram update id takes), so two
people pressing at once start one game and a retry after a crash finds the game already there.

**The board.** The game has one "chat", a synthetic id of the inline message (:func:`inline_chat_id`, far below
every Telegram chat id, so it counts as a group: one board drawn from the side to move, whole-turn buttons),
with the ``inline_message_id`` in its :class:`~bot.model.game.ChatLink`. Telegram lets an inline message
take only a file already on its servers, so every board is uploaded once — to the operator's storage chat
(``INLINE_STORAGE_CHAT_ID``) when one is set, else to the private chat of a player who has started the bot, where
the upload is deleted at once — and the inline message is edited to that ``file_id``. When neither is possible the
board is drawn as text (:func:`nardy.textboard.draw_position`) in the message, and it turns into a picture at the
first board that can be uploaded. The store's board entry records the mode in its ``message_id``
(:data:`TEXT_BOARD` or :data:`PHOTO_BOARD`): a picture can never turn back into text.

Typed moves cannot reach an inline message, so the board carries a Resign button (it shows the resignation levels
on the same message, with Back) and, once the game is over, Rematch and a New game button that opens the inline
query again in the same chat.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.methods import DeleteMessage, EditMessageMedia, EditMessageReplyMarkup, EditMessageText, SendPhoto
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputMediaPhoto,
    InputTextMessageContent,
    Message,
    User,
)

from bot.commands import read_number
from bot.keyboards.callbacks import InviteCb, game_button_data
from bot.keyboards.game import resign_keyboard
from bot.model.actions import GameCommand
from bot.model.game import ChatLink, GameRecord, PlayerInfo
from bot.model.settings import UserSettings
from bot.sender import SendWithdrawn
from bot.services.boards import (
    BoardCall,
    BoardPresenter,
    BoardStep,
    board_keyboard,
    chat_lang,
    keyboard_in_chat,
)
from bot.services.engine_flow import load_match, options_for
from bot.services.messaging import SEND_FAILURES, MessageSender, chat_unreachable, message_gone
from bot.services.players import INLINE_STATS_CHAT
from bot.storage import GameRecords, SettingsRecords, StoredGame, UpdateClaims
from bot.texts import tr
from bot.variants import OFFERED, default_length, get_match_kind_games, resolve
from nardy import Match, Phase
from nardy.textboard import draw_position

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig

log = logging.getLogger(__name__)


class InlineStore(GameRecords, SettingsRecords, UpdateClaims, Protocol):
    """The storage roles inline mode uses: the games and their boards, the host's settings (the name an
    invitation shows) and the update claims that make a Join create its game once."""


INLINE_CHAT_BASE: Final = 2**52
"""Synthetic chat ids of inline messages lie in ``(-(INLINE_CHAT_BASE + 2**48), -INLINE_CHAT_BASE]``."""
TEXT_BOARD: Final = 0
"""The board entry's ``message_id`` while the inline message shows the board as text."""
PHOTO_BOARD: Final = 1
"""The board entry's ``message_id`` once the inline message shows the board as a picture."""
JOIN_LEASE: Final = 60.0
"""Seconds the store's lease on an invitation holds while a Join creates the game."""
UNREACHABLE_FOR: Final = 600.0
"""Seconds a player whose private chat refused an upload is not tried again for uploads."""
MAX_RESULTS: Final = 8
MAX_LENGTH: Final = 25
DEFAULT_OFFERS: Final[tuple[tuple[str, int], ...]] = (("short", 0), ("long", 0), ("short", 5), ("long", 3))


def _digest(*parts: str) -> bytes:
    return hashlib.sha256(":".join(parts).encode()).digest()


def inline_chat_id(inline_message_id: str) -> int:
    """Return the synthetic chat id of an inline message (negative, below every Telegram chat id)."""
    return -(INLINE_CHAT_BASE + int.from_bytes(_digest("chat", inline_message_id)[:6], "big"))


def is_inline_chat(chat_id: int) -> bool:
    """Return whether ``chat_id`` is the synthetic id of an inline message (:func:`inline_chat_id`)."""
    return -(INLINE_CHAT_BASE + 2**48) < chat_id <= -INLINE_CHAT_BASE


def inline_game_id(inline_message_id: str) -> str:
    """Return the id of the game an invitation's Join starts (10 characters of ``[A-Za-z0-9_-]``, as
    :func:`bot.storage.ids.new_id` makes)."""
    return base64.urlsafe_b64encode(_digest("game", inline_message_id)).decode()[:10]


def _claim_key(inline_message_id: str) -> int:
    return -1 - int.from_bytes(_digest("claim", inline_message_id)[:7], "big")


@dataclass(frozen=True, slots=True)
class Offer:
    """A game an inline query offers: ``variant`` (an offered name) and the match ``length`` (0: one game)."""

    variant: str
    length: int


def offers(query: str) -> list[Offer]:
    """Return the games to offer for the inline query text: the variant and length it names first (a bare number
    is a match length, ``long 5`` or ``длинные 3``), then the usual ones; at most :data:`MAX_RESULTS`."""
    words = query.lower().split()[:8]
    named = next((name for name in map(resolve, words) if name is not None), None)
    lengths = [n for n in (read_number(w, 2) for w in words) if n is not None]
    found: list[Offer] = []
    if named is not None:
        fixed = get_match_kind_games(named) > 0
        asked = min(MAX_LENGTH, lengths[0]) if lengths and not fixed else None
        first = asked if asked is not None else default_length(named)
        found.append(Offer(named, 0 if fixed else first))
        if not fixed:
            found.extend(Offer(named, n) for n in (0, 3, 5, 7) if n != first and n >= default_length(named))
    elif lengths:
        found.extend(Offer(v, min(MAX_LENGTH, lengths[0])) for v in ("short", "long"))
    found.extend(Offer(v, n) for v, n in DEFAULT_OFFERS)
    unique = list(dict.fromkeys(found))
    return [o for o in unique if o.variant in OFFERED][:MAX_RESULTS]


def _describe(lang: str, offer: Offer) -> str:
    what = tr(lang, f"variant.{offer.variant}")
    return what + tr(lang, "challenge.match", length=offer.length) if offer.length else what


class InlineGames:
    """Invitations and boards of inline mode (see the module docstring)."""

    def __init__(
        self,
        store: InlineStore,
        sender: MessageSender,
        config: GameConfig,
        boards: BoardPresenter,
        start_game: Callable[..., Awaitable[str | None]],
        *,
        secret: bytes,
        storage_chat: int | None = None,
        invite_ttl: float = 86400.0,
    ) -> None:
        """Keep invitations and boards in ``store``, edit inline messages through ``sender``, with the clock, dice
        and caps of ``config``; ``boards`` brings a game's boards up to date, ``start_game`` starts a game
        (:meth:`bot.services.actions.GameActions.start_game`). ``secret`` signs the invitations (the same in every
        worker: it is derived from the bot token); ``storage_chat`` receives the uploads of boards (None: the
        players' private chats); an invitation can be joined for ``invite_ttl`` seconds."""
        self.store = store
        self.sender = sender
        self.config = config
        self.boards = boards
        self.start_game = start_game
        self.secret = secret
        self.storage_chat = storage_chat
        self.invite_ttl = invite_ttl
        self._names: dict[int, str] = {}
        self._unreachable: dict[int, float] = {}
        self.uploads = 0
        """How many boards were uploaded for inline messages (diagnostics)."""

    # ------------------------------------------------------------------ invitations

    def _sign(self, variant: str, length: int, host: int, lang: str, minute: int) -> str:
        message = f"{variant}:{length}:{host}:{lang}:{minute}".encode()
        return base64.urlsafe_b64encode(hmac.digest(self.secret, message, "sha256")).decode()[:11]

    def invite_keyboard(self, offer: Offer, host: int, lang: str, minute: int) -> InlineKeyboardMarkup:
        """Return the invitation's buttons: Join and Withdraw, both signed."""
        sig = self._sign(offer.variant, offer.length, host, lang, minute)

        def data(action: str) -> str:
            return InviteCb(
                action=action,  # type: ignore[arg-type]
                variant=offer.variant,
                length=offer.length,
                host=host,
                lang=lang,  # type: ignore[arg-type]
                minute=minute,
                sig=sig,
            ).pack()

        return InlineKeyboardMarkup(
            inline_keyboard=[
                [InlineKeyboardButton(text=tr(lang, "btn.join"), callback_data=data("j"))],
                [InlineKeyboardButton(text=tr(lang, "btn.withdraw"), callback_data=data("x"))],
            ]
        )

    async def results(self, user: User, name: str, query: str, lang: str) -> list[InlineQueryResultArticle]:
        """Return the articles answering ``user``'s inline query (and remember the user's name, which the buttons
        cannot carry, for the game a Join starts)."""
        await self._remember(user.id, name)
        minute = int(self.config.clock() // 60)
        articles = []
        for offer in offers(query):
            what = _describe(lang, offer)
            articles.append(
                InlineQueryResultArticle(
                    id=f"{offer.variant}-{offer.length}",
                    title=what,
                    description=tr(lang, "inline.description"),
                    input_message_content=InputTextMessageContent(
                        message_text=tr(lang, "inline.invite", name=name, what=what)
                    ),
                    reply_markup=self.invite_keyboard(offer, user.id, lang, minute),
                )
            )
        return articles

    async def _remember(self, user_id: int, name: str) -> None:
        if self._names.get(user_id) == name:
            return
        settings = UserSettings.from_dict(await self.store.get_user_settings(user_id))
        if settings.name != name:
            settings.name = name
            settings.extra.pop("name", None)  # a name of another type, kept aside, must not win over this one
            await self.store.set_user_settings(user_id, settings.to_dict())
        if len(self._names) > 10_000:
            self._names.clear()
        self._names[user_id] = name

    async def press(self, cb: InviteCb, inline_message_id: str | None, presser: PlayerInfo) -> str:
        """Handle a press on an invitation. Returns: the toast ("" when the game started or the invitation was
        withdrawn). Raises: StoreUnavailableError."""
        lang = presser.lang
        if inline_message_id is None or not hmac.compare_digest(
            cb.sig, self._sign(cb.variant, cb.length, cb.host, cb.lang, cb.minute)
        ):
            return tr(lang, "toast.bad")
        store = self.store
        game_id = inline_game_id(inline_message_id)
        if cb.action == "x" and presser.id != cb.host:
            return tr(lang, "toast.not_yours")
        if cb.action == "j" and presser.id == cb.host:
            return tr(lang, "inline.own")
        existing = await store.get_game(game_id)
        if existing is not None:
            self.boards.request(game_id)  # a board a crash left behind catches up
            return tr(lang, "inline.taken")
        if cb.action == "j" and self.config.clock() - cb.minute * 60 > self.invite_ttl:
            await self._edit_text(inline_message_id, tr(cb.lang, "inline.expired"))
            return tr(lang, "inline.expired")
        key = _claim_key(inline_message_id)
        if await store.claim_update(key, lease=JOIN_LEASE) != "new":
            return tr(lang, "inline.taken")
        try:
            if await store.get_game(game_id) is not None:
                return tr(lang, "inline.taken")
            if cb.action == "x":
                await self._edit_text(inline_message_id, tr(cb.lang, "inline.withdrawn"))
                return ""
            if len(await store.user_games(presser.id)) >= self.config.max_games_per_user:
                return tr(lang, "limit.user", name=presser.name, limit=self.config.max_games_per_user)
            settings = UserSettings.from_dict(await store.get_user_settings(cb.host))
            host = PlayerInfo(cb.host, settings.name or tr(cb.lang, "inline.host"), cb.lang)
            chat = ChatLink(inline_chat_id(inline_message_id), None, lang=cb.lang, inline=inline_message_id)
            await self.start_game(
                cb.variant,
                cb.length,
                [host, presser],
                [chat],
                kind="group",
                options=options_for(cb.variant),  # an inline message has no chat settings
                game_id=game_id,
                limits=False,
            )
            return ""
        finally:
            await store.release_update(key)

    async def _edit_text(self, inline_message_id: str, text: str) -> None:
        try:
            await self.sender.edit(EditMessageText(inline_message_id=inline_message_id, text=text))
        except SEND_FAILURES as error:
            log.info("inline message %s not edited: %s", inline_message_id, error)

    # ------------------------------------------------------------------ the board

    def board_markup(
        self,
        record: GameRecord,
        match: Match,
        game_id: str,
        version: int,
        lang: str,
        keyboard: InlineKeyboardMarkup | None,
    ) -> InlineKeyboardMarkup | None:
        """Return the keyboard of an inline board: the game's own buttons (``keyboard``, none once the game is
        over: its game-over buttons need a chat) followed by :meth:`extra_rows`; None when there is no button."""
        own = keyboard.inline_keyboard if keyboard and match.game.phase is not Phase.OVER else []
        rows = [*own, *self.extra_rows(record, match, game_id, version, lang)]
        return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None

    def extra_rows(
        self, record: GameRecord, match: Match, game_id: str, version: int, lang: str
    ) -> list[list[InlineKeyboardButton]]:
        """Return the buttons an inline board has beside the game's own: Resign while a game runs (either player
        may press it), New game (the inline query again, in the same chat) once it is over."""
        phase = match.game.phase
        if phase is Phase.OVER:
            rematch = game_button_data(game_id, version, GameCommand.REMATCH)
            return [
                [
                    InlineKeyboardButton(text=tr(lang, "btn.rematch"), callback_data=rematch),
                    InlineKeyboardButton(text=tr(lang, "btn.new"), switch_inline_query_current_chat=""),
                ]
            ]
        if phase in (Phase.OPENING, Phase.RESIGN) or record.against_computer:
            return []
        data = game_button_data(game_id, version, GameCommand.CHOOSE_RESIGN)
        return [[InlineKeyboardButton(text=tr(lang, "btn.resign_menu"), callback_data=data)]]

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
        """Edit the inline message of ``chat`` to the board (a picture when one can be uploaded, else text) under the
        board lease of ``board`` (the edit is made only while it draws the saved version and no other worker is
        editing the message) and record what it shows. Returns: DONE when it shows the saved version (or can never be
        edited), RETRY after a retryable failure, AGAIN when the game was saved again meanwhile. Raises:
        StoreUnavailableError."""
        assert chat.inline is not None
        store = self.store
        if record.rematch is not None:  # the rematch owns the message now: this finished game must not come back
            await store.set_board(stored.game_id, chat.chat_id, PHOTO_BOARD, stored.version)
            return BoardStep.DONE
        state = stored.boards.get(chat.chat_id)
        mode = state.message_id if state is not None else None
        file_id = await self._upload(photo, record, match)
        try:
            if file_id is not None:
                await self.sender.edit(
                    EditMessageMedia(
                        inline_message_id=chat.inline,
                        media=InputMediaPhoto(media=file_id, caption=text),
                        reply_markup=keyboard,
                    ),
                    guard=board.guard,
                )
                mode = PHOTO_BOARD
            elif mode == PHOTO_BOARD:
                return BoardStep.RETRY  # a picture cannot turn back into text: wait until a board can be uploaded
            else:
                await self.sender.edit(
                    EditMessageText(
                        inline_message_id=chat.inline,
                        text=self.text_board(match) + "\n\n" + text,
                        reply_markup=keyboard,
                    ),
                    guard=board.guard,
                )
                mode = TEXT_BOARD
        except SendWithdrawn:
            return board.refused()
        except TelegramAPIError as error:
            await board.give_up()
            if message_gone(error) or isinstance(error, TelegramBadRequest):
                log.warning("inline board of game %s given up: %s", stored.game_id, error)
                await store.set_board(stored.game_id, chat.chat_id, mode, stored.version)
                return BoardStep.DONE
            log.info("inline board of game %s is behind (%s): will retry", stored.game_id, error)
            return BoardStep.RETRY
        # the store's "message" of an inline board is its mode: the lease is about the recorded one
        step = await board.landed(mode if board.message_id is None else board.message_id)
        if mode != board.message_id:
            await store.set_board(stored.game_id, chat.chat_id, mode, stored.version)
        return step

    @staticmethod
    def text_board(match: Match) -> str:
        """Return the board as preformatted Telegram HTML (X: the side to move)."""
        game = match.game
        dice = (max(game.dice), min(game.dice)) if game.dice else None
        return f"<pre>{html.escape(draw_position(game.position, game.variant, dice=dice))}</pre>"

    async def _upload(self, photo: bytes, record: GameRecord, match: Match) -> str | None:
        """Return the ``file_id`` of the board uploaded to the storage chat, else to a player's private chat
        (deleted there at once), or None when no chat takes it."""
        targets: list[int] = []
        if self.storage_chat is not None:
            targets.append(self.storage_chat)
        now = time.monotonic()
        turn = match.game.turn
        people = [p.id for i, p in sorted(enumerate(record.players), key=lambda ip: ip[0] != turn) if not p.ai]
        targets.extend(uid for uid in people if self._unreachable.get(uid, 0.0) <= now)
        for chat_id in targets:
            try:
                sent = await self.sender.send(
                    SendPhoto(
                        chat_id=chat_id,
                        photo=BufferedInputFile(photo, filename="board.jpg"),
                        disable_notification=True,
                    )
                )
            except TelegramAPIError as error:
                if chat_id != self.storage_chat and chat_unreachable(error):
                    self._unreachable[chat_id] = now + UNREACHABLE_FOR
                log.info("board upload to chat %s failed: %s", chat_id, error)
                continue
            if not isinstance(sent, Message) or not sent.photo:
                continue
            self.uploads += 1
            if chat_id != self.storage_chat:
                try:
                    await self.sender.send(DeleteMessage(chat_id=chat_id, message_id=sent.message_id))
                except TelegramAPIError as error:
                    log.info("uploaded board in chat %s not deleted: %s", chat_id, error)
            return sent.photo[-1].file_id
        return None

    # ------------------------------------------------------------------ resigning on the message

    async def resign_menu(self, game_id: str, version: int, user_id: int, inline_message_id: str) -> str:
        """Show the presser's resignation levels on the inline message, with Back. Returns: the toast ("" when
        shown). Raises: StoreUnavailableError."""
        loaded = await self._current(game_id, version, user_id)
        if isinstance(loaded, str):
            return loaded
        _, record, match, index = loaded
        lang = record.players[index].lang
        if match.game.phase in (Phase.OVER, Phase.RESIGN, Phase.OPENING):
            return tr(lang, "toast.bad")
        menu = resign_keyboard(match.game, game_id, version, lang, index)
        back = game_button_data(game_id, version, GameCommand.CHOOSE_BOARD)
        rows = [*menu.inline_keyboard, [InlineKeyboardButton(text=tr(lang, "btn.back"), callback_data=back)]]
        await self._set_keyboard(inline_message_id, InlineKeyboardMarkup(inline_keyboard=rows))
        return ""

    async def restore_keyboard(self, game_id: str, version: int, user_id: int, inline_message_id: str) -> str:
        """Put the board's own buttons back on the inline message (Back on the resignation menu). Returns: the
        toast. Raises: StoreUnavailableError."""
        loaded = await self._current(game_id, version, user_id)
        if isinstance(loaded, str):
            return loaded
        stored, record, match, _ = loaded
        chat = next((c for c in record.chats if c.inline == inline_message_id), None)
        if chat is None:
            return tr("ru", "toast.gone")
        lang = chat_lang(record, chat)
        keyboard = (
            board_keyboard(record, match, game_id, stored.version, lang, group=True)
            if keyboard_in_chat(record, match, chat)
            else None
        )
        keyboard = self.boards.with_app_button(keyboard, match, chat, game_id, lang)
        markup = self.board_markup(record, match, game_id, stored.version, lang, keyboard)
        await self._set_keyboard(inline_message_id, markup or InlineKeyboardMarkup(inline_keyboard=[]))
        return ""

    async def _current(
        self, game_id: str, version: int, user_id: int
    ) -> str | tuple[StoredGame, GameRecord, Match, int]:
        stored = await self.store.get_game(game_id)
        if stored is None or stored.quarantined or stored.finished:
            return tr("ru", "toast.gone")
        record = GameRecord.from_stored(stored)
        index = record.player_index(user_id)
        if index is None:
            return tr(record.players[0].lang, "toast.not_player")
        if stored.version != version:
            return tr(record.players[index].lang, "toast.stale")
        return stored, record, load_match(record, game_id, self.config.dice), index

    async def _set_keyboard(self, inline_message_id: str, keyboard: InlineKeyboardMarkup) -> None:
        try:
            await self.sender.edit(EditMessageReplyMarkup(inline_message_id=inline_message_id, reply_markup=keyboard))
        except SEND_FAILURES as error:
            log.info("keyboard of inline message %s not changed: %s", inline_message_id, error)


__all__ = ["INLINE_STATS_CHAT", "InlineGames", "Offer", "inline_chat_id", "inline_game_id", "is_inline_chat", "offers"]
