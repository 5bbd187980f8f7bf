"""Every board converges to its saved game, whatever point a crash hits.

A "process" is a Dispatcher, a Sender and the game services on one store; it is killed at a random input/output
operation (a store call or a Bot API call, before it is made or after it was made but before its reply is seen),
which is what ``kill -9`` does to a real process: nothing after that point runs, and nothing in its memory
survives (its queued edits are lost). A new process on the same store (and the same Telegram) then starts as the
bot does — start-up recovery — and every board of every game must show the saved version: its caption, and its
buttons carrying that version. Play goes on from there, through hundreds of turns and crashes, on both stores.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from aiogram.methods import TelegramMethod
from aiogram.types import User

from bot.model.game import GameRecord
from bot.services.boards import BOARD_LEASE
from bot.services.engine_flow import load_match
from bot.storage import RedisGameStore, SqliteGameStore, Store
from tests.bot.e2e.convergence import assert_converged, shown_message
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.fake_telegram import FakeTelegram


class SimulatedCrash(BaseException):
    """The process died here (a BaseException, so no ``except Exception`` of the bot can swallow it)."""


class Switch:
    """Counts one process's input/output operations and kills the process at the chosen one."""

    def __init__(self, rng: random.Random | None = None, *, budget: int | None = None) -> None:
        """Die at operation number ``budget`` (never when None); before or after it at random."""
        self.rng = rng or random.Random(0)
        self.budget = budget
        self.count = 0
        self.dead = False
        self.crashes = 0

    def before(self) -> None:
        """Called before an operation: raise when the process is dead or dies now (before the operation)."""
        if self.dead:
            raise SimulatedCrash("dead")
        self.count += 1
        if self.budget is not None and self.count >= self.budget and self.rng.random() < 0.5:
            self._die()

    def after(self) -> None:
        """Called after an operation was made: the process may die before it sees the reply."""
        if self.dead:
            raise SimulatedCrash("dead")
        if self.budget is not None and self.count >= self.budget:
            self._die()

    def _die(self) -> None:
        self.dead = True
        self.crashes += 1
        raise SimulatedCrash(f"crash at operation {self.count}")


class CrashingStore:
    """A proxy of a Store whose every coroutine method goes through the switch."""

    def __init__(self, store: Store, switch: Switch) -> None:
        """Wrap ``store``."""
        self._store = store
        self._switch = switch

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if not callable(attr) or name in {"close"}:
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            self._switch.before()
            result = await attr(*args, **kwargs)
            self._switch.after()
            return result

        return call


