"""A real Redis server stopped under a running bot: updates get "temporarily unavailable", nothing crashes,
and the same store recovers by itself when the server is back. And a reply lost on the way back (through a
proxy that drops it): creating a game again with the same id creates nothing twice and leaves no orphan."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bot_testkit import build_app
from redis_process import RedisProcess, require_redis_server

from bot.keyboards.callbacks import LangCb
from bot.storage import RedisGameStore, StoreUnavailableError, new_id

UNAVAILABLE = "The bot is temporarily unavailable. Please try again in a minute."


@pytest.fixture
def redis_process(tmp_path: Path) -> Iterator[RedisProcess]:
    require_redis_server()
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


class ReplyDroppingProxy:
    """A TCP proxy in front of a Redis server that can lose one reply: the request is forwarded (the server
    applies it), then the connection is closed instead of passing the reply on — a "lost reply"."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.drop_reply_to: bytes | None = None
        self.dropped = 0
        self.server: asyncio.AbstractServer | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        for task in self.tasks:
            task.cancel()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        losing = asyncio.Event()

        async def requests() -> None:
            while data := await client_r.read(65536):
                if self.drop_reply_to is not None and self.drop_reply_to in data:
                    self.drop_reply_to = None
                    losing.set()
                server_w.write(data)
                await server_w.drain()

        async def replies() -> None:
            while data := await server_r.read(65536):
                if losing.is_set():
                    self.dropped += 1
                    break
                client_w.write(data)
                await client_w.drain()
            client_w.close()
            server_w.close()

        for coro in (requests(), replies()):
            task = asyncio.ensure_future(coro)
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)


@pytest.fixture
async def lossy_redis_url(redis_url: str) -> AsyncIterator[tuple[str, ReplyDroppingProxy]]:
    parts = urlsplit(redis_url)
    proxy = ReplyDroppingProxy(parts.port or 6379)
    port = await proxy.start()
    yield f"redis://127.0.0.1:{port}{parts.path}", proxy
    await proxy.close()


async def test_lost_creation_reply_then_retry_creates_one_indexed_game(
    lossy_redis_url: tuple[str, ReplyDroppingProxy], redis_url: str
) -> None:
    url, proxy = lossy_redis_url
    store = RedisGameStore.from_url(url, timeout=2.0)
    direct = RedisGameStore.from_url(redis_url)
    try:
        await store.redis.script_load(RedisGameStore.CREATE_SCRIPT)  # so the next EVALSHA is the creation itself
        proxy.drop_reply_to = store._create.sha.encode()
        game_id = new_id()
        with pytest.raises(StoreUnavailableError):
            await store.create_game({"n": 0}, game_id=game_id, chat_ids=[-1], user_ids=[5], deadline=50.0)
        assert proxy.dropped == 1
        # The server did create it, and the indices were written before it: nothing is orphaned even now.
        assert await direct.get_game(game_id) is not None
        assert await direct.chat_games(-1) == [game_id]
        # The caller retries with the same id: the same game, nothing created twice.
        assert await store.create_game({"n": 0}, game_id=game_id, chat_ids=[-1], user_ids=[5], deadline=50.0) == game_id
        assert await store.chat_games(-1) == [game_id]
        assert await store.user_games(5) == [game_id]
        assert await store.user_chat_games(-1, 5) == [game_id]
        assert await store.due_games(now=60.0) == [game_id]
        game = await store.get_game(game_id)
        assert game is not None and game.version == 1
        assert [key async for key in direct.redis.scan_iter(match="nardy:{g:*}:game")] == [
            f"nardy:{{g:{game_id}}}:game"
        ]
    finally:
        await store.close()
        await direct.close()


async def test_lost_creation_reply_without_caller_id_leaves_no_orphan(
    lossy_redis_url: tuple[str, ReplyDroppingProxy], redis_url: str
) -> None:
    url, proxy = lossy_redis_url
    store = RedisGameStore.from_url(url, timeout=2.0)
    direct = RedisGameStore.from_url(redis_url)
    try:
        await store.redis.script_load(RedisGameStore.CREATE_SCRIPT)
        proxy.drop_reply_to = store._create.sha.encode()
        with pytest.raises(StoreUnavailableError):
            await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[5], deadline=50.0)
        [key] = [key async for key in direct.redis.scan_iter(match="nardy:{g:*}:game")]
        game_id = key.split("{g:")[1].split("}")[0]
        assert await direct.chat_games(-1) == [game_id]
        assert await direct.user_games(5) == [game_id]
        assert await direct.due_games(now=60.0) == [game_id]
    finally:
        await store.close()
        await direct.close()
