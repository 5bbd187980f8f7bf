"""Live sockets while the store or Redis cannot be reached: a new socket is told to come back (503, close code 1011)
with one WARNING per outage and no traceback; an open socket skips a version it cannot read and shows the next."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.services.live import RedisLive
from bot.storage import Store, StoreUnavailableError
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import users
from tests.bot.fake_bot_api_server import free_port
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.livekit import first_message, open_socket, refused


class FlakyReads:
    """The store as the live views read it, failing while ``down`` is set."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.down = False
        self.failed = 0

    async def get_game(self, game_id: str) -> Any:
        if self.down:
            self.failed += 1
            raise StoreUnavailableError("ConnectionError: the store is down")
        return await self.store.get_game(game_id)


async def test_a_socket_opened_while_the_store_is_down_is_told_to_come_back(
    sqlite_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=901)
        game_id = await app.group_game(app.env.fake.group_chat(-900), alice, bob)
        views = app.env.service.views
        reads = FlakyReads(sqlite_store)
        views.store = reads  # type: ignore[assignment]
        reads.down = True
        with caplog.at_level(logging.INFO):
            for _ in range(3):
                error, code = await refused(await open_socket(app, game_id, alice))
                assert (error["status"], error["error"], code) == (503, "unavailable", 1011)
                assert error["reason"]
            assert app.live.fanout.followers == 0 and app.live.fanout.listeners == {}
            reads.down = False
            ws = await open_socket(app, game_id, alice)
            assert (await first_message(ws))["type"] == "state"
            await ws.close()
        outage = [r for r in caplog.records if r.name == "bot.services.game_view"]
        assert [r.levelno for r in outage] == [logging.WARNING, logging.INFO]
        assert not any(r.exc_info for r in caplog.records)


async def test_an_open_socket_skips_a_version_it_cannot_read_and_shows_the_next(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        fake = app.env.fake
        alice, bob, carol = users(fake, "Alice", "Bob", "Carol", base=911)
        chat = fake.group_chat(-910)
        game_id = await app.group_game(chat, alice, bob)
        reads = FlakyReads(sqlite_store)
        app.env.service.views.store = reads  # type: ignore[assignment]
        ws = await open_socket(app, game_id, carol)
        assert (await first_message(ws))["type"] == "state"
        reads.down = True
        stored, match = await state(app.env, game_id)
        await press_first(app.env, awaited_user(stored, match, {alice.id: alice, bob.id: bob}), chat.id)
        while not reads.failed:  # the socket tried to read the new version
            await asyncio.sleep(0.01)
        reads.down = False
        stored, match = await state(app.env, game_id)
        await press_first(app.env, awaited_user(stored, match, {alice.id: alice, bob.id: bob}), chat.id)
        saved = await sqlite_store.get_game(game_id)
        assert saved is not None and saved.version > stored.version
        shown = await ws.receive_json()  # the version it could not read was skipped
        assert (shown["type"], shown["state"]["version"]) == ("state", saved.version)
        await ws.close()


async def test_a_socket_that_cannot_follow_while_redis_is_down_is_told_to_come_back(sqlite_store: Store) -> None:
    live = RedisLive(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    async with AppEnv(sqlite_store, live=live) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=921)
        game_id = await app.group_game(app.env.fake.group_chat(-920), alice, bob)
        error, code = await refused(await open_socket(app, game_id, alice))
        assert (error["status"], error["error"], code) == (503, "unavailable", 1011)
        assert live.fanout.followers == 0 and live.fanout.listeners == {}
        assert live.subscription.down
