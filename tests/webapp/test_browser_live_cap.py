"""The page over a cap on live sockets: it shows the server's reason, does not reconnect in a loop, and tries again
only after a long wait, when it goes live and the message goes away."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.services.live import FollowLimits, LocalLive
from bot.storage import Store
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import signed_init_data
from tests.bot.webapp.livekit import first_message, open_socket
from tests.webapp.browserkit import DIST_DIR, PHONE, page_url


async def test_a_page_over_the_cap_says_so_and_tries_again_only_after_a_long_wait(store: Store, browser: Any) -> None:
    live = LocalLive(FollowLimits(per_user=1, per_game=50, per_process=50))
    admitted: list[int] = []
    admit = live.fanout.admit

    def counted(follower: Any) -> None:
        admitted.append(follower.user_id)
        admit(follower)

    live.fanout.admit = counted  # type: ignore[method-assign]
    async with AppEnv(store, live=live, static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=951)
        game_id = await app.group_game(app.env.fake.group_chat(-950), alice, bob)
        elsewhere = await open_socket(app, game_id, alice)  # Alice's board is open on another device
        assert (await first_message(elsewhere))["type"] == "state"

        context = await browser.new_context(**PHONE)
        await context.route("https://telegram.org/**", lambda route: route.abort())
        page = await context.new_page()
        await page.clock.install()  # the page's timers: the test moves them on
        await page.goto(page_url(app, game_id, signed_init_data(alice.id, alice.first_name, language="en")))
        await page.wait_for_selector('body[data-live="refused"]')
        assert await page.get_attribute("#error", "data-status") == "429"
        assert (await page.inner_text("#error")).strip()
        assert await page.get_attribute("body", "data-ready") == "yes"  # the board is shown all the same
        assert admitted == [alice.id, alice.id]

        await asyncio.sleep(2.0)  # a page reconnecting in a loop would have tried again by now, many times
        assert admitted == [alice.id, alice.id]
        assert await page.get_attribute("body", "data-live") == "refused"

        await elsewhere.close()  # the other device closes its board: there is room again
        while live.fanout.followers:
            await asyncio.sleep(0.02)
        await page.clock.fast_forward(31_000)  # the long wait is over
        await page.wait_for_selector('body[data-live="live"]')
        assert admitted == [alice.id, alice.id, alice.id]
        assert await page.is_hidden("#error")
        await context.close()
