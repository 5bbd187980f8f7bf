"""Game actions of people: starting games, button presses, typed moves, rematches, /board and /resign.

Each action goes load → check (a player? the awaited one? the board's version the stored one?) → apply with the
engine → advance the automatic actions → save with compare-and-set (:class:`~bot.services.saving.GameSaver`). A
refusal is a short text for a toast or a reply and writes nothing. The boards follow from the saved record
(:mod:`bot.services.boards`), so an action never waits for Telegram.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from aiogram.methods import SendMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.keyboards.callbacks import game_button_data
from bot.keyboards.game import resign_keyboard
from bot.keyboards.turns import turn_choices
from bot.model.actions import ChooseDoubleAction, GameAction, GameCommand, ResignAction, StepAction, TurnAction
from bot.model.clock import GameClock, TimeControl
from bot.model.game import ChatLink, Event, GameRecord, Kind, PlayerInfo, RecordError, TournamentLink
from bot.model.lobby import LobbyLink
from bot.services.boards import BoardPresenter, berserk_allowed
from bot.services.clocks import awaited_side, earliest
from bot.services.computer import ComputerTurns, computer_to_act
from bot.services.engine_flow import advance, load_match, new_fair_seeds
from bot.services.messaging import SEND_FAILURES, MessageSender
from bot.services.saving import GameSaver
from bot.services.step_reason import step_refusal
from bot.storage import BoardFence, StoredGame
from bot.storage.errors import StoreUnavailableError
from bot.storage.ids import new_id
from bot.texts import illegal_move_text, tr
from bot.variants import new_match
from nardy import FairDice, Game, Match, NardyError, Options, Phase

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig
    from bot.storage import GameRecords

log = logging.getLogger(__name__)

MAX_OPTIONS_SHOWN: Final = 8
CREATE_ATTEMPTS: Final = 3

# button actions that are one engine call, each allowed in one phase
_PHASE_ACTIONS: Final[dict[GameCommand, tuple[Phase, Callable[[Game], object]]]] = {
    GameCommand.ROLL: (Phase.ROLL, Game.roll),
    GameCommand.DOUBLE: (Phase.ROLL, Game.double),
    GameCommand.TAKE: (Phase.DOUBLED, Game.take),
    GameCommand.PASS: (Phase.DOUBLED, Game.drop),
    GameCommand.BEAVER: (Phase.DOUBLED, Game.beaver),
    GameCommand.RACCOON: (Phase.DOUBLED, Game.raccoon),
    GameCommand.ACCEPT_RESIGNATION: (Phase.RESIGN, Game.accept_resignation),
    GameCommand.DECLINE_RESIGNATION: (Phase.RESIGN, Game.decline_resignation),
}

CHOOSE_BOARD: Final = GameCommand.CHOOSE_BOARD
"""The action of a "which game?" button that re-posts that game's board in the chat."""
CHOOSE_RESIGN: Final = GameCommand.CHOOSE_RESIGN
"""The action of a "which game?" button that offers the resignation levels of that game."""


class PressStatus(StrEnum):
    """What became of a press (:meth:`GameActions.press_outcome`)."""

    DONE = "done"
    """Applied and saved."""
    GONE = "gone"
    """No such game (or quarantined, unreadable, finished)."""
    NOT_PLAYER = "not_player"
    """The presser does not play this game."""
    NOT_TURN = "not_turn"
    """A player, but not the one whose action is awaited (or a button of the other player)."""
    STALE = "stale"
    """The press was made on another version than the stored one (or lost the compare-and-set)."""
    ILLEGAL = "illegal"
    """Not an action the game allows now (the engine refused it)."""


@dataclass(frozen=True, slots=True)
class PressOutcome:
    """The outcome of a press: ``status``, ``text`` (the toast a button shows: "" when applied), ``version`` (the
    saved version when applied) and ``reason`` (why the engine refused a checker step, when it can say)."""

    status: PressStatus
    text: str
    version: int | None = None
    reason: str | None = None


def read_record(stored: StoredGame) -> GameRecord | None:
    """Return the record of a stored game, or None (logged) when it cannot be read."""
    try:
        return GameRecord.from_stored(stored)
    except RecordError:
        log.exception("game %s has a malformed record", stored.game_id)
        return None


