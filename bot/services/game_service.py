"""The game service: every game action goes load → check with the engine → save (compare-and-set) → render → edit.

Handlers call the ``GameService`` methods; they return the short text to show the user (a toast or a reply), or None
when the action was applied. Nothing a user sends raises out of here except store outages
(:class:`~bot.storage.errors.StoreUnavailableError`), which the error middleware turns into an apology.
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.methods import (
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto, Message, ReplyParameters

from bot.keyboards.game import game_keyboard, over_keyboard, parse_step_action, resign_keyboard
from bot.services.captions import caption
from bot.services.engine_flow import (
    DiceFactory,
    advance,
    load_match,
    match_finished,
    steps_of,
    steps_to_json,
    system_dice,
)
from bot.storage.base import GameStore, StoredGame
from bot.texts import tr
from nardy import Game, Match, NardyError, Options, Phase, Step
from nardy.game import next_cube_value
from rendering import render_board

log = logging.getLogger(__name__)

Renderer = Callable[..., bytes]
MAX_OPTIONS_SHOWN = 8


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player: Telegram user id, display name and language (``ru``/``en``)."""

    id: int
    name: str
    lang: str = "ru"

    def to_dict(self) -> dict[str, Any]:
        """Return the player as stored in the record."""
        return {"id": self.id, "name": self.name, "lang": self.lang}


class MessageSender(Protocol):
    """What the service needs to talk to Telegram (the infra ``Sender`` has both methods)."""

    async def send(self, method: TelegramMethod[Any]) -> Any:
        """Return the result of the method."""
        ...

    async def edit(self, method: TelegramMethod[Any]) -> Any:
        """Return the result of the edit, or None when the message was not modified."""
        ...


class DirectSender:
    """A :class:`MessageSender` calling a Bot directly, without pacing (for tests and tools)."""

    def __init__(self, bot: Callable[[TelegramMethod[Any]], Awaitable[Any]]) -> None:
        """Wrap ``bot`` (an aiogram Bot)."""
        self.bot = bot

    async def send(self, method: TelegramMethod[Any]) -> Any:
        """Return the method's result."""
        return await self.bot(method)

    async def edit(self, method: TelegramMethod[Any]) -> Any:
        """Return the edit's result, or None for "message is not modified"."""
        try:
            return await self.bot(method)
        except TelegramBadRequest as error:
            if "not modified" in error.message.lower():
                return None
            raise


