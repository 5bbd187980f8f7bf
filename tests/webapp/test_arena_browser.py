"""The Mini App's arena view in a real headless Chromium, on a fake arena service (:mod:`tests.bot.webapp.arenakit`):
the leaderboard with its 🔥 marks and sheets, the time left ticking on the server's clock (not the page's), a change
of the arena reaching the open page by its conditional poll (an unchanged arena answers 304 and builds no view; a
hidden page is not polled), the pause and back buttons, the viewer's game opened in the app and the way back, and the
start parameter ``arena_<id>``."""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import quote

from bot.storage import Store
from tests.bot.e2e.group_play import users
from tests.bot.webapp.arenakit import ARENA_ID, ArenaAppEnv, FakeArena, Row, sheet
from tests.bot.webapp.initdata import signed_init_data
from tests.webapp.browserkit import DIST_DIR, PHONE

HANG: int = 60000
"""Milliseconds a wait may take before the test is declared hung (a guard, never a speed check)."""
SERVER_AHEAD: float = 3600.0
"""How far the fake server's clock runs ahead of the browser's: the page must count on the server's."""


def app_url(app: ArenaAppEnv, init_data: str, query: str = "", start: str = "") -> str:
    """Return the Mini App's address with ``query`` and the init data (and a start parameter) in the hash."""
    base = str(app.client.make_url("/webapp/"))
    extra = f"&tgWebAppStartParam={quote(start)}" if start else ""
    return f"{base}{query}#tgWebAppData={quote(init_data, safe='')}&tgWebAppPlatform=tdesktop{extra}"


async def new_page(browser: Any) -> Any:
    """Return a page in a new phone-sized context (telegram.org unreachable, as in the other browser tests)."""
    context = await browser.new_context(**PHONE)
    await context.route("https://telegram.org/**", lambda route: route.abort())
    return await context.new_page()


def server_clock() -> float:
    """The fake server's time: an hour ahead of the real one."""
    return time.time() + SERVER_AHEAD


async def set_hidden(page: Any, hidden: bool) -> None:
    """Make the page hidden (or shown again) as a phone does when the app goes to the background."""
    state = "hidden" if hidden else "visible"
    await page.evaluate(
        "state => { Object.defineProperty(document, 'visibilityState', {value: state, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }",
        state,
    )


