"""Many workers, one truth: deterministic interleavings of two webhook workers on one store and one Telegram.

Each test is one of the defects found when three workers were driven as Telegram drives a busy bot (issue 44), made
to happen on purpose:

- an edit of one worker held in flight (a slow network) while the other saves a newer version: before, the other
  worker's edit landed first and the held one then took the board back in time, while the store kept the newer
  version as shown, so nothing repaired it. Now the held call holds the board's lease: the other worker waits, the
  holder records what landed and draws the newer version itself, and every message's versions only rise;
- a worker killed after Telegram took its edit but before it recorded it; the next worker redraws the board once
  the dead one's lease has lapsed, never showing anything older;
- ``/board`` killed after the new board was recorded but before the old one's keyboard was taken off (the sweep
  takes it off), and killed after Telegram took the new board but before it was recorded (a press on that board
  makes it the chat's board, and the old one loses its keyboard);
- the store lost in the middle of a turn's board call (the sweep finishes it once the store is back);
- a press on a board that shows an older version than the store believes (a residue Telegram alone knows of): the
  press brings that board up to the saved version instead of a bare "try again".

Telegram here is the fake of ``tests/bot/fake_telegram.py``, shared by both workers; every call reaches it through a
:class:`Wire` that records, in arrival order, which version each board message was given.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import pytest
from aiogram.methods import EditMessageMedia, EditMessageText, SendMessage, SendPhoto, TelegramMethod
from aiogram.types import Message

from bot.keyboards.callbacks import GameCb, parse_callback
from bot.model.game import GameRecord
from bot.services.boards import BOARD_LEASE
from bot.services.engine_flow import load_match
from bot.storage import Store, StoreUnavailableError
from tests.bot.e2e.convergence import assert_converged, game_versions, shown_message
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, shown
from tests.bot.fake_telegram import FakeTelegram, ShownMessage
from tests.bot.virtual_time import VirtualClock

GROUP = -970
_BOARD_CALLS = (EditMessageMedia, EditMessageText, SendPhoto, SendMessage)


class Deaths:
    """Which workers died, and the moment each did: a dead worker's next step never comes (it waits forever, as a
    killed process does), and the test, woken by :meth:`wait`, cancels what it was doing."""

    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}

    def event(self, worker: str) -> asyncio.Event:
        return self._events.setdefault(worker, asyncio.Event())

    def dead(self, worker: str) -> bool:
        return self.event(worker).is_set()

    async def die(self, worker: str) -> None:
        """Kill ``worker`` here: its task never goes on."""
        self.event(worker).set()
        await asyncio.Event().wait()

    async def wait(self, worker: str, work: Any) -> None:
        """Run ``work`` (a coroutine of ``worker``) until it ends or the worker dies, whichever comes first."""
        task = asyncio.ensure_future(work)
        death = asyncio.ensure_future(self.event(worker).wait())
        await asyncio.wait({task, death}, return_when=asyncio.FIRST_COMPLETED)
        death.cancel()
        while not task.done():  # a dead worker's clean-up dies too: cancel it again until it is gone
            task.cancel()
            await asyncio.wait({task}, timeout=0.01)
        await asyncio.gather(task, death, return_exceptions=True)

    def revive(self, worker: str) -> None:
        self._events.pop(worker, None)


@dataclass
class Wire:
    """The line between the workers and Telegram: records every board call as Telegram received it, holds a
    worker's calls of one method in flight while a gate is closed, and kills a worker before or after a call."""

    fake: FakeTelegram
    deaths: Deaths
    landed: list[tuple[str, int, int, int]] = field(default_factory=list)
    """(worker, chat, message, version) of every board call Telegram took, in arrival order."""
    gates: dict[tuple[str, str], asyncio.Event] = field(default_factory=dict)
    in_flight: dict[str, list[TelegramMethod[Any]]] = field(default_factory=dict)
    die_before: dict[str, str] = field(default_factory=dict)
    die_after: dict[str, str] = field(default_factory=dict)

    def caller(self, worker: str, bot: Callable[..., Any]) -> Callable[..., Any]:
        """Return the Bot API caller of ``worker``'s sender."""

        async def call(method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
            name = method.__api_method__
            if self.deaths.dead(worker) or self.die_before.get(worker) == name:
                await self.deaths.die(worker)
            gate = self.gates.get((worker, name))
            if gate is not None:
                self.in_flight.setdefault(worker, []).append(method)
                await gate.wait()
            result = await bot(method, request_timeout)
            self._record(worker, method, result)
            if self.die_after.get(worker) == name:
                await self.deaths.die(worker)  # Telegram took the call; the worker never sees its reply
            return result

        return call

    def hold(self, worker: str, method: str) -> asyncio.Event:
        """Hold ``worker``'s calls of ``method`` until the returned gate is set."""
        gate = self.gates[worker, method] = asyncio.Event()
        return gate

    def _record(self, worker: str, method: TelegramMethod[Any], result: Any) -> None:
        if not isinstance(method, _BOARD_CALLS):
            return
        markup = getattr(method, "reply_markup", None)
        versions = [
            parsed.version
            for row in (markup.inline_keyboard if markup is not None else [])
            for button in row
            if isinstance(parsed := parse_callback(button.callback_data), GameCb)
        ]
        message_id = result.message_id if isinstance(result, Message) else getattr(method, "message_id", None)
        if versions and message_id is not None:
            self.landed.append((worker, int(getattr(method, "chat_id", 0)), int(message_id), max(versions)))

    def assert_monotonic(self) -> None:
        """Assert that no board message was ever given an older version than one it had shown."""
        per_message: dict[tuple[int, int], list[int]] = {}
        for _, chat_id, message_id, version in self.landed:
            per_message.setdefault((chat_id, message_id), []).append(version)
        for key, versions in per_message.items():
            assert all(a <= b for a, b in pairwise(versions)), f"board {key} went back in time: {versions}"


class FlakyStore:
    """A worker's store: it can be made unreachable (every call raises StoreUnavailableError), and a chosen call can
    kill the worker once it was made."""

    def __init__(self, store: Store, worker: str, deaths: Deaths) -> None:
        self._store = store
        self._worker = worker
        self._deaths = deaths
        self.down = False
        self.kill_after: str | None = None

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if not callable(attribute) or name == "close":
            return attribute

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self._deaths.dead(self._worker):
                await self._deaths.die(self._worker)
            if self.down:
                raise StoreUnavailableError("storage unavailable: the test took it away")
            result = await attribute(*args, **kwargs)
            if self.kill_after == name:
                self.kill_after = None
                await self._deaths.die(self._worker)
            return result

        return call


async def _no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


@dataclass
class Workers:
    """Two workers (``a`` and ``b``) on one store and one Telegram, and the people of the group game."""

    store: Store
    clock: VirtualClock
    fake: FakeTelegram
    wire: Wire
    a: Env
    b: Env
    flaky: dict[str, FlakyStore]
    game_id: str = ""

    def worker(self, name: str) -> Env:
        return self.a if name == "a" else self.b

    async def restart(self, name: str) -> Env:
        """Replace a dead worker by a new process on the same store and Telegram."""
        env = await _kill(self.worker(name))
        self.wire.deaths.revive(name)
        self.wire.die_before.pop(name, None)
        self.wire.die_after.pop(name, None)
        fresh = _worker(self, name)
        if name == "a":
            self.a = fresh
        else:
            self.b = fresh
        return env

    async def sweep(self, name: str, advance: float = 5.0) -> None:
        """Move time on and let worker ``name`` sweep (boards left behind, leases lapsed)."""
        self.clock.now += advance
        env = self.worker(name)
        await env.service.sweep(self.clock.now)
        await env.service.settle()
        await env.sender.drain()

    async def awaited(self) -> tuple[int, int]:
        """Return (user id, saved version) of the person whose action the game awaits."""
        stored = await self.store.get_game(self.game_id)
        assert stored is not None
        match = load_match(GameRecord.from_stored(stored), self.game_id, self.a.service.config.dice)
        return int(stored.data["players"][match.game.turn]["id"]), stored.version


def _worker(workers: Workers, name: str) -> Env:
    flaky = workers.flaky[name] = FlakyStore(workers.store, name, workers.wire.deaths)
    env = Env(
        flaky,  # type: ignore[arg-type]
        seeded("chaos"),
        fake=workers.fake,
        clock=workers.clock,
        sleep=_no_wait,
        board_retry_after=2.0,
    )
    env.sender._bot = workers.wire.caller(name, env.bot)
    return env


async def _kill(env: Env) -> Env:
    """Stop every task of a worker at once, as ``kill -9`` does (nothing it queued is sent)."""
    tasks = [q.worker for q in env.sender._chats.values() if q.worker is not None]
    tasks += [*env.service.boards.tasks.tasks(), *env.service.computer_turns.tasks.tasks()]
    while any(not task.done() for task in tasks):  # a dead worker's clean-up dies too: cancel it until it is gone
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=0.01)
    await asyncio.gather(*tasks, return_exceptions=True)
    return env