class CrashingCaller:
    """The sender's Bot API caller, going through the switch."""

    def __init__(self, bot: Callable[..., Any], switch: Switch) -> None:
        """Wrap ``bot``."""
        self._bot = bot
        self._switch = switch

    async def __call__(self, method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
        self._switch.before()
        result = await self._bot(method, request_timeout)
        self._switch.after()
        return result


def _process(store: Store, switch: Switch, fake: FakeTelegram) -> Env:
    env = Env(CrashingStore(store, switch), seeded("crash"), fake=fake, computer_delay=0.0)  # type: ignore[arg-type]
    env.sender._bot = CrashingCaller(env.bot, switch)

    async def settle() -> None:  # a dead process waits for nothing: its background work died with it
        waiter = asyncio.ensure_future(env.service.settle())
        while not waiter.done():
            if switch.dead:
                waiter.cancel()
                raise SimulatedCrash("dead")
            await asyncio.wait({waiter}, timeout=0.01)
        waiter.result()

    env.h.settle = settle
    return env


async def _kill(env: Env, switch: Switch) -> None:
    """Stop every task of the process at once, as a killed process stops (nothing it queued is sent)."""
    switch.dead = True
    tasks = [q.worker for q in env.sender._chats.values() if q.worker is not None]
    tasks += [*env.service.boards.tasks.tasks(), *env.service.computer_turns.tasks.tasks()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _users(fake: FakeTelegram) -> dict[int, User]:
    return {
        1: fake.user(1, "Alice", "en"),
        2: fake.user(2, "Борис", "ru"),
        3: fake.user(3, "Carol", "en"),
        4: fake.user(4, "Dmitri", "ru"),
    }


async def _press_random(env: Env, game_id: str, users: dict[int, User], rng: random.Random) -> bool:
    """Press a random button of the current board of the person whose action is awaited (or Rematch at the end).
    Returns: False when nothing can be pressed."""
    stored = await env.store.get_game(game_id)
    assert stored is not None
    match = load_match(GameRecord.from_stored(stored), game_id, env.service.config.dice)
    game = match.game
    players = stored.data["players"]
    presser = users[players[0]["id"]] if stored.finished else users[players[game.turn]["id"]]
    for chat in stored.data["chats"]:
        if chat.get("viewer") not in (None, players.index(next(p for p in players if p["id"] == presser.id))):
            continue
        state = stored.boards.get(int(chat["chat_id"]))
        if state is None or state.message_id is None:
            continue
        message = shown_message(env.fake, int(chat["chat_id"]), state.message_id)
        buttons = [
            b.callback_data
            for row in message.buttons()
            for b in row
            if b.callback_data and b.callback_data.startswith("g:") and ":rs" not in b.callback_data
        ]
        if stored.finished:
            buttons = [b for b in buttons if b.endswith(":rematch")]
        if not buttons:
            continue
        await env.h.press(presser, int(chat["chat_id"]), state.message_id, rng.choice(buttons))
        return True
    return False


async def _current_games(store: Store) -> list[str]:
    return sorted(set(await store.chat_games(-700)) | set(await store.user_games(3)))


async def _crash_run(
    make_store: Callable[[], Store], seed: int, presses: int, clock: RestartClock | None = None
) -> tuple[int, int]:
    rng = random.Random(seed)
    fake = FakeTelegram()
    users = _users(fake)
    store = make_store()
    switch = Switch(rng)
    env = _process(store, switch, fake)
    group = fake.group_chat(-700)
    await env.h.send_text(users[1], group, "/new short")
    await env.h.press_button(users[2], fake.last_message(group.id), "Join")
    await env.h.send_text(users[3], fake.private_chat(users[3]), "/new long")
    found = re.search(r"\?start=(c_[A-Za-z0-9_-]{10})", fake.last_message(users[3].id).content)
    assert found is not None
    await env.h.send_text(users[4], fake.private_chat(users[4]), f"/start {found.group(1)}")
    games = await _current_games(env.store)
    assert len(games) == 2
    done = 0
    lives = 0
    crashes = 0
    all_games: set[str] = set(games)
    while done < presses:
        switch.budget = switch.count + rng.randint(1, 60)
        try:
            for _ in range(rng.randint(1, 12)):
                games = await _current_games(env.store)
                finished = [g for g in all_games if g not in games]
                targets = games or finished
                if not targets:
                    break
                target = rng.choice(sorted(targets))
                if await _press_random(env, target, users, rng):
                    done += 1
                all_games |= set(await _current_games(env.store))
        except SimulatedCrash:
            pass
        crashes += switch.crashes
        await _kill(env, switch)
        await store.close()
        lives += 1
        if clock is not None:
            clock.restart()
        store = make_store()
        switch = Switch(rng)
        env = _process(store, switch, fake)
        await env.service.recover()
        await env.service.settle()
        all_games |= set(await _current_games(env.store))
        for game_id in sorted(all_games):
            if await env.store.get_game(game_id) is not None:
                await assert_converged(env, game_id)
    await env.close()
    await store.close()
    return lives, crashes


class RestartClock:
    """The stores' clock: real time, moved on by the board lease at every restart. A process killed during a board
    call leaves its lease in the store (:meth:`Store.fence_board`); the next process may call about that board
    once the lease has lapsed, at most ``BOARD_LEASE`` later (and not before: the dead process's call may have
    been made, and may still land, which is exactly what the lease stands for)."""

    def __init__(self) -> None:
        """Start at real time."""
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def restart(self) -> None:
        """A process starts again: the dead one's leases have lapsed."""
        self.offset += BOARD_LEASE


@pytest.mark.parametrize("seed", [1, 2])
async def test_boards_converge_after_crashes_sqlite(sqlite_path: str, seed: int) -> None:
    clock = RestartClock()
    lives, crashes = await _crash_run(lambda: SqliteGameStore(sqlite_path, clock=clock), seed, 250, clock)
    assert lives >= 15 and crashes >= 10


@pytest.mark.parametrize("seed", [3, 8])
async def test_boards_converge_after_crashes_redis(redis_url: str, seed: int) -> None:
    clock = RestartClock()
    lives, crashes = await _crash_run(lambda: RedisGameStore.from_url(redis_url, clock=clock), seed, 250, clock)
    assert lives >= 15 and crashes >= 10
