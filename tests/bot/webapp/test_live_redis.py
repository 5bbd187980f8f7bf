"""Live across workers: two Dispatchers ("webhook workers") on one Redis, each with its own Redis pub/sub
follower; a socket open on worker A sees a move made through worker B (a button press and an app action)."""

from __future__ import annotations

from typing import Any

from bot.services.live import RedisLive
from bot.storage import RedisGameStore
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv, open_live


async def next_state(ws: Any, at_least: int) -> dict[str, Any]:
    """Return the first state of at least version ``at_least`` the socket gets."""
    while True:
        message = await ws.receive_json()
        if message["type"] == "state" and message["state"]["version"] >= at_least:
            view: dict[str, Any] = message["state"]
            return view


async def test_a_socket_on_one_worker_sees_a_move_made_through_the_other(
    redis_store: RedisGameStore, redis_url: str
) -> None:
    async with (
        AppEnv(redis_store, "two-workers", live=RedisLive(redis_url)) as worker_a,
        AppEnv(redis_store, "two-workers", live=RedisLive(redis_url)) as worker_b,
    ):
        fake = worker_b.env.fake
        alice, bob, carol = users(fake, "Alice", "Bob", "Carol", base=501)
        chat = fake.group_chat(-500)
        game_id = await worker_b.group_game(chat, alice, bob)
        ws = await open_live(worker_a, game_id, carol)
        first = await next_state(ws, 0)
        # a button press handled by worker B
        stored, match = await state(worker_b.env, game_id)
        await press_first(worker_b.env, awaited_user(stored, match, {alice.id: alice, bob.id: bob}), chat.id)
        pressed = await redis_store.get_game(game_id)
        assert pressed is not None and pressed.version > first["version"]
        seen = await next_state(ws, pressed.version)
        assert seen["version"] == pressed.version and seen["you"] is None
        # an app action posted to worker B
        _, view = await worker_b.get(game_id, alice)
        mover = alice if view["turn"] == 0 else bob
        _, mine = await worker_b.get(game_id, mover)
        action = next(a["action"] for a in mine["actions"] if not a["action"].startswith("rs"))
        status, body = await worker_b.act(game_id, mover, {"version": mine["version"], "action": action})
        assert status == 200, body
        assert (await next_state(ws, body["version"]))["version"] == body["version"]
        await ws.close()
