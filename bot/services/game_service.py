"""The game service: every game action goes load → check with the engine → save (compare-and-set) → render → edit.

Handlers call the ``GameService`` methods; they return the short text to show the user (a toast or a reply), or None
when the action was applied. Nothing a user sends raises out of here except store outages
(:class:`~bot.storage.errors.StoreUnavailableError`), which the error middleware turns into an apology.

A player may be the computer (``{"id": COMPUTER_ID, "ai": "easy" | "medium" | "hard", ...}``): after every saved
action that leaves the computer to act, a background task waits ``computer_delay`` seconds, runs the computer's
actions in a worker thread (``asyncio.to_thread``: the event loop never waits for a search), saves them with the
same compare-and-set and updates the board once.
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
import zlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

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
from nardy.ai import ComputerPlayer, get_player
from nardy.game import next_cube_value
from rendering import render_board

log = logging.getLogger(__name__)

# button actions that are one engine call, each allowed in one phase
_PHASE_ACTIONS: Final[dict[str, tuple[Phase, Callable[[Game], object]]]] = {
    "roll": (Phase.ROLL, Game.roll),
    "double": (Phase.ROLL, Game.double),
    "take": (Phase.DOUBLED, Game.take),
    "pass": (Phase.DOUBLED, Game.drop),
    "beaver": (Phase.DOUBLED, Game.beaver),
    "raccoon": (Phase.DOUBLED, Game.raccoon),
    "r-yes": (Phase.RESIGN, Game.accept_resignation),
    "r-no": (Phase.RESIGN, Game.decline_resignation),
}

Renderer = Callable[..., bytes]
MAX_OPTIONS_SHOWN = 8

COMPUTER_ID: Final = 0
"""The user id of a computer player in a record (Telegram user ids are positive)."""
COMPUTER_LEVELS: Final = ("easy", "medium", "hard")
COMPUTER_STATS_CHAT: Final = 0
"""The "chat" of the counters of games against the computer: a human's wins, losses and draws against the computer
are counted there (for all chats and levels together), never in the chat's counters, which stay between people."""
MAX_COMPUTER_ACTIONS = 64
"""A bound on the computer's actions in one reply (it only guards against an engine or player bug)."""

ComputerFactory = Callable[[str, str, int], ComputerPlayer]
"""Makes a computer player: ``(level, variant, seed)``."""


def default_computer(level: str, variant: str, seed: int) -> ComputerPlayer:
    """Return the ``nardy.ai`` player of ``level``; the medium one when that level cannot be built (e.g. the hard
    level's weights are missing)."""
    try:
        return get_player(level, variant, seed=seed)
    except (OSError, ValueError) as error:
        if level == "medium":
            raise
        log.warning("computer level %s is unavailable (%s): playing medium", level, error)
        return get_player("medium", variant, seed=seed)


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player: Telegram user id, display name and language (``ru``/``en``); ``ai`` is the level of a computer
    player (its id is :data:`COMPUTER_ID`), None for a person."""

    id: int
    name: str
    lang: str = "ru"
    ai: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the player as stored in the record."""
        data: dict[str, Any] = {"id": self.id, "name": self.name, "lang": self.lang}
        if self.ai:
            data["ai"] = self.ai
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerInfo:
        """Return the player of a record's ``players`` entry."""
        return cls(int(data["id"]), str(data["name"]), str(data.get("lang", "ru")), data.get("ai") or None)


