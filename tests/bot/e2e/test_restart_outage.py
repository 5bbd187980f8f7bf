"""A game survives a restart (new Dispatcher and Bot on the same store); a Redis outage gets apologies, then play
resumes; overdue turns are reminded and then lost by timeout."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiogram.types import User
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.middlewares.errors import UNAVAILABLE
from bot.storage import RedisGameStore, SqliteGameStore, Store
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, has_entry, shown, shown_message

OUTAGE_PORT = 6391


async def _start_group_game(env: Env, chat_id: int) -> tuple[str, dict[int, User]]:
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(chat_id)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    return await only_game(env.store, group.id), {alice.id: alice, bob.id: bob}


async def _play_presses(env: Env, game_id: str, users: dict[int, User], chat_id: int, count: int) -> None:
    for _ in range(count):
        stored, match = await state(env, game_id)
        if stored.finished:
            return
        version = stored.version
        await press_first(env, awaited_user(stored, match, users), chat_id)
        after = await env.store.get_game(game_id)
        assert after is not None and after.version == version + 1


async def _restart(first: Store, second: Store, chat_id: int) -> None:
    env = Env(first, seeded("restart"))
    game_id, users = await _start_group_game(env, chat_id)
    await _play_presses(env, game_id, users, chat_id, 5)
    before = await first.get_game(game_id)
    await env.close()
    await first.close()
    env2 = Env(second, seeded("restart"), fake=env.fake)
    after = await second.get_game(game_id)
    assert before is not None and after is not None and after.data == before.data
    await _play_presses(env2, game_id, users, chat_id, 5)
    stored = await second.get_game(game_id)
    assert stored is not None and stored.version >= before.version + 1
    await env2.close()
    await second.close()


async def test_restart_sqlite(sqlite_path: str) -> None:
    await _restart(SqliteGameStore(sqlite_path), SqliteGameStore(sqlite_path), -400)


async def test_restart_redis(redis_url: str) -> None:
    await _restart(RedisGameStore.from_url(redis_url), RedisGameStore.from_url(redis_url), -401)


def _ping(port: int) -> bool:
    client = Redis(port=port, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except RedisConnectionError:
        return False
    finally:
        client.close()


def _start_redis(directory: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        ["redis-server", "--port", str(OUTAGE_PORT), "--dir", str(directory), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(500):
        if _ping(OUTAGE_PORT):
            return process
        if process.poll() is not None:
            break
        import time

        time.sleep(0.01)
    process.kill()
    pytest.skip(f"cannot start redis-server on port {OUTAGE_PORT}")


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[Path, list[subprocess.Popen[bytes]]]]:
    """Run a private redis-server on a spare port (the test stops and restarts it)."""
    processes = [_start_redis(tmp_path)]
    yield tmp_path, processes
    for process in processes:
        if process.poll() is None:
            process.terminate()
            process.wait()


async def test_redis_outage_apologises_then_resumes(own_redis: tuple[Path, list[subprocess.Popen[bytes]]]) -> None:
    directory, processes = own_redis
    store = RedisGameStore.from_url(f"redis://127.0.0.1:{OUTAGE_PORT}/0", timeout=2)
    env = Env(store, seeded("outage"))
    fake = env.fake
    game_id, users = await _start_group_game(env, -402)
    await _play_presses(env, game_id, users, -402, 2)
    stored, match = await state(env, game_id)
    user = awaited_user(stored, match, users)
    # stop Redis, keeping its data on disk
    Redis(port=OUTAGE_PORT).shutdown(save=True)
    processes[0].wait()
    board = board_message(fake, -402)
    await press_first(env, user, -402)
    assert fake.toasts_for(user.id)[-1] == shown_message(EN, UNAVAILABLE)
    await env.h.send_text(user, fake.chat_objects[-402], "13/7 8/7")
    assert fake.last_message(-402).content == shown_message(EN, UNAVAILABLE)
    assert board_message(fake, -402).edits == board.edits
    # Redis comes back: play resumes from the saved state
    processes.append(_start_redis(directory))
    await asyncio.sleep(0)
    after = await store.get_game(game_id)
    assert after is not None and after.version == stored.version
    await _play_presses(env, game_id, users, -402, 3)
    await env.close()
    await store.close()


async def test_turn_reminder_then_timeout(sqlite_store: Store) -> None:
    now = [1_000_000.0]
    env = Env(sqlite_store, seeded("timeout"), clock=lambda: now[0], turn_reminder_after=100, turn_timeout=1000)
    game_id, users = await _start_group_game(env, -403)
    stored, match = await state(env, game_id)
    slow = awaited_user(stored, match, users)
    assert await env.service.sweep(now[0] + 50) == 0
    now[0] += 150
    assert await env.service.sweep() == 1
    assert env.fake.last_message(-403).content == shown(EN, "reminder", name=slow.first_name)
    assert await env.service.sweep() == 0  # reminded once
    now[0] += 1000
    assert await env.service.sweep() == 1
    stored, match = await state(env, game_id)
    assert stored.finished and match.game.phase is Phase.OVER
    assert match.game.result is not None and match.game.result.winner != stored.data["players"].index(
        next(p for p in stored.data["players"] if p["id"] == slow.id)
    )
    assert has_entry(board_message(env.fake, -403).content, EN, "over.abandon", loser="Bob")
    await env.close()