def _describe(record: GameRecord, user_id: int, lang: str) -> str:
    index = record.player_index(user_id)
    opponent = record.players[1 - index].name if index is not None else "?"
    variant = tr(lang, f"variant.{record.variant or 'short'}")
    return f"{opponent} · {variant}"


def _step(game: Game, record: GameRecord, action: StepAction) -> bool:
    """Add one checker step to the turn being built; return whether it is one of the legal next steps."""
    if game.phase is not Phase.MOVE:
        return False
    pending = list(record.pending_steps)
    for option in game.next_steps(pending):
        if action.matches(option):
            record.pending_steps = [*pending, option]
            record.chosen += 1
            record.turn_base = None
            return True
    return False


def _turn(game: Game, record: GameRecord, index: int) -> bool:
    """Build the whole turn ``index`` of the keyboard's turn choices; return whether there is such a turn."""
    if game.phase is not Phase.MOVE:
        return False
    pending = list(record.pending_steps)
    choices = turn_choices(game.plan(), pending)
    if not choices or index >= len(choices):
        return False
    record.pending_steps = list(choices[index][1])
    record.chosen += 1
    record.turn_base = len(pending)
    return True


def _undo(game: Game, record: GameRecord) -> bool:
    """Take back the last choice of the turn being built; return whether there was one."""
    pending = list(record.pending_steps)
    chosen = record.chosen
    if game.phase is not Phase.MOVE or not pending or chosen <= 0:
        return False
    base, record.turn_base = record.turn_base, None
    if base is not None and 0 <= base < len(pending):  # take back a whole-turn press
        pending = pending[:base]
    else:
        # Take back the last chosen step, with the forced steps that followed it (they would come back).
        pending = pending[:-1]
        while pending and len(game.next_steps(pending)) == 1:
            pending = pending[:-1]
    record.pending_steps = pending
    record.chosen = chosen - 1
    return True


def _confirm(game: Game, record: GameRecord, events: list[Event]) -> bool:
    """Play the turn built so far; return whether it was a whole turn. Raises: NardyError from the engine."""
    pending = list(record.pending_steps)
    if game.phase is not Phase.MOVE or not pending or not game.plan().is_complete(pending):
        return False
    mover = game.roller
    move = game.play(pending)
    record.pending_steps = []
    record.chosen = 0
    events.append({"t": "played", "player": mover, "move": move.notation})
    return True


