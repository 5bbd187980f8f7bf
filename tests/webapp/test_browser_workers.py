"""Two webhook workers on one Redis: a page connected to one worker sees a move made through the other (the
saved version goes over Redis pub/sub to every worker, each pushes the state to its own sockets)."""

from __future__ import annotations

import time
from typing import Any

from bot.services.live import RedisLive
from bot.storage import RedisGameStore
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.webapp.browserkit import DIST_DIR, open_app, shown_version, wait_version


async def test_a_page_on_one_worker_sees_a_move_made_through_the_other(redis_url: str, browser: Any) -> None:
    store_a, store_b = RedisGameStore.from_url(redis_url), RedisGameStore.from_url(redis_url)
    try:
        async with (
            AppEnv(store_a, live=RedisLive(redis_url), static_dir=DIST_DIR) as worker_a,
            AppEnv(store_b, live=RedisLive(redis_url), static_dir=DIST_DIR) as worker_b,
        ):
            alice, bob = users(worker_b.env.fake, "Alice", "Bob", base=701)
            game_id = await worker_b.group_game(worker_b.env.fake.group_chat(-700), alice, bob, "short")
            _, view = await worker_b.get(game_id, alice)
            mover, watcher = (alice, bob) if view["turn"] == 0 else (bob, alice)
            page = await open_app(browser, worker_a, game_id, watcher)
            await page.wait_for_selector('body[data-live="live"]')
            for _ in range(3):
                _, mine = await worker_b.get(game_id, mover)
                if mine["awaited"] != "move":
                    break
                step = next(a for a in mine["actions"] if a["step"] is not None)
                started = time.perf_counter()
                status, body = await worker_b.act(
                    game_id, mover, {"version": mine["version"], "action": step["action"]}
                )
                assert status == 200, body
                await wait_version(page, body["version"])
                took = 1000 * (time.perf_counter() - started)
                print(f"a move through worker B shown on worker A's page after {took:.0f} ms")
                assert await shown_version(page) == body["version"]
    finally:
        await store_a.close()
        await store_b.close()
