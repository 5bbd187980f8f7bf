"""Computer turns: after a save that leaves the computer to act, a background task per game waits
``computer_delay``, thinks off the event loop, saves the computer's actions with the same compare-and-set as a
person's, and lets the board converger show them (one board update for the whole reply).

Thinking runs in a process pool (``computer_processes`` workers) in production, so a search never holds the event
loop's GIL; with injected dice or computer factories (tests, tools) it runs in a worker thread instead, because
those need not be picklable. A reply lost to a crash or a shutdown is played by the sweeper: the deadline of a
game awaiting the computer is short (``computer_retry_after``).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import zlib
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, Final

from bot.log_context import bind_game
from bot.model.game import Event, GameRecord
from bot.services.engine_flow import advance, load_match, system_dice
from bot.services.tasks import KeyedTasks, Scheduler
from bot.storage.errors import StoreUnavailableError
from nardy import Match, NardyError, Phase
from nardy.ai import ComputerPlayer, get_player
from nardy.ai.bonus import choose_double

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig
    from bot.storage import GameRecords

log = logging.getLogger(__name__)

MAX_COMPUTER_ACTIONS: Final = 64
"""A bound on the computer's actions in one reply (it only guards against an engine or player bug)."""

ComputerFactory = Callable[[str, str, int], ComputerPlayer]
SaveGame = Callable[[str, int, GameRecord, Match], Awaitable[int | None]]
"""A compare-and-set save of a game (:meth:`bot.services.saving.GameSaver.save`): the new version, or None."""
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


def computer_to_act(record: GameRecord, match: Match) -> int | None:
    """Return the index of the computer player whose action the game awaits, or None."""
    game = match.game
    if game.phase in (Phase.OVER, Phase.OPENING):
        return None
    players = record.players
    return game.turn if 0 <= game.turn < len(players) and players[game.turn].ai else None


def play_computer(
    record: GameRecord, match: Match, seed: int, computer: ComputerFactory = default_computer
) -> list[Event]:
    """Play the computer's actions until a person must act or the game is over (synchronous). Mutates ``match``
    and ``record``; returns the events for the caption."""
    events: list[Event] = []
    players: dict[tuple[int, str], ComputerPlayer] = {}  # per player and variant: a match may rotate variants
    for _ in range(MAX_COMPUTER_ACTIONS):
        index = computer_to_act(record, match)
        if index is None:
            break
        game = match.game
        player = players.get((index, game.variant.name))
        if player is None:
            level = record.players[index].ai
            assert level is not None  # computer_to_act names a computer player
            player = players[index, game.variant.name] = computer(level, game.variant.name, seed)
        record.clear_turn()
        phase = game.phase
        if phase is Phase.ROLL:
            if game.can_double() and player.cube_action(game) == "double":
                game.double()
            else:
                dice = game.roll()
                if game.phase is not Phase.MOVE or game.roller != index:
                    events.append({"t": "forfeit", "player": index, "dice": list(dice)})
        elif phase is Phase.CHOOSE:
            die = choose_double(player, game)
            game.choose_double(die)
            events.append({"t": "chose", "player": index, "die": die})
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


def think_in_process(data: dict[str, Any], seed: int) -> tuple[dict[str, Any], list[Event]]:
    """Run :func:`play_computer` on a stored record (its dict, which crosses the process boundary) with the
    production dice and players (the process pool's job). Returns: the record's dict with the match after the
    reply, and the events. Raises: RecordError when the record cannot be read."""
    record = GameRecord.from_dict(data)
    match = load_match(record, "", system_dice)  # the record's fair dice (a CSPRNG for a game without seeds)
    events = play_computer(record, match, seed)
    record.match = match.to_dict()
    return record.to_dict(), events


def _warm_up() -> None:
    """Import the engine and the players in a fresh worker process (so the first reply does not pay for it)."""
    for variant in ("short", "long"):
        default_computer("hard", variant, 0)