class GameService:
    """Runs games for the handlers. One instance per bot process (it holds no game state itself)."""

    def __init__(
        self,
        store: GameStore,
        sender: MessageSender,
        *,
        dice: DiceFactory = system_dice,
        renderer: Renderer = render_board,
        board_width: int = 960,
        turn_reminder_after: float = 6 * 3600.0,
        turn_timeout: float = 24 * 3600.0,
        finished_game_ttl: float = 30 * 24 * 3600.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Keep the collaborators: ``sender`` (the infra ``Sender``, or :class:`DirectSender` around a Bot)."""
        self.store = store
        self.sender = sender
        self.dice = dice
        self.renderer = renderer
        self.board_width = board_width
        self.turn_reminder_after = turn_reminder_after
        self.turn_timeout = turn_timeout
        self.finished_game_ttl = finished_game_ttl
        self.clock = clock

    # ------------------------------------------------------------------ telegram calls

    async def send(self, method: TelegramMethod[Any]) -> Any:
        """Send a method through the sender. Returns: its result. Raises: TelegramAPIError."""
        return await self.sender.send(method)

    async def edit(self, method: TelegramMethod[Any]) -> Any:
        """Send an edit through the sender; Telegram errors are logged, not raised. Returns: the result or None."""
        try:
            return await self.sender.edit(method)
        except TelegramAPIError as error:
            log.info("edit failed: %s", error)
            return None

    _send = send
    _edit = edit

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
        except TelegramAPIError as error:
            log.info("reply failed: %s", error)

    @staticmethod
    def options_for(variant: str, chat_settings: dict[str, Any]) -> Options:
        """Return the rule options of a new game from the chat settings (``cube_long``: the cube in long nardy)."""
        if variant == "long" and chat_settings.get("cube_long"):
            return Options(cube=True)
        return Options()

    # ------------------------------------------------------------------ rendering

    async def _board_photo(self, record: dict[str, Any], match: Match, viewer: int | None, lang: str) -> bytes:
        game = match.game
        pending = steps_of(record)
        mover = game.roller
        names = (record["players"][0]["name"], record["players"][1]["name"])
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
            "lang": lang,
        }
        if not pending and game.last_move is not None:
            kwargs["last_move"] = game.last_move.steps
            kwargs["last_move_player"] = game.last_mover
        if match.length:
            kwargs["match_score"] = (int(match.score[0]), int(match.score[1]))
            kwargs["match_length"] = match.length
        position = game.position_for(mover)
        return await asyncio.to_thread(self.renderer, position, match.variant.name, **kwargs)

    def _keyboard(
        self, record: dict[str, Any], match: Match, game_id: str, version: int, lang: str
    ) -> InlineKeyboardMarkup | None:
        game = match.game
        if game.phase is Phase.OVER:
            return over_keyboard(game_id, version, match.variant.name, lang)
        pending = steps_of(record)
        options: list[Step] = []
        complete = False
        if game.phase is Phase.MOVE:
            plan = game.plan()
            options = plan.next_steps(pending)
            complete = bool(pending) and plan.is_complete(pending)
        return game_keyboard(
            game,
            game_id,
            version,
            lang,
            options=options,
            pending=pending,
            complete=complete,
            next_cube=next_cube_value(game.cube_value, game.options),
        )

    def _chat_lang(self, record: dict[str, Any], chat: dict[str, Any]) -> str:
        viewer = chat.get("viewer")
        if chat.get("lang"):
            return str(chat["lang"])
        return str(record["players"][viewer if viewer is not None else 0].get("lang", "ru"))

    async def _show(
        self, game_id: str, version: int, record: dict[str, Any], match: Match, *, new: bool = False
    ) -> None:
        """Render the board for every chat and edit (or, with ``new``, send) its board message."""
        awaited = match.game.turn
        for chat in record["chats"]:
            viewer = chat.get("viewer")
            lang = self._chat_lang(record, chat)
            text = caption(record, match, lang)
            keyboard = None
            if match.game.phase is Phase.OVER or viewer is None or viewer == awaited:
                keyboard = self._keyboard(record, match, game_id, version, lang)
            try:
                photo = await self._board_photo(record, match, viewer, lang)
            except Exception:  # a renderer bug must not lose the move: show the caption and keyboard at least
                log.exception("rendering the board of game %s failed", game_id)
                if chat.get("message_id") and not new:
                    await self._edit(
                        EditMessageCaption(
                            chat_id=chat["chat_id"], message_id=chat["message_id"], caption=text, reply_markup=keyboard
                        )
                    )
                continue
            file = BufferedInputFile(photo, filename="board.jpg")
            if new or not chat.get("message_id"):
                try:
                    sent = await self._send(
                        SendPhoto(chat_id=chat["chat_id"], photo=file, caption=text, reply_markup=keyboard)
                    )
                except TelegramAPIError as error:
                    log.warning("cannot send the board to %s: %s", chat["chat_id"], error)
                    continue
                chat["message_id"] = sent.message_id if isinstance(sent, Message) else None
            else:
                await self._edit(
                    EditMessageMedia(
                        chat_id=chat["chat_id"],
                        message_id=chat["message_id"],
                        media=InputMediaPhoto(media=file, caption=text),
                        reply_markup=keyboard,
                    )
                )

    # ------------------------------------------------------------------ starting games

    async def start_game(
        self,
        variant: str,
        length: int,
        players: Sequence[PlayerInfo],
        chats: Sequence[dict[str, Any]],
        *,
        kind: str,
        confirm: bool = False,
        options: Options | None = None,
    ) -> str:
        """Create a game, play its opening roll and post one board message per chat.

        ``chats``: ``{"chat_id", "viewer"}`` dicts (viewer None in a group). Returns: the game id.
        Raises: StoreUnavailableError when the store is down.
        """
        match = Match(variant, length, options=options, dice=self.dice("new", 0))
        record: dict[str, Any] = {
            "match": match.to_dict(),
            "players": [p.to_dict() for p in players],
            "chats": [{"chat_id": c["chat_id"], "message_id": None, "viewer": c.get("viewer")} for c in chats],
            "pending_steps": [],
            "kind": kind,
            "confirm": confirm,
            "events": [],
            "reminded": False,
        }
        events: list[dict[str, Any]] = []
        advance(match, record, events)  # the opening roll (and anything automatic) before the first save
        record["events"] = events
        record["match"] = match.to_dict()
        now = self.clock()
        record["last_action"] = now
        game_id = await self.store.create_game(
            record,
            chat_ids=[c["chat_id"] for c in chats],
            user_ids=[p.id for p in players],
            deadline=now + self.turn_reminder_after,
        )
        # The board is sent with the keyboard of version 2 (after the message ids are saved).
        await self._show(game_id, 2, record, match, new=True)
        version = 1
        for attempt in range(5):
            saved = await self._save(game_id, version, record, match)
            if saved is not None:
                if attempt:  # someone acted between create and save: the keyboards carry the wrong version
                    await self._show(game_id, saved, record, match)
                return game_id
            stored = await self.store.get_game(game_id)
            if stored is None:
                return game_id
            ids = {c["chat_id"]: c["message_id"] for c in record["chats"]}
            record = stored.data
            for chat in record["chats"]:
                chat["message_id"] = ids.get(chat["chat_id"])
            version = stored.version
            match = load_match(record, game_id, self.dice)
        return game_id

    async def _save(self, game_id: str, version: int, record: dict[str, Any], match: Match) -> int | None:
        """Save with compare-and-set; finish the game (and count stats) when the session is over."""
        record["match"] = match.to_dict()
        now = self.clock()
        if match_finished(match):
            new_version = await self.store.finish_game(game_id, version, record, ttl=self.finished_game_ttl)
            if new_version is not None:
                await self._count_stats(record, match)
            return new_version
        record["reminded"] = False
        record["last_action"] = now
        return await self.store.update_game(game_id, version, record, deadline=now + self.turn_reminder_after)

    async def _count_stats(self, record: dict[str, Any], match: Match) -> None:
        result = match.game.result
        if result is None:
            return
        if match.length:
            a, b = match.score_after_game()
            winner = 0 if a > b else 1 if b > a else None
        else:
            winner = result.winner
        for chat in record["chats"]:
            for index, player in enumerate(record["players"]):
                if winner is None:
                    await self.store.add_stats(chat["chat_id"], player["id"], draws=1)
                elif index == winner:
                    await self.store.add_stats(chat["chat_id"], player["id"], wins=1)
                else:
                    await self.store.add_stats(chat["chat_id"], player["id"], losses=1)

    # ------------------------------------------------------------------ actions

    @staticmethod
    def player_index(record: dict[str, Any], user_id: int) -> int | None:
        """Return 0 or 1 for a player of the record, else None."""
        for index, player in enumerate(record.get("players", [])):
            if player.get("id") == user_id:
                return index
        return None

    async def press(self, game_id: str, version: int, action: str, user_id: int, lang: str) -> str:
        """Apply a button press. Returns: the toast to show (a refusal, or a short confirmation).

        Raises: StoreUnavailableError when the store is down.
        """
        stored = await self.store.get_game(game_id)
        if stored is None:
            return tr(lang, "toast.gone")
        record = stored.data
        index = self.player_index(record, user_id)
        if index is None:
            return tr(lang, "toast.not_player")
        lang = record["players"][index].get("lang", lang)
        if stored.version != version:
            return tr(lang, "toast.stale")
        if action == "rematch":
            return await self._rematch(stored, index, lang)
        if stored.finished:
            return tr(lang, "toast.gone")
        try:
            match = load_match(record, game_id, self.dice)
        except (NardyError, ValueError, KeyError):
            log.exception("game %s cannot be loaded", game_id)
            return tr(lang, "toast.gone")
        game = match.game
        if action[:3] in ("rs0", "rs1") and action[3:4] == "-":
            if int(action[2]) != index:
                return tr(lang, "toast.not_yours")
            if game.phase in (Phase.OVER, Phase.RESIGN, Phase.OPENING):
                return tr(lang, "toast.bad")
            try:
                game.resign(index, action[4:])
            except NardyError:
                return tr(lang, "toast.bad")
            record["pending_steps"] = []
        else:
            if game.turn != index:
                return tr(lang, "toast.not_turn")
            refusal = self._apply(game, record, action, lang)
            if refusal:
                return refusal
        events: list[dict[str, Any]] = []
        advance(match, record, events)
        record["events"] = events
        new_version = await self._save(game_id, version, record, match)
        if new_version is None:
            return tr(lang, "toast.stale")
        await self._show(game_id, new_version, record, match)
        return ""

    def _apply(self, game: Game, record: dict[str, Any], action: str, lang: str) -> str | None:
        """Apply one action of the awaited player to the engine; return a refusal text or None."""
        try:
            step = parse_step_action(action)
            if step is not None:
                if game.phase is not Phase.MOVE:
                    return tr(lang, "toast.bad")
                pending = steps_of(record)
                for option in game.next_steps(pending):
                    if (option.src, option.dst, option.die) == step:
                        record["pending_steps"] = steps_to_json([*pending, option])
                        return None
                return tr(lang, "toast.bad")
            if action == "undo":
                pending = steps_of(record)
                if game.phase is not Phase.MOVE or not pending:
                    return tr(lang, "toast.bad")
                # Take back the last chosen step, with the forced steps that followed it (they would come back).
                pending = pending[:-1]
                while pending and len(game.next_steps(pending)) == 1:
                    pending = pending[:-1]
                record["pending_steps"] = steps_to_json(pending)
                return None
            if action == "ok":
                pending = steps_of(record)
                if game.phase is not Phase.MOVE or not pending or not game.plan().is_complete(pending):
                    return tr(lang, "toast.bad")
                game.play(pending)
                record["pending_steps"] = []
                return None
            if action == "roll" and game.phase is Phase.ROLL:
                game.roll()
                return None
            if action == "double" and game.phase is Phase.ROLL:
                game.double()
                return None
            if action == "take" and game.phase is Phase.DOUBLED:
                game.take()
                return None
            if action == "pass" and game.phase is Phase.DOUBLED:
                game.drop()
                return None
            if action == "beaver" and game.phase is Phase.DOUBLED:
                game.beaver()
                return None
            if action == "raccoon" and game.phase is Phase.DOUBLED:
                game.raccoon()
                return None
            if action == "r-yes" and game.phase is Phase.RESIGN:
                game.accept_resignation()
                return None
            if action == "r-no" and game.phase is Phase.RESIGN:
                game.decline_resignation()
                return None
        except NardyError:
            return tr(lang, "toast.bad")
        return tr(lang, "toast.bad")

    async def _rematch(self, stored: StoredGame, index: int, lang: str) -> str:
        """Start a new game with the same players and chats (once per finished game)."""
        record = stored.data
        if not stored.finished or record.get("rematch"):
            return tr(lang, "toast.bad")
        record["rematch"] = True
        if await self.store.update_game(stored.game_id, stored.version, record) is None:
            return tr(lang, "toast.stale")
        match_data = record["match"]
        players = [PlayerInfo(p["id"], p["name"], p.get("lang", "ru")) for p in reversed(record["players"])]
        chats = [
            {"chat_id": c["chat_id"], "viewer": None if c.get("viewer") is None else 1 - c["viewer"]}
            for c in record["chats"]
        ]
        await self.start_game(
            match_data["variant"],
            int(match_data["length"]),
            players,
            chats,
            kind=record.get("kind", "group"),
            confirm=bool(record.get("confirm")),
            options=Options.from_dict(match_data.get("options")),
        )
        return ""

    # ------------------------------------------------------------------ chat-level commands

    async def find_game(self, chat_id: int, user_id: int) -> StoredGame | None:
        """Return the user's active game shown in the chat (the newest), or None."""
        found: StoredGame | None = None
        for game_id in await self.store.chat_games(chat_id):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.finished:
                continue
            if self.player_index(stored.data, user_id) is not None:
                found = stored
        return found

    async def text_move(self, chat_id: int, user_id: int, text: str, lang: str) -> str | None:
        """Play a typed move. Returns: the reply (an error with legal options), or None when it was played.

        Raises: StoreUnavailableError when the store is down.
        """
        stored = await self.find_game(chat_id, user_id)
        if stored is None:
            return tr(lang, "no_game")
        record = stored.data
        index = self.player_index(record, user_id)
        assert index is not None
        lang = record["players"][index].get("lang", lang)
        match = load_match(record, stored.game_id, self.dice)
        game = match.game
        if game.turn != index or game.phase not in (Phase.MOVE, Phase.ROLL):
            return tr(lang, "toast.not_turn")
        if game.phase is Phase.ROLL:
            return tr(lang, "move.roll_first")
        try:
            game.play(text)
        except NardyError as error:
            options = [html.escape(m.notation) for m in game.legal_moves()[:MAX_OPTIONS_SHOWN]]
            reason = tr(lang, "move.error", reason=html.escape(str(error)[:300]))
            return reason + "\n" + tr(lang, "move.options", options=", ".join(options))
        record["pending_steps"] = []
        events: list[dict[str, Any]] = []
        advance(match, record, events)
        record["events"] = events
        new_version = await self._save(stored.game_id, stored.version, record, match)
        if new_version is None:
            return tr(lang, "toast.stale")
        await self._show(stored.game_id, new_version, record, match)
        return None

    async def repost(self, chat_id: int, user_id: int, lang: str) -> str | None:
        """Post the board again at the bottom of the chat; the old message loses its keyboard.

        Returns: a refusal text, or None when done.
        """
        stored = await self.find_game(chat_id, user_id)
        if stored is None:
            return tr(lang, "no_game")
        record = stored.data
        match = load_match(record, stored.game_id, self.dice)
        old = [dict(c) for c in record["chats"] if c["chat_id"] == chat_id]
        for chat in record["chats"]:
            if chat["chat_id"] == chat_id:
                chat["message_id"] = None
        version = await self.store.update_game(stored.game_id, stored.version, record)
        if version is None:
            return tr(lang, "toast.stale")
        await self._show(stored.game_id, version + 1, record, match)
        if await self.store.update_game(stored.game_id, version, record) is None:
            return tr(lang, "toast.stale")
        for chat in old:
            if chat.get("message_id"):
                await self._edit(
                    EditMessageReplyMarkup(chat_id=chat_id, message_id=chat["message_id"], reply_markup=None)
                )
        return None

    async def offer_resign_menu(self, chat_id: int, user_id: int, lang: str) -> str | None:
        """Send the resignation levels to the player. Returns: a refusal text, or None when sent."""
        stored = await self.find_game(chat_id, user_id)
        if stored is None:
            return tr(lang, "no_game")
        match = load_match(stored.data, stored.game_id, self.dice)
        if match.game.phase in (Phase.OVER, Phase.RESIGN, Phase.OPENING):
            return tr(lang, "toast.bad")
        await self._send(
            SendMessage(
                chat_id=chat_id,
                text=tr(lang, "resign.choose"),
                reply_markup=resign_keyboard(
                    match.game, stored.game_id, stored.version, lang, self.player_index(stored.data, user_id) or 0
                ),
            )
        )
        return None

    # ------------------------------------------------------------------ timeouts

    async def sweep(self, now: float | None = None) -> int:
        """Remind players whose turn is overdue, and abandon games past the timeout. Returns: games handled."""
        now = self.clock() if now is None else now
        handled = 0
        for game_id in await self.store.due_games(now):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.finished or stored.deadline is None or stored.deadline > now:
                continue
            record = stored.data
            match = load_match(record, game_id, self.dice)
            game = match.game
            player = record["players"][game.turn]
            if not record.get("reminded"):
                record["reminded"] = True
                last = float(record.get("last_action", now))
                deadline = max(now, last + self.turn_timeout)
                if await self.store.update_game(game_id, stored.version, record, deadline=deadline) is None:
                    continue
                for chat in record["chats"]:
                    if chat.get("viewer") in (None, game.turn):
                        try:
                            await self._send(
                                SendMessage(
                                    chat_id=chat["chat_id"],
                                    text=tr(player.get("lang"), "reminder", name=player["name"]),
                                    reply_to_message_id=chat.get("message_id"),
                                )
                            )
                        except TelegramAPIError as error:
                            log.info("reminder failed: %s", error)
            else:
                try:
                    game.abandon(game.turn)
                except NardyError:
                    continue
                events: list[dict[str, Any]] = []
                record["pending_steps"] = []
                advance(match, record, events)
                record["events"] = events
                new_version = await self._save(game_id, stored.version, record, match)
                if new_version is None:
                    continue
                await self._show(game_id, new_version, record, match)
            handled += 1
        return handled
