"""The Mini App as Telegram users expect it, tested with Telegram's own ``telegram-web-app.js`` (the copy npm ships in
``@twa-dev/sdk``, served in place of telegram.org's) and a recorder in place of the Telegram client, which gets every
event the script posts: ready and expand, full screen on a phone, vertical swipes held while a checker is dragged,
closing confirmation while a game of the viewer's runs, haptics on a move, Telegram's Back button from a match to its
tournament, and the page's own texts from the catalogue."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from aiogram.types import User

from bot.storage import Store
from bot.texts import tr
from bot.webapp.server import PAGE_TEXT_KEYS
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import signed_init_data
from tests.webapp.browserkit import DIST_DIR, PHONE, page_url, wait_version
from tests.webapp.test_browser_play import center

SDK = Path(__file__).resolve().parents[2] / "webapp" / "node_modules" / "@twa-dev" / "sdk" / "dist"
SDK_SCRIPT = SDK / "telegram-web-apps.js"
RECORDER = """
window.__events = [];
window.TelegramWebviewProxy = {
  postEvent(type, data) { window.__events.push([type, data ? JSON.parse(data) : null]); },
};
"""


async def telegram_page(browser: Any, url: str, *, platform: str = "android", version: str = "8.0") -> Any:
    """Open ``url`` (a page address with init data in its hash) as a Telegram client on ``platform`` running Mini
    Apps ``version`` would: the real telegram-web-app.js, every event it posts recorded in ``window.__events``."""
    if not SDK_SCRIPT.is_file():  # as the browser itself: skipped with the reason, except under CI
        why = f"{SDK_SCRIPT} is missing: run npm ci in webapp/ (scripts/ensure-chromium.sh does)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    context = await browser.new_context(**PHONE)
    await context.add_init_script(RECORDER)

    async def serve_sdk(route: Any) -> None:
        await route.fulfill(path=str(SDK_SCRIPT), content_type="application/javascript")

    await context.route("https://telegram.org/js/telegram-web-app.js*", serve_sdk)
    page = await context.new_page()
    await page.goto(url.replace("tgWebAppPlatform=tdesktop", f"tgWebAppPlatform={platform}&tgWebAppVersion={version}"))
    await page.wait_for_function("() => window.Telegram?.WebApp !== undefined")
    await page.wait_for_selector("body[data-ready]")
    return page


async def events(page: Any, kind: str) -> list[Any]:
    """Return the data of every event of ``kind`` the page posted to Telegram, in order."""
    posted: list[list[Any]] = await page.evaluate("window.__events")
    return [data for name, data in posted if name == kind]


async def test_a_players_page_asks_telegram_for_what_a_game_needs(store: Store, browser: Any) -> None:
    async with AppEnv(store, seed="webapp", static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=571)
        game_id = await app.group_game(app.env.fake.group_chat(-570), alice, bob, "short")
        _, view = await app.get(game_id, alice)
        mover = alice if view["turn"] == 0 else bob
        _, mine = await app.get(game_id, mover)
        page = await telegram_page(browser, page_url(app, game_id, signed_init_data(mover.id, mover.first_name)))
        assert await events(page, "web_app_ready") and await events(page, "web_app_expand")
        assert await events(page, "web_app_request_fullscreen")  # a phone with Mini Apps 8.0
        assert (await events(page, "web_app_setup_closing_behavior"))[-1] == {"need_confirmation": True}
        # a drag holds Telegram's vertical swipes (which would close the app) until the checker is dropped
        step = next(a["step"] for a in mine["actions"] if a["step"] is not None)
        origin = await center(page, f'[data-place="p{step["origin"]}"]')
        target = await center(page, f'[data-place="p{step["target"]}"]')
        await page.mouse.move(*origin)
        await page.mouse.down()
        assert (await events(page, "web_app_setup_swipe_behavior"))[-1] == {"allow_vertical_swipe": False}
        await page.mouse.move(*target, steps=8)
        await page.mouse.up()
        assert (await events(page, "web_app_setup_swipe_behavior"))[-1] == {"allow_vertical_swipe": True}
        await wait_version(page, mine["version"] + 1)
        assert {"type": "impact", "impact_style": "light"} in await events(page, "web_app_trigger_haptic_feedback")


async def test_a_spectator_and_a_desktop_are_not_held(store: Store, browser: Any) -> None:
    async with AppEnv(store, seed="webapp", static_dir=DIST_DIR) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=581)
        game_id = await app.group_game(app.env.fake.group_chat(-580), alice, bob, "short")
        url = page_url(app, game_id, signed_init_data(carol.id, carol.first_name))
        page = await telegram_page(browser, url, platform="tdesktop")
        assert await events(page, "web_app_request_fullscreen") == []  # the whole screen only on a phone
        assert await events(page, "web_app_setup_closing_behavior") in ([], [{"need_confirmation": False}])
        old = await telegram_page(browser, url, version="6.0")  # an old client: nothing it cannot do is asked
        assert await events(old, "web_app_request_fullscreen") == []
        assert await events(old, "web_app_setup_closing_behavior") == []


async def test_a_match_opened_from_its_tournament_goes_back_by_telegrams_back_button(
    store: Store, browser: Any
) -> None:
    async with AppEnv(store, seed="webapp", static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=591)
        game_id = await app.group_game(app.env.fake.group_chat(-590), alice, bob, "short")
        url = page_url(app, game_id, signed_init_data(alice.id, alice.first_name))
        url = url.replace(f"?game={quote(game_id)}", f"?game={quote(game_id)}&tournament=t000000001")
        page = await telegram_page(browser, url)
        assert (await events(page, "web_app_setup_back_button"))[-1] == {"is_visible": True}
        assert await page.locator("#back").count() == 0  # Telegram's button, not the page's own
        # Telegram reports the press; the page goes back to the tournament
        async with page.expect_navigation():
            await page.evaluate("window.Telegram.WebView.receiveEvent('back_button_pressed')")
        assert "tournament=t000000001" in page.url and "game=" not in page.url


async def test_the_page_without_a_game_speaks_the_users_language(store: Store, browser: Any) -> None:
    async with AppEnv(store, seed="webapp", static_dir=DIST_DIR) as app:
        olga = User(id=599, is_bot=False, first_name="Ольга", language_code="ru")
        data = signed_init_data(olga.id, olga.first_name, language="ru")
        base = str(app.client.make_url("/webapp/"))
        page = await telegram_page(browser, f"{base}#tgWebAppData={quote(data, safe='')}&tgWebAppPlatform=tdesktop")
        await page.wait_for_selector("#error:not([hidden])")
        assert await page.text_content("#error") == tr("ru", "webapp.no_game")
        # and leads to the "Play" screen
        assert await page.text_content("#play-entry") == tr("ru", "webapp.play.entry")
        assert "play=1" in (await page.get_attribute("#play-entry", "href") or "")
        async with app.client.get("/webapp/api/texts?lang=en") as response:
            texts = json.loads(await response.text())
        assert texts == {key: tr("en", key) for key in PAGE_TEXT_KEYS}
        assert texts["webapp.no_game"] == tr("en", "webapp.no_game") and "webapp.arena.time_left" in texts