class ComputerTurns:
    """Runs the computer's replies in background tasks, one per game."""

    def __init__(
        self, store: GameRecords, config: GameConfig, scheduler: Scheduler, save: SaveGame, *, processes: int = 1
    ) -> None:
        """Read games from ``store`` and write them with ``save`` (:meth:`bot.services.saving.GameSaver.save`), with
        the dice, delay and computer players of ``config``; hand replies to the job queue of ``scheduler`` when it
        has one; think in ``processes`` worker processes (0: a thread)."""
        self.store = store
        self.config = config
        self.scheduler = scheduler
        self.save = save
        self.processes = processes
        self._pool: Executor | None = None
        self.tasks = KeyedTasks("nardy-computer", sleep=lambda seconds: config.sleep(seconds))

    def _use_processes(self) -> bool:
        return self.processes > 0 and self.config.computer is default_computer and self.config.dice is system_dice

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_up
            )
        return self._pool

    def after_action(self, game_id: str, record: GameRecord, match: Match) -> None:
        """Have the computer reply when the saved action leaves it to act (:meth:`request`). Returns nothing."""
        if computer_to_act(record, match) is not None:
            self.request(game_id)

    def request(self, game_id: str) -> None:
        """Have the computer reply in the game: a ``computer_turn`` job on the scheduler's queue when there is one
        (:mod:`bot.jobs`), else :meth:`wake` in this process. Returns nothing."""
        queue = self.scheduler.queue
        if queue is not None:
            queue.computer_turn(game_id, self.config.computer_delay)
        else:
            self.wake(game_id)

    def wake(self, game_id: str) -> None:
        """Make the computer reply in the game (in a background task, one per game; a running task checks the game
        again when it is done). Returns nothing."""
        self.tasks.request(game_id, self._reply_logged)

    async def _reply_logged(self, game_id: str) -> None:
        try:
            await self.reply(game_id)
            self.tasks.outage.succeeded()
        except StoreUnavailableError as error:  # the sweeper retries the reply once the store is back
            self.tasks.outage.failed(error)
            self.tasks.forget(game_id)
        except Exception:  # the sweeper retries the reply later (the deadline of a computer turn is short)
            log.exception("the computer's reply in game %s failed", game_id)
            self.tasks.forget(game_id)

    async def settle(self) -> None:
        """Wait until no computer reply is running. Returns nothing."""
        await self.tasks.settle()

    async def stop(self) -> None:
        """Cancel the running replies (the sweeper plays them after a restart) and stop the worker processes.
        Returns nothing."""
        await self.tasks.stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    @property
    def running(self) -> bool:
        """Return whether any reply task is running."""
        return self.tasks.busy_any()

    async def _think(
        self, record: GameRecord, match: Match, game_id: str, seed: int
    ) -> tuple[GameRecord, Match, list[Event]]:
        if self._use_processes():
            loop = asyncio.get_running_loop()
            data, events = await loop.run_in_executor(self._executor(), think_in_process, record.to_dict(), seed)
            record = GameRecord.from_dict(data)
            return record, load_match(record, game_id, self.config.dice), events
        events = await asyncio.to_thread(play_computer, record, match, seed, self.config.computer)
        return record, match, events

    async def reply(self, game_id: str, *, wait: bool = True) -> bool:
        """Play the computer's actions in the game if it is to act: wait ``computer_delay`` (when ``wait``; a
        queued job was deferred by it already), think off the event loop, save with compare-and-set (reloading and
        thinking again when a person changed the game meanwhile). Returns: whether a reply was saved.

        Raises: StoreUnavailableError; whatever the computer player raises.
        """
        bind_game(game_id)
        config = self.config
        if wait and config.computer_delay > 0:
            await config.sleep(config.computer_delay)
        for _ in range(5):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.finished or stored.quarantined:
                return False
            record = GameRecord.from_stored(stored)
            match = load_match(record, game_id, config.dice)
            if computer_to_act(record, match) is None:
                return False
            seed = zlib.crc32(f"{game_id}:{stored.version}".encode())
            record, match, events = await self._think(record, match, game_id, seed)
            record.events = events
            if await self.save(game_id, stored.version, record, match) is None:
                continue  # a person acted meanwhile (e.g. resigned): think again on the new state
            return True
        return False