class GameActions:
    """The actions of people on their games (see the module docstring)."""

    def __init__(
        self,
        store: GameRecords,
        sender: MessageSender,
        config: GameConfig,
        boards: BoardPresenter,
        saver: GameSaver,
        computer: ComputerTurns,
    ) -> None:
        """Read and create games in ``store`` with the dice, clock, timings and caps of ``config``; save with
        ``saver``, bring boards up to date with ``boards``, have ``computer`` reply when an action leaves it to act,
        and send messages through ``sender``."""
        self.store = store
        self.sender = sender
        self.config = config
        self.boards = boards
        self.saver = saver
        self.computer = computer

    # ------------------------------------------------------------------ starting games

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
        limits: bool = True,
        clock: TimeControl | None = None,
        lobby: LobbyLink | None = None,
    ) -> str | None:
        """Create a game, play its opening roll and have its boards posted (one per chat).

        ``chats``: where the boards go (viewer None in a group); ``tournament``: the tournament match the game
        plays, kept in the record; ``clock``: the time control (None: none); ``lobby``: the series of a game the
        lobby paired (:mod:`bot.services.lobby`), kept in the record. A player already in
        ``max_games_per_user`` games, or a chat with ``max_games_per_chat`` games, is refused with a message in the
        first chat (``limits`` False: not checked, for tournament matches, which nobody chose to start). Creation is
        idempotent: the id is chosen first (or given as ``game_id``), so a retry after a
        lost store reply or a crash creates nothing twice.
        Returns: the game id, or None when refused. Raises: StoreUnavailableError when the store is down.
        """
        refusal = await self._limit_refusal(players, chats) if limits else None
        if refusal is not None:
            await self._notify(chats[0], refusal)
            return None
        game_id = game_id or new_id()
        seeds = new_fair_seeds(self.config.dice, game_id, [p.id for p in players])
        dice = self.config.dice("new", 0) if seeds is None else FairDice(seeds.server_seed, seeds.client_seed)
        match = new_match(variant, length, options=options, dice=dice)
        record = GameRecord.new(
            match.to_dict(),
            players,
            chats,
            kind=kind,
            confirm=confirm,
            tournament=tournament,
            fairness=seeds,
            lobby=lobby,
        )
        events: list[Event] = []
        advance(match, record, events)  # the opening roll (and anything automatic) before the first save
        record.events = events
        record.match = match.to_dict()
        now = self.config.clock()
        record.last_action = now
        if clock is not None:
            record.clock = GameClock.new(clock, length).await_board(awaited_side(record, match), now)
        computer = computer_to_act(record, match) is not None
        wait = self.config.computer_retry_after if computer else self.config.turn_reminder_after
        record.turn_deadline = earliest(now + wait, record)
        for attempt in range(CREATE_ATTEMPTS):
            try:
                await self.store.create_game(
                    record.to_dict(),
                    game_id=game_id,
                    chat_ids=[c.chat_id for c in chats],
                    user_ids=[p.id for p in players if not p.ai],
                    deadline=earliest(now + self.config.board_retry_after, record),
                )
                break
            except StoreUnavailableError:
                if attempt == CREATE_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
        self.boards.request(game_id)
        self.computer.after_action(game_id, record, match)
        return game_id

    async def _limit_refusal(self, players: Sequence[PlayerInfo], chats: Sequence[ChatLink]) -> str | None:
        lang = players[0].lang if players else "ru"
        for player in players:
            if player.ai:
                continue
            if len(await self.store.user_games(player.id)) >= self.config.max_games_per_user:
                return tr(lang, "limit.user", name=player.name, limit=self.config.max_games_per_user)
        for chat in chats:
            if chat.is_shared and (  # a group (or inline message): games with a viewer (the computer's) count too
                await self.store.count_chat_games(chat.chat_id) >= self.config.max_games_per_chat
            ):
                return tr(lang, "limit.chat", limit=self.config.max_games_per_chat)
        return None

    async def _notify(self, chat: ChatLink, text: str, keyboard: InlineKeyboardMarkup | None = None) -> None:
        if chat.is_inline:
            log.info("no chat to tell of an inline game: %s", text)
            return
        try:
            await self.sender.send(
                SendMessage(chat_id=chat.chat_id, text=text, reply_markup=keyboard, message_thread_id=chat.thread)
            )
        except SEND_FAILURES as error:
            log.info("message to %s failed: %s", chat.chat_id, error)

    # ------------------------------------------------------------------ tournament matches

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
        clock: TimeControl | None = None,
    ) -> str | None:
        """Start the game of a tournament match under the id the tournament chose (idempotent), with no cap on
        the players' games, on the tournament's ``clock`` (None: none). Returns: the game id. Raises:
        StoreUnavailableError."""
        return await self.start_game(
            variant,
            length,
            players,
            chats,
            kind=kind,
            game_id=game_id,
            tournament=tournament,
            limits=False,
            clock=clock,
        )

    async def end_match(self, game_id: str, loser: int) -> None:
        """End a game session as lost by ``loser`` (a tournament forfeit: the deadline passed or the player
        withdrew): the current game is abandoned and the session finished, whatever the match score. Nothing is
        counted in the stats (a forfeit is not a result, docs/rules.md §8). Idempotent. Returns nothing.

        Raises: StoreUnavailableError."""
        for _ in range(10):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.finished or stored.quarantined:
                return
            record = GameRecord.from_stored(stored)
            match = load_match(record, game_id, self.config.dice)
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
            record.forfeit = loser
            version = await self.saver.write(
                game_id, stored.version, record, finished=True, wake=self.config.clock() + self.config.board_retry_after
            )
            if version is not None:
                self.boards.request(game_id)
                return

    # ------------------------------------------------------------------ buttons

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
        shown_version: int | None = None,
    ) -> str:
        """Apply a button press on the board message ``message_id`` of ``chat_id`` (None: unknown), whose keyboard
        carried ``shown_version`` when Telegram delivered the press (None: unknown; the pressed button's ``version``
        is taken). Returns: the toast to show (a refusal, or "" when applied).

        A press on an old board message (older than the chat's current board) takes that message's keyboard away;
        a press on a newer board message the store never recorded (its poster died) makes it the chat's board; a
        press whose version is behind the stored one brings the board it was made on up to date (an edit to the
        saved version, even when the store believed it shown). None of these changes the game.
        Raises: StoreUnavailableError when the store is down.
        """
        outcome = await self.press_outcome(
            game_id,
            version,
            action,
            user_id,
            lang,
            chat_id=chat_id,
            message_id=message_id,
            shown_version=shown_version,
        )
        return outcome.text

    async def press_outcome(
        self,
        game_id: str,
        version: int,
        action: GameAction,
        user_id: int,
        lang: str,
        *,
        chat_id: int | None = None,
        message_id: int | None = None,
        shown_version: int | None = None,
    ) -> PressOutcome:
        """Apply a press as :meth:`press` does (the same checks, the same compare-and-set) and return what happened
        as a :class:`PressOutcome`: its ``text`` is the toast :meth:`press` shows, its ``status`` tells the
        refusals apart (for the Mini App's answers), ``version`` is the saved version when applied.

        Raises: StoreUnavailableError when the store is down.
        """
        stored = await self.store.get_game(game_id)
        if stored is None or stored.quarantined:
            return PressOutcome(PressStatus.GONE, tr(lang, "toast.gone"))
        record = read_record(stored)
        if record is None:
            return PressOutcome(PressStatus.GONE, tr(lang, "toast.gone"))
        index = record.player_index(user_id)
        if index is None:
            return PressOutcome(PressStatus.NOT_PLAYER, tr(lang, "toast.not_player"))
        lang = record.players[index].lang
        if isinstance(action, GameCommand) and action in (CHOOSE_BOARD, CHOOSE_RESIGN):
            text = await self._chosen(stored, record, action, index, user_id, lang, chat_id)
            return PressOutcome(PressStatus.DONE if not text else PressStatus.ILLEGAL, text)
        resigning = isinstance(action, ResignAction)  # pressed on the resignation menu
        seen = version if shown_version is None else shown_version
        on_board = chat_id is not None and message_id is not None and not resigning
        if chat_id is not None and message_id is not None and not resigning:
            elsewhere = await self._other_message(stored, record, chat_id, message_id, seen, lang)
            if elsewhere is not None:
                return elsewhere
        if stored.version != version:
            if on_board and chat_id is not None and message_id is not None:
                synced = await self.boards.resync(stored, chat_id, message_id, seen)
            else:
                synced = self.boards.behind(stored, record)
                if synced:
                    self.boards.request(game_id)
            return PressOutcome(PressStatus.STALE, tr(lang, "toast.synced" if synced else "toast.stale"))
        if action is GameCommand.REMATCH:
            text = await self._rematch(stored, record, lang)
            return PressOutcome(PressStatus.DONE if not text else PressStatus.ILLEGAL, text)
        if stored.finished:
            return PressOutcome(PressStatus.GONE, tr(lang, "toast.gone"))
        try:
            match = load_match(record, game_id, self.config.dice)
        except (NardyError, ValueError, KeyError):
            log.exception("game %s cannot be loaded", game_id)
            return PressOutcome(PressStatus.GONE, tr(lang, "toast.gone"))
        game = match.game
        events: list[Event] = []
        if action is GameCommand.BERSERK:
            return await self._berserk(game_id, version, record, match, index, lang)
        if isinstance(action, ResignAction):
            if action.player != index:
                return PressOutcome(PressStatus.NOT_TURN, tr(lang, "toast.not_yours"))
            if game.phase in (Phase.OVER, Phase.RESIGN, Phase.OPENING):
                return PressOutcome(PressStatus.ILLEGAL, tr(lang, "toast.bad"))
            try:
                game.resign(index, action.level)
            except NardyError:
                return PressOutcome(PressStatus.ILLEGAL, tr(lang, "toast.bad"))
            record.clear_turn()  # the turn being built is dropped, with its Undo count
        else:
            if game.turn != index:
                return PressOutcome(PressStatus.NOT_TURN, tr(lang, "toast.not_turn"))
            pending = list(record.pending_steps)
            refusal = self._apply(game, record, action, lang, events)
            if refusal:
                reason = step_refusal(game, pending, action, lang) if isinstance(action, StepAction) else None
                return PressOutcome(PressStatus.ILLEGAL, refusal, reason=reason)
        advance(match, record, events)
        record.events = events
        saved = await self.saver.save(game_id, version, record, match)
        if saved is None:
            return PressOutcome(PressStatus.STALE, tr(lang, "toast.stale"))
        self.computer.after_action(game_id, record, match)
        return PressOutcome(PressStatus.DONE, "", version=saved)

    async def _berserk(
        self, game_id: str, version: int, record: GameRecord, match: Match, index: int, lang: str
    ) -> PressOutcome:
        """Make player ``index`` of an arena game berserk (before their first action: half their reserve and no
        delay, docs/rules.md "Arena"), saved with the same compare-and-set as any press. Returns: the outcome."""
        clock = record.clock
        if clock is None or not berserk_allowed(record, index):
            return PressOutcome(PressStatus.ILLEGAL, tr(lang, "arena.berserk.late"))
        record.clock = clock.go_berserk(index)
        record.events = [{"t": "berserk", "player": index}]
        saved = await self.saver.save(game_id, version, record, match)
        if saved is None:
            return PressOutcome(PressStatus.STALE, tr(lang, "toast.stale"))
        return PressOutcome(PressStatus.DONE, tr(lang, "arena.berserk.done"), version=saved)

    async def _other_message(
        self, stored: StoredGame, record: GameRecord, chat_id: int, message_id: int, seen: int, lang: str
    ) -> PressOutcome | None:
        """Answer a press on a message that is not the chat's recorded board: an older one loses its keyboard, a
        newer one of a game's chat (posted by a worker that died before recording it) is adopted as the board.
        Returns: the refusal, or None when the press goes on (the message is, or became, the board)."""
        current = self.boards.current_message(stored, record, chat_id)
        if current == message_id:
            return None
        link = record.chat(chat_id)
        if link is not None and not link.is_inline and (current is None or message_id > current):
            outcome = await self.boards.adopt(stored.game_id, chat_id, message_id, seen)
            if outcome is BoardFence.GRANTED:
                return None
            if outcome is BoardFence.BUSY:
                return PressOutcome(PressStatus.STALE, tr(lang, "toast.stale"))
        if current is None:
            return None
        await self.boards.strip_keyboard(chat_id, message_id)
        return PressOutcome(PressStatus.STALE, tr(lang, "toast.old_board"))

    def _apply(self, game: Game, record: GameRecord, action: GameAction, lang: str, events: list[Event]) -> str | None:
        """Apply one action of the awaited player to the engine; return a refusal text or None."""
        try:
            match action:
                case StepAction():
                    done = _step(game, record, action)
                case TurnAction(index=index):
                    done = _turn(game, record, index)
                case GameCommand.UNDO:
                    done = _undo(game, record)
                case GameCommand.CONFIRM:
                    done = _confirm(game, record, events)
                case ChooseDoubleAction(die=die):
                    done = game.phase is Phase.CHOOSE
                    if done:
                        game.choose_double(die)
                        events.append({"t": "chose", "player": game.roller, "die": die})
                case GameCommand() if action in _PHASE_ACTIONS:
                    phase, call = _PHASE_ACTIONS[action]
                    done = game.phase is phase
                    if done:
                        call(game)
                case _:  # a "which game?" choice or a rematch: not an action on the board
                    done = False
        except NardyError:
            done = False
        return None if done else tr(lang, "toast.bad")

    async def _rematch(self, stored: StoredGame, record: GameRecord, lang: str) -> str:
        """Start a new game with the same players and chats, once per finished game: the new game's id is saved
        in the finished game first (with a wake-up deadline, so its board is brought up to date even after a
        crash), then the game is created under that id, so a retry after a crash creates that same game."""
        if not stored.finished or record.tournament is not None or record.lobby is not None:
            return tr(lang, "toast.bad")  # a lobby game's rematch is agreed by both (bot.services.lobby)
        rematch_id = record.rematch
        if rematch_id is not None:
            if await self.store.get_game(rematch_id) is not None:
                return tr(lang, "toast.bad")
        else:
            rematch_id = new_id()
            record.rematch = rematch_id
            wake = self.config.clock() + self.config.board_retry_after
            marked = await self.store.update_game(stored.game_id, stored.version, record.to_dict(), deadline=wake)
            if marked is None:
                return tr(lang, "toast.stale")  # another press won
            await self.saver.announce(stored.game_id, marked)
            self.boards.request(stored.game_id)
        players = list(reversed(record.players))
        chats = [
            ChatLink(
                c.chat_id, None if c.viewer is None else 1 - c.viewer, lang=c.lang, thread=c.thread, inline=c.inline
            )
            for c in record.chats
        ]
        await self.start_game(
            record.match_kind,
            record.match_length,
            players,
            chats,
            kind=record.kind,
            confirm=record.confirm,
            options=record.match_options,
            game_id=rematch_id,
            clock=None if record.clock is None else record.clock.control,
        )
        return ""

    # ------------------------------------------------------------------ chat-level commands

    async def games_in_chat(self, chat_id: int, user_id: int) -> list[tuple[StoredGame, GameRecord]]:
        """Return the user's active games shown in the chat with their records, oldest first (a game whose record
        cannot be read is left out)."""
        found: list[tuple[StoredGame, GameRecord]] = []
        for game_id in await self.store.user_chat_games(chat_id, user_id):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.finished or stored.quarantined:
                continue
            record = read_record(stored)
            if record is not None and record.player_index(user_id) is not None:
                found.append((stored, record))
        return found

    async def find_game(self, chat_id: int, user_id: int) -> str | None:
        """Return the id of the user's active game shown in the chat (the newest when there are several), or None.
        Raises: StoreUnavailableError."""
        games = await self.games_in_chat(chat_id, user_id)
        return games[-1][0].game_id if games else None

    def _choice_keyboard(
        self, games: list[tuple[StoredGame, GameRecord]], user_id: int, lang: str, action: GameCommand
    ) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[
                [
                    InlineKeyboardButton(
                        text=_describe(record, user_id, lang),
                        callback_data=game_button_data(stored.game_id, stored.version, action),
                    )
                ]
                for stored, record in games[-8:]
            ]
        )

    async def _chosen(
        self,
        stored: StoredGame,
        record: GameRecord,
        action: GameCommand,
        index: int,
        user_id: int,
        lang: str,
        chat_id: int | None,
    ) -> str:
        if stored.finished and action is CHOOSE_RESIGN:
            return tr(lang, "toast.gone")
        target = chat_id if chat_id is not None else user_id
        if action is CHOOSE_BOARD:
            if not await self.boards.repost(stored.game_id, target):
                return tr(lang, "toast.gone")
            return ""
        return await self._send_resign_menu(stored, record, index, target, lang) or ""

    async def _which(
        self, games: list[tuple[StoredGame, GameRecord]], chat_id: int, user_id: int, lang: str, action: GameCommand
    ) -> None:
        links = [record.chat(chat_id) for _, record in games]
        threads = {link.thread for link in links if link is not None}
        thread = threads.pop() if len(threads) == 1 else None  # the games' topic, when they share one
        keyboard = self._choice_keyboard(games, user_id, lang, action)
        await self._notify(ChatLink(chat_id, thread=thread), tr(lang, "choose.game"), keyboard)

    async def text_move(self, chat_id: int, user_id: int, text: str, lang: str) -> str | None:
        """Play a typed move in the user's game in this chat. With several games there, the move goes to the one
        game where the user is to move; if that is not exactly one, the user is asked to use a board.

        Returns: the reply (an error with legal options), or None when it was played.
        Raises: StoreUnavailableError when the store is down.
        """
        games = await self.games_in_chat(chat_id, user_id)
        if not games:
            return tr(lang, "no_game")
        candidates: list[tuple[StoredGame, GameRecord, Match]] = []
        loaded: list[tuple[StoredGame, GameRecord, Match]] = []
        for stored, record in games:
            try:
                match = load_match(record, stored.game_id, self.config.dice)
            except (NardyError, ValueError, KeyError):
                log.exception("game %s cannot be loaded", stored.game_id)
                continue
            loaded.append((stored, record, match))
            index = record.player_index(user_id)
            if match.game.turn == index and match.game.phase in (Phase.MOVE, Phase.ROLL):
                candidates.append((stored, record, match))
        if len(candidates) > 1:
            return tr(lang, "move.ambiguous")
        if not candidates:
            if not loaded:
                return tr(lang, "no_game")
            _, record, _ = loaded[-1]
            lang = record.players[record.player_index(user_id) or 0].lang
            return tr(lang, "toast.not_turn")
        stored, record, match = candidates[0]
        index = record.player_index(user_id)
        assert index is not None
        lang = record.players[index].lang
        game = match.game
        if game.phase is Phase.ROLL:
            return tr(lang, "move.roll_first")
        mover = game.roller
        try:
            move = game.play(text)
        except NardyError as error:
            options = [m.notation for m in game.legal_moves()[:MAX_OPTIONS_SHOWN]]
            reason = tr(lang, "move.error", reason=illegal_move_text(lang, error))
            return reason + "\n" + tr(lang, "move.options", options=", ".join(options))
        record.pending_steps = []
        record.chosen = 0
        events: list[Event] = [{"t": "played", "player": mover, "move": move.notation}]
        advance(match, record, events)
        record.events = events
        if await self.saver.save(stored.game_id, stored.version, record, match) is None:
            return tr(lang, "toast.stale")
        self.computer.after_action(stored.game_id, record, match)
        return None

    async def repost(self, chat_id: int, user_id: int, lang: str) -> str | None:
        """Post the board of the user's game again at the bottom of the chat; the old message loses its keyboard.
        With several games the user chooses one with buttons; without an active game the user's last finished
        game in the chat is shown.

        Returns: a refusal text, or None when done.
        """
        games = await self.games_in_chat(chat_id, user_id)
        if len(games) > 1:
            await self._which(games, chat_id, user_id, lang, CHOOSE_BOARD)
            return None
        if games:
            game_id = games[0][0].game_id
        else:
            finished = await self._last_finished(chat_id, user_id)
            if finished is None:
                return tr(lang, "no_game")
            game_id = finished
        if not await self.boards.repost(game_id, chat_id):
            return tr(lang, "no_game")
        return None

    async def _last_finished(self, chat_id: int, user_id: int) -> str | None:
        for game_id in await self.store.chat_history(chat_id, limit=20):
            stored = await self.store.get_game(game_id)
            record = None if stored is None else read_record(stored)
            if record is not None and record.player_index(user_id) is not None:
                return game_id
        return None

    async def offer_resign_menu(self, chat_id: int, user_id: int, lang: str) -> str | None:
        """Send the resignation levels to the player (asking which game first when there are several).

        Returns: a refusal text, or None when sent.
        """
        games = await self.games_in_chat(chat_id, user_id)
        if not games:
            return tr(lang, "no_game")
        if len(games) > 1:
            await self._which(games, chat_id, user_id, lang, CHOOSE_RESIGN)
            return None
        stored, record = games[0]
        return await self._send_resign_menu(stored, record, record.player_index(user_id) or 0, chat_id, lang)

    async def _send_resign_menu(
        self, stored: StoredGame, record: GameRecord, index: int, chat_id: int, lang: str
    ) -> str | None:
        match = load_match(record, stored.game_id, self.config.dice)
        if match.game.phase in (Phase.OVER, Phase.RESIGN, Phase.OPENING):
            return tr(lang, "toast.bad")
        await self._notify(
            record.chat(chat_id) or ChatLink(chat_id),
            tr(lang, "resign.choose"),
            resign_keyboard(match.game, stored.game_id, stored.version, lang, index),
        )
        return None