async def _settle(env: Env) -> None:
    await env.service.settle()
    await env.sender.drain()


@pytest.fixture
async def workers(clocked_store: tuple[Store, VirtualClock]) -> AsyncIterator[Workers]:
    """Yield two workers with a short-nardy game started in the group (by worker ``a``)."""
    store, clock = clocked_store
    fake = FakeTelegram()
    made = Workers(store, clock, fake, Wire(fake, Deaths()), None, None, {})  # type: ignore[arg-type]
    made.a, made.b = _worker(made, "a"), _worker(made, "b")
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(GROUP)
    await made.a.h.send_text(alice, group, "/new short")
    await made.a.h.press_button(bob, fake.last_message(GROUP), shown(EN, "btn.join"))
    made.game_id = (await store.chat_games(GROUP))[0]
    yield made
    for env in (made.a, made.b):
        await _kill(env)
        await env.sender.close()


def _first_press(message: ShownMessage, game_id: str) -> str:
    """Return the callback data of the first game button of the message (not a resignation)."""
    for row in message.buttons():
        for button in row:
            data = button.callback_data or ""
            parsed = parse_callback(data)
            if isinstance(parsed, GameCb) and parsed.game_id == game_id and not parsed.action.startswith("rs"):
                return data
    raise AssertionError(f"no game button on {message.content!r}")


