"""The Mini App's tournament view in a real headless Chromium: a 4-player single elimination run by the bot's
services shows its standings, pairings and bracket; a result made in the chat reaches the open page by its poll; a
click on a playing match opens its board in the app; the start parameter ``t_<id>`` opens the view; the bracket
zooms. A 16-player double elimination's bracket at a phone's size (390 × 844) goes to the gallery
(``NARDY_GALLERY``, as :mod:`tests.webapp.test_browser_screens`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from bot.storage import Store
from tests.bot.e2e.test_tournament_formats import _register
from tests.bot.e2e.tournament_drive import active_games, record_of, resign_game
from tests.bot.webapp.initdata import signed_init_data
from tests.bot.webapp.test_tournament_view import TournamentAppEnv, start_elimination
from tests.webapp.browserkit import DIST_DIR, PHONE
from tests.webapp.test_browser_screens import _out, _write_index


def tournament_url(app: TournamentAppEnv, init_data: str, *, tournament_id: str | None = None, start: str = "") -> str:
    """Return the Mini App's address opening the tournament by ``?tournament=`` or (``start``) by Telegram's start
    parameter in the hash, with ``init_data`` in the hash."""
    base = str(app.client.make_url("/webapp/"))
    query = f"?tournament={quote(tournament_id)}" if tournament_id else ""
    extra = f"&tgWebAppStartParam={quote(start)}" if start else ""
    return f"{base}{query}#tgWebAppData={quote(init_data, safe='')}&tgWebAppPlatform=tdesktop{extra}"


async def new_page(browser: Any) -> Any:
    """Return a page in a new phone-sized context (telegram.org unreachable, as in the other browser tests)."""
    context = await browser.new_context(**PHONE)
    await context.route("https://telegram.org/**", lambda route: route.abort())
    return await context.new_page()


async def test_the_tournament_view_shows_standings_and_bracket_and_opens_a_playing_board(
    store: Store, browser: Any
) -> None:
    async with TournamentAppEnv(store, seed="browser-tour", static_dir=DIST_DIR) as app:
        fake = app.env.fake
        alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
        tournament_id = await start_elimination(app, [alice, bob], 2)
        record = await record_of(app.env, tournament_id)
        data = signed_init_data(alice.id, "Alice", language="en")

        page = await new_page(browser)
        await page.goto(tournament_url(app, data, tournament_id=tournament_id))
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.locator("table.standings tbody tr").count() == 4
        assert await page.locator("table.standings tr.you td.name").inner_text() == "Alice"
        assert await page.locator("ul.pairings li").count() == 2
        assert await page.locator("#bracket-svg g.match").count() == 3
        assert "Semifinal" in (await page.locator("#bracket-svg").text_content() or "")

        # a result made in the chat reaches the open page (its poll), the bracket shows the winner
        version = int(await page.get_attribute("body", "data-version"))
        games = await active_games(app.env, tournament_id)
        people = {alice.id: alice, bob.id: bob}
        played = next(iter(games.values()))
        await resign_game(app.env, played, people)
        await app.env.service.settle()
        await page.wait_for_function(f"Number(document.body.dataset.version) > {version}", timeout=60000)
        assert await page.locator("#bracket-svg text.winner").count() >= 1

        # a click on a match being played opens its board in the app
        record = await record_of(app.env, tournament_id)
        playing = page.locator("#bracket-svg g.match.playing")
        if await playing.count() == 0:  # the resigned game was Alice's and the next round is not on yet
            games = await active_games(app.env, tournament_id)
            assert games, record
            await page.wait_for_selector("#bracket-svg g.match.playing", timeout=60000)
        game_id = await playing.first.get_attribute("data-game")
        assert game_id in record.games.values() or game_id in (await record_of(app.env, tournament_id)).games.values()
        await playing.first.click()
        await page.wait_for_url(f"**game={game_id}**")
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.locator("svg#board").count() == 1
        assert int(await page.get_attribute("body", "data-version")) >= 0
        await page.click("#back")  # and back to the tournament
        await page.wait_for_selector("#bracket-svg g.match")
        assert await page.locator("table.standings tbody tr").count() == 4

        # the start parameter t_<id> (a group's t.me link) opens the same view; the bracket zooms
        await page.goto(tournament_url(app, data, start=f"t_{tournament_id}"))
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.locator("#bracket-svg g.match").count() == 3
        before = float(await page.get_attribute("#bracket", "data-zoom"))
        await page.click('.zoom-bar button[data-zoom="in"]')
        after = float(await page.get_attribute("#bracket", "data-zoom"))
        assert after > before
        width = float(await page.get_attribute("#bracket-svg", "width"))
        await page.click('.zoom-bar button[data-zoom="out"]')
        assert float(await page.get_attribute("#bracket-svg", "width")) < width
        await page.context.close()

        # a stranger may look; forged init data gets the server's 401
        page = await new_page(browser)
        await page.goto(tournament_url(app, signed_init_data(77, "Eve", token="1:forged"), tournament_id=tournament_id))
        await page.wait_for_selector("body[data-ready=error]")
        assert await page.get_attribute("#error", "data-status") == "401"
        await page.context.close()


async def test_a_sixteen_player_bracket_at_phone_size(store: Store, browser: Any, tmp_path: Path) -> None:
    out = _out(tmp_path)
    async with TournamentAppEnv(store, seed="browser-tour-16", static_dir=DIST_DIR) as app:
        fake = app.env.fake
        alice = fake.user(1, "Alice", "en")
        group = fake.group_chat(-1616, admins=[alice.id])
        tournament_id, _ = await _register(app.env, alice, group, [alice], 15, ("Format:",) * 4)
        await app.env.service.settle()
        page = await new_page(browser)
        await page.goto(
            tournament_url(app, signed_init_data(alice.id, "Alice", language="ru"), start=f"t_{tournament_id}")
        )
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.locator("table.standings tbody tr").count() == 16
        assert await page.locator("#bracket-svg g.match").count() >= 30  # 15 + 14 + the grand final(s)
        await page.locator("#bracket").scroll_into_view_if_needed()
        path = out / "tournament-bracket-16.png"
        await page.screenshot(path=str(path), animations="disabled")
        assert path.stat().st_size > 10_000
        await page.context.close()
    _write_index(out)