def computer_player(level: str, lang: str) -> PlayerInfo:
    """Return the computer player of ``level`` named in ``lang`` (e.g. "Computer (hard)")."""
    return PlayerInfo(COMPUTER_ID, tr(lang, "computer.name", level=tr(lang, f"level.{level}")), lang, level)


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
        board_width: int = 1280,
        turn_reminder_after: float = 6 * 3600.0,
        turn_timeout: float = 24 * 3600.0,
        finished_game_ttl: float = 30 * 24 * 3600.0,
        clock: Callable[[], float] = time.time,
        computer: ComputerFactory = default_computer,
        computer_delay: float = 1.0,
        computer_retry_after: float = 60.0,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        """Keep the collaborators: ``sender`` (the infra ``Sender``, or :class:`DirectSender` around a Bot).

        ``computer`` builds computer players; ``computer_delay`` (``BOT_MOVE_DELAY``) is the pause, slept with
        ``sleep``, before the computer's reply is shown; a computer turn still pending ``computer_retry_after``
        seconds after the last save (e.g. after a restart) is played by the timeout sweeper."""
        self.store = store
        self.sender = sender
        self.dice = dice
        self.renderer = renderer
        self.board_width = board_width
        self.turn_reminder_after = turn_reminder_after
        self.turn_timeout = turn_timeout
        self.finished_game_ttl = finished_game_ttl
        self.clock = clock
        self.computer = computer
        self.computer_delay = computer_delay
        self.computer_retry_after = computer_retry_after
        self.sleep = sleep
        self._computer_tasks: dict[str, asyncio.Task[None]] = {}
        self._computer_wanted: set[str] = set()

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
            computer = any(p.get("ai") for p in record["players"])
            return over_keyboard(game_id, version, match.variant.name, lang, computer=computer)
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
            if match.game.phase is Phase.OVER or (
                (viewer is None or viewer == awaited) and not record["players"][awaited].get("ai")
            ):
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
            user_ids=[p.id for p in players if not p.ai],
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
                self._after_action(game_id, record, match)
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
        computer = self.computer_to_act(record, match) is not None
        wait = self.computer_retry_after if computer else self.turn_reminder_after
        return await self.store.update_game(game_id, version, record, deadline=now + wait)

    async def _count_stats(self, record: dict[str, Any], match: Match) -> None:
        result = match.game.result
        if result is None:
            return
        if match.length:
            a, b = match.score_after_game()
            winner = 0 if a > b else 1 if b > a else None
        else:
            winner = result.winner
        against_computer = any(p.get("ai") for p in record["players"])
        chat_ids = [COMPUTER_STATS_CHAT] if against_computer else [c["chat_id"] for c in record["chats"]]
        for chat_id in chat_ids:
            for index, player in enumerate(record["players"]):
                if player.get("ai"):
                    continue
                if winner is None:
                    await self.store.add_stats(chat_id, player["id"], draws=1)
                elif index == winner:
                    await self.store.add_stats(chat_id, player["id"], wins=1)
                else:
                    await self.store.add_stats(chat_id, player["id"], losses=1)

    # ------------------------------------------------------------------ actions

    @staticmethod
    def player_index(record: dict[str, Any], user_id: int) -> int | None:
        """Return 0 or 1 for a (human) player of the record, else None."""
        for index, player in enumerate(record.get("players", [])):
            if player.get("id") == user_id and not player.get("ai"):
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
        self._after_action(game_id, record, match)
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
            simple = _PHASE_ACTIONS.get(action)
            if simple is not None and game.phase is simple[0]:
                simple[1](game)
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
        players = [PlayerInfo.from_dict(p) for p in reversed(record["players"])]
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
        self._after_action(stored.game_id, record, match)
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
            if self.computer_to_act(record, match) is not None:
                self.wake_computer(game_id)  # the computer's reply was lost (a restart, an error): play it now
                handled += 1
                continue
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

    # ------------------------------------------------------------------ the computer player

    @staticmethod
    def computer_to_act(record: dict[str, Any], match: Match) -> int | None:
        """Return the index of the computer player whose action the game awaits, or None."""
        game = match.game
        if game.phase in (Phase.OVER, Phase.OPENING):
            return None
        players = record.get("players", [])
        return game.turn if 0 <= game.turn < len(players) and players[game.turn].get("ai") else None

    def _after_action(self, game_id: str, record: dict[str, Any], match: Match) -> None:
        if self.computer_to_act(record, match) is not None:
            self.wake_computer(game_id)

    def wake_computer(self, game_id: str) -> None:
        """Make the computer reply in the game (in a background task, one per game; a running task checks the game
        again when it is done). Returns nothing."""
        self._computer_wanted.add(game_id)
        task = self._computer_tasks.get(game_id)
        if task is None or task.done():
            self._computer_tasks[game_id] = asyncio.create_task(
                self._computer_task(game_id), name=f"nardy-computer-{game_id}"
            )

    async def _computer_task(self, game_id: str) -> None:
        try:
            while game_id in self._computer_wanted:
                self._computer_wanted.discard(game_id)
                await self.computer_reply(game_id)
        except Exception:  # the sweeper retries the reply later (the deadline of a computer turn is short)
            log.exception("the computer's reply in game %s failed", game_id)
        finally:
            if self._computer_tasks.get(game_id) is asyncio.current_task():
                del self._computer_tasks[game_id]

    async def settle(self) -> None:
        """Wait until no computer reply is running or due (for tests and a graceful shutdown). Returns nothing."""
        while self._computer_tasks:
            await asyncio.gather(*list(self._computer_tasks.values()), return_exceptions=True)

    async def stop_computer(self) -> None:
        """Cancel the running computer replies (the sweeper plays them after a restart). Returns nothing."""
        tasks = list(self._computer_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._computer_wanted.clear()

    async def computer_reply(self, game_id: str) -> bool:
        """Play the computer's actions in the game if it is to act: wait ``computer_delay``, think in a worker
        thread, save with compare-and-set (reloading and thinking again when a person changed the game meanwhile)
        and update the board once. Returns: whether a reply was saved.

        Raises: StoreUnavailableError; whatever the computer player raises.
        """
        if self.computer_delay > 0:
            await self.sleep(self.computer_delay)
        for _ in range(5):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.finished:
                return False
            record = stored.data
            match = load_match(record, game_id, self.dice)
            if self.computer_to_act(record, match) is None:
                return False
            seed = zlib.crc32(f"{game_id}:{stored.version}".encode())
            record["events"] = await asyncio.to_thread(self._play_computer, record, match, seed)
            new_version = await self._save(game_id, stored.version, record, match)
            if new_version is None:
                continue  # a person acted meanwhile (e.g. resigned): think again on the new state
            await self._show(game_id, new_version, record, match)
            return True
        return False

    def _play_computer(self, record: dict[str, Any], match: Match, seed: int) -> list[dict[str, Any]]:
        """Play the computer's actions until a person must act or the game is over (synchronous: runs in a worker
        thread). Mutates ``match`` and ``record``; returns the events for the caption."""
        events: list[dict[str, Any]] = []
        players: dict[int, ComputerPlayer] = {}
        for _ in range(MAX_COMPUTER_ACTIONS):
            index = self.computer_to_act(record, match)
            if index is None:
                break
            game = match.game
            player = players.get(index)
            if player is None:
                player = players[index] = self.computer(record["players"][index]["ai"], match.variant.name, seed)
            record["pending_steps"] = []
            phase = game.phase
            if phase is Phase.ROLL:
                if game.can_double() and player.cube_action(game) == "double":
                    game.double()
                else:
                    dice = game.roll()
                    if game.phase is not Phase.MOVE or game.roller != index:
                        events.append({"t": "forfeit", "player": index, "dice": list(dice)})
            elif phase is Phase.MOVE:
                move = game.play(player.choose_move(game))
                events.append({"t": "played", "player": index, "move": move.notation})
            elif phase is Phase.DOUBLED:
                if player.take_decision(game) == "take":
                    game.take()
                    events.append({"t": "took", "player": index})
                else:
                    try:
                        game.drop()
                    except NardyError:  # a beaver cannot be dropped
                        game.take()
                        events.append({"t": "took", "player": index})
            elif phase is Phase.RESIGN:
                if player.accept_resignation(game):
                    game.accept_resignation()
                else:
                    game.decline_resignation()
                    events.append({"t": "declined", "player": index})
            else:  # pragma: no cover - computer_to_act excludes the other phases
                break
            advance(match, record, events)
        return events
