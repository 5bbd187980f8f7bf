"""The Mini App's "Play" screen in a real headless Chromium, on a fake lobby (:mod:`tests.bot.webapp.arenakit`):
choose the game and the clock, seek (the rating window and the time waited shown), cancel, seek again and be paired
(the game opens in the app, and leads back), a cool-down shown with its end when a seek is refused, and the start
parameter ``play``."""

from __future__ import annotations

import re
from typing import Any

from bot.model.game import PlayerInfo
from bot.storage import Store
from tests.bot.e2e.group_play import users
from tests.bot.webapp.arenakit import ArenaAppEnv
from tests.bot.webapp.initdata import signed_init_data
from tests.webapp.browserkit import DIST_DIR
from tests.webapp.test_arena_browser import HANG, app_url, new_page


async def test_seek_cancel_and_get_paired(store: Store, browser: Any) -> None:
    async with ArenaAppEnv(store, seed="browser-play", static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=951)
        game_id = await app.group_game(app.env.fake.group_chat(-950), alice, bob)
        page = await new_page(browser)
        await page.goto(app_url(app, signed_init_data(alice.id, "Alice"), "?play=1"))
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.get_attribute("body", "data-state") == "idle"
        assert await page.locator("#variant option").count() >= 10
        assert await page.locator("#clock option").count() >= 3

        # choose long nardy on 15+3 and seek
        await page.select_option("#variant", "long")
        await page.select_option("#clock", "15+3")
        await page.click("button[data-lobby=seek]")
        await page.wait_for_selector("body[data-state=seeking]")
        assert app.lobby.calls[1] == ("seek", (PlayerInfo(id=951, name="Alice", lang="en"), "long", "15+3"))
        assert await page.inner_text("#play-state .seeking") == "Seeking an opponent…"
        assert await page.inner_text("#play-state .what") == "long nardy · ⏱ 15+3"
        assert (await page.inner_text("#play-state .window")).startswith("rating window ±")
        await page.wait_for_function(
            "document.querySelector('#play-state .waited')?.textContent === 'waiting 0:02'", timeout=HANG
        )

        # cancel
        await page.click("button[data-lobby=cancel]")
        await page.wait_for_selector("body[data-state=idle]")
        assert app.lobby.seat(alice.id).state == "idle"

        # seek again, and be paired while the page waits: the game opens in the app
        await page.click("button[data-lobby=seek]")
        await page.wait_for_selector("body[data-state=seeking]")
        app.lobby.pair(alice.id, game_id)
        await page.wait_for_url(f"**game={game_id}**", timeout=HANG)
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.locator("svg#board").count() == 1
        # back to the Play screen, which shows the game being played
        await page.click("#back")
        await page.wait_for_selector("body[data-state=playing]")
        assert await page.get_attribute("#my-game", "data-game") == game_id
        await page.context.close()


async def test_a_cool_down_is_shown_with_its_end(store: Store, browser: Any) -> None:
    async with ArenaAppEnv(store, seed="browser-play-2", static_dir=DIST_DIR) as app:
        page = await new_page(browser)
        await page.goto(app_url(app, signed_init_data(961, "Ольга", language="ru"), start="play"))
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.inner_text("#title") == "Играть"
        until = app.lobby.clock() + 1800
        app.lobby.seat(961).cooldown_until = until
        await page.click("button[data-lobby=seek]")
        await page.wait_for_selector("#cooldown:not([hidden])")
        assert await page.inner_text("#toast") == "cooling down"
        assert float(await page.get_attribute("#cooldown", "data-until")) == until
        text = await page.inner_text("#cooldown")
        # the end on the user's clock in their language (a 24-hour time in Russian), and the time left
        assert re.fullmatch(r"Искать соперника снова можно в \d\d:\d\d\. \(осталось (30:00|29:\d\d)\)", text), text
        assert await page.is_disabled("button[data-lobby=seek]")
        assert await page.get_attribute("body", "data-state") == "idle"
        await page.context.close()