async def _press(workers: Workers, name: str, message: ShownMessage | None = None) -> None:
    """The awaited person presses the first game button of the group's board (or of ``message``) through worker
    ``name``."""
    user_id, _ = await workers.awaited()
    board = message or board_message(workers.fake, GROUP)
    user = workers.fake.users[user_id]
    await workers.worker(name).h.feed(
        workers.fake.callback_update(user, GROUP, board.message_id, _first_press(board, workers.game_id))
    )


async def test_a_held_edit_never_lets_a_newer_one_overtake_it(workers: Workers) -> None:
    wire = workers.wire
    for _ in range(2):
        await _press(workers, "a")
    gate = wire.hold("a", "editMessageMedia")
    workers.a.h.settle = _nothing  # type: ignore[method-assign]
    await _press(workers, "a")  # saved; a's edit of that version is now on its way, slowly
    await _in_flight(wire, "a")
    held = wire.in_flight["a"][0]
    assert isinstance(held, EditMessageMedia)
    # meanwhile the awaited person moves in the Mini App (a save through worker b, from the keyboard a is drawing)
    user_id, version = await workers.awaited()
    data = next(b.callback_data for row in held.reply_markup.inline_keyboard for b in row if b.callback_data)  # type: ignore[union-attr]
    parsed = parse_callback(data)
    assert isinstance(parsed, GameCb) and parsed.version == version
    action = parsed.parsed_action()
    assert action is not None
    outcome = await workers.b.service.actions.press_outcome(workers.game_id, version, action, user_id, "en")
    assert outcome.version == version + 1
    await _settle(workers.b)
    assert [w for w, *_ in wire.landed[-1:]] != ["b"]  # b did not edit the board a is editing
    gate.set()
    await _settle(workers.a)
    await workers.sweep("b")
    await workers.sweep("a")
    wire.assert_monotonic()
    await assert_converged(workers.a, workers.game_id, one_keyboard=True)
    message = board_message(workers.fake, GROUP)
    assert game_versions(message, workers.game_id) == {version + 1}


async def _nothing() -> None:
    return None


async def _in_flight(wire: Wire, worker: str) -> None:
    """Wait (real time: the board is drawn in a thread) until one of the worker's held calls is on its way."""
    for _ in range(2000):
        if wire.in_flight.get(worker):
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"no call of worker {worker} was held")


async def test_a_worker_killed_before_recording_its_edit(workers: Workers) -> None:
    await _press(workers, "a")
    workers.flaky["a"].kill_after = "land_board"  # Telegram took the edit; the worker dies before recording it
    await workers.wire.deaths.wait("a", _press(workers, "a"))
    await workers.restart("a")
    await workers.sweep("b")  # the dead worker's lease holds: nobody else may call about that board yet
    await workers.sweep("b", advance=BOARD_LEASE + 1.0)
    workers.wire.assert_monotonic()
    await assert_converged(workers.b, workers.game_id, one_keyboard=True)
    await _press(workers, "b")  # and play goes on
    await workers.sweep("b")
    await assert_converged(workers.b, workers.game_id, one_keyboard=True)