async def test_the_arena_view_is_live_and_its_buttons_work(store: Store, browser: Any) -> None:
    async with ArenaAppEnv(store, seed="browser-arena", static_dir=DIST_DIR, clock=server_clock) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=931)
        game_id = await app.group_game(app.env.fake.group_chat(-930), alice, bob)
        app.arenas.add(
            ARENA_ID,
            FakeArena(
                title="Arena · short nardy",
                ends_at=server_clock() + 600,
                rows=[
                    Row("931", "Alice", 8, True, sheet((2, False, False), (2, False, False), (4, True, False))),
                    Row("932", "Bob", 5, False, sheet((0, False, False), (3, False, True), (2, False, False))),
                    Row("7", "Vera", 0, False, [], paused=True),
                ],
            ),
        )
        page = await new_page(browser)
        await page.goto(app_url(app, signed_init_data(alice.id, "Alice"), f"?arena={ARENA_ID}"))
        await page.wait_for_selector("body[data-ready=yes]")

        # the leaderboard: ranks, names, 🔥 marks, sheets with the fire and berserk games marked
        rows = page.locator("#arena-board tbody tr")
        assert await rows.count() == 3
        assert await page.locator("#arena-board tr.you td.name").inner_text() == "Alice🔥"
        assert await page.locator("#arena-board tr[data-fire=true]").count() == 1
        assert await page.locator("#arena-board tr[data-player='931'] .sheet .game.fire").inner_text() == "4"
        assert await page.locator("#arena-board tr[data-player='932'] .sheet .game.berserk").count() == 1
        assert await page.locator("#arena-board tr[data-player='7'] .player-mark").inner_text() == "paused"
        assert await page.locator("#arena-board td.score").all_inner_texts() == ["8", "5", "0"]

        # the time left: ten minutes on the server's clock (the page's runs an hour behind), ticking down
        left = int(await page.get_attribute("#arena-time", "data-left"))
        assert 590 <= left <= 600, left
        assert "Time left" in await page.inner_text("#arena-time")
        await page.wait_for_function(
            f"Number(document.querySelector('#arena-time').dataset.left) < {left}", timeout=HANG
        )

        # unchanged: the polls are answered 304, no view is built, nothing is drawn again
        views, shown = app.arenas.asked("view"), await page.get_attribute("body", "data-version")
        await page.wait_for_function("Number(document.body.dataset.polls ?? 0) >= 2", timeout=HANG)
        assert app.arenas.asked("view") == views and await page.get_attribute("body", "data-version") == shown

        # a game of Bob's ends in whichever worker: the open page shows it at its next poll
        def bob_wins(arena: FakeArena) -> None:
            arena.rows[1].score, arena.rows[1].fire = 10, True
            arena.rows[1].sheet = [*arena.rows[1].sheet, {"points": 2, "fire": False, "berserk": False, "won": True}]

        app.arenas.change(ARENA_ID, bob_wins)
        await page.wait_for_function(
            "document.querySelector('#arena-board tbody tr')?.dataset.player === '932'", timeout=HANG
        )
        assert await page.locator("#arena-board tr[data-fire=true]").count() == 2

        # pause, then back
        assert await page.get_attribute("#arena-me", "data-state") == "waiting"
        await page.click("button[data-arena-action=pause]")
        await page.wait_for_selector("button[data-arena-action=back]")
        assert app.arenas.arenas[ARENA_ID].rows[0].paused
        assert await page.get_attribute("#arena-me", "data-state") == "paused"
        assert await page.inner_text("#toast") == "paused"
        await page.click("button[data-arena-action=back]")
        await page.wait_for_selector("button[data-arena-action=pause]")
        assert not app.arenas.arenas[ARENA_ID].rows[0].paused

        # a hidden page is not polled; shown again, it polls at once
        await set_hidden(page, True)
        asked = app.arenas.asked("version")
        await asyncio.sleep(4)  # longer than a poll's period: no poll comes
        assert app.arenas.asked("version") == asked
        app.arenas.change(ARENA_ID, lambda arena: setattr(arena.rows[0], "playing", game_id))
        await set_hidden(page, False)
        await page.wait_for_selector("#my-game", timeout=HANG)

        # my game opens in the app, and leads back to the arena
        assert await page.get_attribute("#my-game", "data-game") == game_id
        await page.click("#my-game")
        await page.wait_for_url(f"**game={game_id}**")
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.locator("svg#board").count() == 1
        await page.click("#back")
        await page.wait_for_selector("#arena-board tbody tr")
        await page.context.close()


async def test_the_start_parameter_opens_the_arena_and_a_stranger_may_join(store: Store, browser: Any) -> None:
    async with ArenaAppEnv(store, seed="browser-arena-2", static_dir=DIST_DIR) as app:
        app.arenas.add(
            ARENA_ID, FakeArena(title="Арена", ends_at=time.time() + 60, rows=[Row("7", "Vera", 2, False, [])])
        )
        page = await new_page(browser)
        await page.goto(app_url(app, signed_init_data(941, "Ольга", language="ru"), start=f"arena_{ARENA_ID}"))
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.get_attribute("#arena-me", "data-state") == "out"
        assert await page.inner_text("#arena-me") == "Вы не играете на этой арене."
        assert await page.inner_text("button[data-arena-action=join]") == "Играть"
        await page.click("button[data-arena-action=join]")
        await page.wait_for_selector("#arena-board tr.you")
        assert await page.locator("button[data-arena-action=leave]").count() == 1
        # the arena's clock runs out: the page says so (games still running do not count)
        app.arenas.change(ARENA_ID, lambda arena: setattr(arena, "finished", True))
        await page.wait_for_selector("#arena-time[data-over=true]", timeout=HANG)
        assert "Арена окончена" in await page.inner_text("#arena-time")
        assert await page.locator("#arena-actions button").count() == 0
        await page.context.close()

        # an unknown arena: the server's 404 in the user's language
        page = await new_page(browser)
        await page.goto(app_url(app, signed_init_data(941, "Ольга", language="ru"), "?arena=AAAAAAAAAA"))
        await page.wait_for_selector("body[data-ready=error]")
        assert await page.get_attribute("#error", "data-status") == "404"
        assert await page.inner_text("#error") == "Такой арены нет."
        await page.context.close()
