"""Memory after a flood of live sockets: nothing of a closed socket stays in the fan-out or in memory, and once a mass
of sockets has closed the process gives its memory back, once."""

from __future__ import annotations

import asyncio
import gc
import platform
import sys

from aiohttp import web

from bot.memory import GivenBack, give_back
from bot.services.live import Fanout, FollowLimits, LocalLive
from bot.storage import Store
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.livekit import first_message, open_socket, refused
from tests.bot.webapp.test_live_shared import server_sockets


async def test_a_flood_that_closes_leaves_nothing_behind_and_memory_is_given_back_once(sqlite_store: Store) -> None:
    calls: list[int] = []

    async def memory() -> GivenBack:
        calls.append(fanout.followers)
        return GivenBack(0, True, rss_before=10.0, rss_after=5.0, collect_seconds=0.0, trim_seconds=0.0)

    fanout = Fanout(
        FollowLimits(per_user=50, per_game=50, per_process=50), give_back_after=8, give_back_quiet=0.1, memory=memory
    )
    live = LocalLive(fanout=fanout)
    async with AppEnv(sqlite_store, live=live) as app:
        fake = app.env.fake
        people = users(fake, *(f"P{i}" for i in range(12)), base=801)
        alice, bob = people[:2]
        game_id = await app.group_game(fake.group_chat(-800), alice, bob)
        other_id = await app.group_game(fake.group_chat(-801), alice, bob)
        flood = [await open_socket(app, (game_id, other_id)[i % 2], who) for i, who in enumerate(people)]
        for ws in flood:
            assert (await first_message(ws))["type"] == "state"
        assert fanout.followers == fanout.peak == 12
        kept, leaving = flood[:2], flood[2:]
        for ws in leaving[:5]:
            await ws.close()
        await asyncio.sleep(0.3)
        assert calls == []  # five left: not a mass departure
        for ws in leaving[5:]:
            await ws.close()
        while not calls:
            await asyncio.sleep(0.02)
        assert calls == [2]  # once, when the ten had left
        assert fanout.peak == 2 and len(fanout.given_back) == 1
        # the closed sockets left nothing: neither their counts nor their listeners
        assert fanout.followers == 2 and sum(fanout.users.values()) == 2 and sum(fanout.games.values()) == 2
        assert sum(len(listeners) for listeners in fanout.listeners.values()) == 2
        assert len(server_sockets(app)) == 2
        for ws in kept:
            await ws.close()
        while fanout.followers:
            await asyncio.sleep(0.02)
        assert fanout.listeners == {} and not fanout.users and not fanout.games
        await asyncio.sleep(0.3)
        assert calls == [2]  # two more leaving is no mass departure


async def test_a_socket_the_server_closed_is_freed_at_once(sqlite_store: Store) -> None:
    """A refused socket (closed by the server) leaves no timer behind that would keep it alive: aiohttp re-arms a
    closed socket's heartbeat when the client's closing frame comes, which held every refused socket for 30 s."""
    live = LocalLive(FollowLimits(per_user=1, per_game=50, per_process=50))
    async with AppEnv(sqlite_store, live=live) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=821)
        game_id = await app.group_game(app.env.fake.group_chat(-820), alice, bob)
        kept = await open_socket(app, game_id, alice)
        assert (await first_message(kept))["type"] == "state"
        gc.collect()
        before = _server_sockets_in_memory()
        for _ in range(10):
            ws = await open_socket(app, game_id, alice)
            _, code = await refused(ws)
            assert code == 4429
            await ws.close()
        await asyncio.sleep(0.2)
        gc.collect()
        assert _server_sockets_in_memory() == before
        await kept.close()


def _server_sockets_in_memory() -> int:
    """Return how many of the server's WebSocket responses are still in memory."""
    return sum(isinstance(thing, web.WebSocketResponse) for thing in gc.get_objects())


async def test_give_back_collects_and_trims_with_glibc() -> None:
    done = await give_back()
    assert done.collected >= 0 and done.collect_seconds >= 0 and done.trim_seconds >= 0
    if sys.platform == "linux":
        assert done.rss_before > 0 and done.rss_after > 0
    if platform.libc_ver()[0] == "glibc":
        assert done.trimmed  # glibc's malloc_trim was found and called