async def test_board_killed_before_the_old_keyboard_is_taken_off(workers: Workers) -> None:
    await _press(workers, "a")
    old = board_message(workers.fake, GROUP)
    workers.wire.die_before["a"] = "editMessageReplyMarkup"
    user_id, _ = await workers.awaited()
    user, group = workers.fake.users[user_id], workers.fake.chat_objects[GROUP]
    await workers.wire.deaths.wait("a", workers.a.h.send_text(user, group, "/board"))
    await workers.restart("a")
    new = board_message(workers.fake, GROUP)
    assert new.message_id != old.message_id and game_versions(old, workers.game_id)  # two live keyboards, for now
    await workers.sweep("b")  # the new board was recorded with the old one as stale: the sweep takes it off
    await assert_converged(workers.b, workers.game_id, one_keyboard=True)
    assert not game_versions(shown_message(workers.fake, GROUP, old.message_id), workers.game_id)


async def test_board_killed_before_the_new_board_is_recorded(workers: Workers) -> None:
    await _press(workers, "a")
    old = board_message(workers.fake, GROUP)
    workers.wire.die_after["a"] = "sendPhoto"  # Telegram took the new board; the worker never saw its reply
    user_id, version = await workers.awaited()
    user, group = workers.fake.users[user_id], workers.fake.chat_objects[GROUP]
    await workers.wire.deaths.wait("a", workers.a.h.send_text(user, group, "/board"))
    await workers.restart("a")
    orphan = board_message(workers.fake, GROUP)
    assert orphan.message_id > old.message_id and game_versions(orphan, workers.game_id) == {version}
    await workers.sweep("b", advance=BOARD_LEASE + 1.0)
    # the person plays on the newest board, which the store never recorded: it becomes the chat's board
    await _press(workers, "b", orphan)
    await workers.sweep("b")
    stored = await workers.store.get_game(workers.game_id)
    assert stored is not None and stored.version == version + 1
    assert stored.boards[GROUP].message_id == orphan.message_id
    assert not game_versions(shown_message(workers.fake, GROUP, old.message_id), workers.game_id)
    workers.wire.assert_monotonic()
    await assert_converged(workers.b, workers.game_id, one_keyboard=True)


async def test_a_store_outage_in_the_middle_of_a_turn(workers: Workers) -> None:
    await _press(workers, "a")
    gate = workers.wire.hold("a", "editMessageMedia")
    workers.a.h.settle = _nothing  # type: ignore[method-assign]
    await _press(workers, "a")  # saved; the board's edit waits
    await _in_flight(workers.wire, "a")
    workers.flaky["a"].down = True  # the store goes away while the edit is on its way
    gate.set()
    await _settle(workers.a)  # the edit landed; recording it failed; the retries fail too
    stored = await workers.store.get_game(workers.game_id)
    assert stored is not None and stored.boards[GROUP].shown_version < stored.version
    workers.flaky["a"].down = False
    await workers.sweep("a")  # the store is back: the sweep brings the board up to date
    workers.wire.assert_monotonic()
    await assert_converged(workers.a, workers.game_id, one_keyboard=True)


async def test_a_press_on_a_board_behind_the_store_redraws_it(workers: Workers) -> None:
    await _press(workers, "a")
    board = board_message(workers.fake, GROUP)
    before = board.reply_markup
    await _press(workers, "a")
    await _press(workers, "a")
    stored = await workers.store.get_game(workers.game_id)
    assert stored is not None and stored.boards[GROUP].shown_version == stored.version
    board.reply_markup = before  # Telegram shows an older board than the store believes (a late landing)
    user_id, version = await workers.awaited()
    await workers.b.h.feed(
        workers.fake.callback_update(
            workers.fake.users[user_id], GROUP, board.message_id, _first_press(board, workers.game_id)
        )
    )
    await _settle(workers.b)
    assert workers.fake.toasts[-1].text == shown(EN, "toast.synced")
    assert game_versions(board, workers.game_id) == {version}
    await assert_converged(workers.b, workers.game_id, one_keyboard=True)
