"""A real Redis server stopped under a running bot: updates get "temporarily unavailable", nothing crashes,
and the same store recovers by itself when the server is back."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bot_testkit import build_app
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.keyboards.callbacks import LangCb
from bot.storage import RedisGameStore, StoreUnavailableError

UNAVAILABLE = "The bot is temporarily unavailable. Please try again in a minute."


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisProcess:
    """A private redis-server process this test starts and stops."""

    def __init__(self, directory: Path) -> None:
        self.port = _free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = Redis.from_url(self.url, socket_connect_timeout=0.2)
        for _ in range(200):  # wait until it answers (bounded; not a timing assertion)
            try:
                client.ping()
                break
            except RedisConnectionError:
                time.sleep(0.05)
        else:
            raise RuntimeError("redis-server did not start")
        client.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None


@pytest.fixture
def redis_process(tmp_path: Path) -> Iterator[RedisProcess]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisProcess(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def test_store_reports_outage_and_recovers(redis_process: RedisProcess) -> None:
    store = RedisGameStore.from_url(redis_process.url, timeout=1.0)
    game_id = await store.create_game({"n": 0})
    redis_process.stop()
    with pytest.raises(StoreUnavailableError):
        await store.get_game(game_id)
    with pytest.raises(StoreUnavailableError):
        await store.update_game(game_id, 1, {"n": 1})
    redis_process.start()  # a new, empty server on the same port
    assert await store.get_game(game_id) is None
    new_id = await store.create_game({"n": 0})
    assert await store.update_game(new_id, 1, {"n": 1}) == 2
    await store.close()


async def test_bot_apologises_while_redis_is_down_and_resumes(redis_process: RedisProcess) -> None:
    store = RedisGameStore.from_url(redis_process.url, timeout=1.0)
    app = build_app(store)
    fake, h = app.fake, app.h
    alice = fake.user(101, "Alice", "en")
    chat = fake.private_chat(alice)
    await h.send_text(alice, chat, "/lang")
    picker = fake.last_message(alice.id)
    await h.press(alice, alice.id, picker.message_id, LangCb(code="en").pack())
    assert fake.toasts_for(alice.id) == ["Language: English"]

    redis_process.stop()
    await h.press(alice, alice.id, picker.message_id, LangCb(code="ru").pack())
    assert fake.toasts_for(alice.id)[-1] == UNAVAILABLE
    await h.send_text(alice, chat, "/start")  # needs no storage: answered in the Telegram language
    assert "Hi, Alice!" in fake.last_message(alice.id).content

    redis_process.start()
    await h.press(alice, alice.id, picker.message_id, LangCb(code="ru").pack())
    assert fake.toasts_for(alice.id)[-1] == "Язык: Русский"
    assert await store.get_user_settings(alice.id) == {"lang": "ru"}
    await app.sender.close()
    await store.close()
