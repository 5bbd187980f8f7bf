"""The clock in the Mini App, in a real headless Chromium (docs/rules.md §1 "Time control"): a single game on
``0+0.25`` (no delay, a reserve of 15 s; both first moves made, as they have a window of their own, counting down
on the page before them); the running player's reserve ticks down on the page from the view's
figures (the server's time is virtual here: the page corrects its own clock by the view's ``now``), the other's
stands; when the time runs out (the services' clock moved past the deadline, two sweeps at once) every page shows the
match lost on time, once, at the same final version as the chat's board."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from bot.model.game import GameRecord
from bot.storage import Store
from bot.texts import tr
from tests.bot.e2e.group_play import board_of, users
from tests.bot.e2e.test_clock import START, Now, open_both
from tests.bot.e2e.texts import EN, has_entry
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import signed_init_data
from tests.webapp.browserkit import DIST_DIR, open_app, page_url, wait_version


async def _reserve(page: Any, side: int) -> int:
    """Return the whole seconds of ``side``'s reserve the page shows."""
    return int(await page.get_attribute(f'.clock[data-side="{side}"]', "data-reserve"))


async def test_the_reserve_ticks_on_the_page_and_running_out_shows_the_loss_once(store: Store, browser: Any) -> None:
    now = Now()
    async with AppEnv(store, seed="clock-page", static_dir=DIST_DIR, clock=now) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=3471)
        chat = app.env.fake.group_chat(-3470)
        game_id = await app.group_game(chat, alice, bob, "short clock 0+0.25")
        await open_both(app.env, game_id, {alice.id: alice, bob.id: bob}, chat.id)
        stored = await store.get_game(game_id)
        assert stored is not None
        record = GameRecord.from_stored(stored)
        clock = record.clock
        assert clock is not None and clock.running is not None and clock.started == START
        side = clock.running
        pages = {
            "alice": await open_app(browser, app, game_id, alice),
            "bob": await open_app(browser, app, game_id, bob),
            "carol": await open_app(browser, app, game_id, carol, language="ru"),
        }
        for page in pages.values():
            assert await page.locator(".clock:not([hidden])").count() == 2
            assert await page.get_attribute(f'.clock[data-side="{side}"]', "data-running") == "true"
            assert await page.get_attribute(f'.clock[data-side="{1 - side}"]', "data-running") == "false"
            assert await _reserve(page, 1 - side) == 15
        # the running reserve ticks down on the page's own clock (a second or two of real time); the other stands
        page = pages["alice"]
        first = await _reserve(page, side)
        assert first <= 15
        await page.wait_for_function(
            f"Number(document.querySelector('.clock[data-side=\"{side}\"]').dataset.reserve) < {first}",
            timeout=10000,
        )
        assert await _reserve(page, 1 - side) == 15
        assert "0:15" in (await page.text_content(f'.clock[data-side="{1 - side}"]') or "")

        # the time runs out: two sweeps at once end the match once
        deadline = clock.deadline()
        assert deadline is not None
        await now.advance(deadline)
        await asyncio.gather(app.env.service.sweep(now.now), app.env.service.sweep(now.now))
        await app.env.service.settle()
        stored = await store.get_game(game_id)
        assert stored is not None and stored.finished
        record = GameRecord.from_stored(stored)
        assert record.clock is not None and record.clock.flag == side
        loser = (alice, bob)[side]
        winner = record.players[1 - side].name
        board = board_of(app.env.fake, stored, chat.id)
        assert has_entry(board.content, EN, "over.time", name=winner, loser=loser.first_name), board.content
        lost = [m for m in app.env.fake.messages(chat.id) if "ran out of time on the clock" in m.content]
        assert lost == [board]  # the chat says it once: on the final board
        _, final = await app.get(game_id, alice)
        for name, page in pages.items():
            await wait_version(page, stored.version)
            assert await page.get_attribute("body", "data-version") == str(stored.version)
            assert await page.get_attribute("body", "data-finished") == "true"
            flags = page.locator(".clock-flag")
            assert await flags.count() == 1  # lost on time, once, on the loser's clock
            assert await page.get_attribute(f'.clock[data-side="{side}"]', "data-flag") == "true"
            assert await page.get_attribute(f'.clock[data-side="{side}"]', "data-running") == "false"
            assert await _reserve(page, side) == 0
            lang = "ru" if name == "carol" else "en"
            assert (await flags.text_content() or "").strip() == tr(lang, "webapp.clock.flag")
            if lang == "en":
                # the caption as the view has it, its side marks drawn as checkers (no text of their own)
                assert await page.text_content("#caption") == final["caption"].replace("\u26aa", "").replace(
                    "\u26ab", ""
                )
                assert "ran out of time on the clock" in final["caption"]
        # the stopped clock stands: no tick after the end
        await asyncio.sleep(1.2)
        assert await _reserve(pages["alice"], side) == 0
        assert await _reserve(pages["alice"], 1 - side) == 15
        for page in pages.values():
            await page.context.close()


@pytest.mark.parametrize("theme", ["classic", "dark"])
async def test_the_delay_counts_down_before_the_reserve(store: Store, browser: Any, tmp_path: Path, theme: str) -> None:
    """On ``5+0.25`` a first move shows its window counting down; then the running clock first shows the delay
    counting down, the reserve untouched; in both board
    themes, the running clock in Telegram's button colours (a screenshot goes to the gallery's
    ``webapp/clock-<theme>.png`` when ``NARDY_GALLERY`` names a folder)."""
    async with AppEnv(store, seed="clock-delay", static_dir=DIST_DIR, clock=Now()) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=3481)
        chat = app.env.fake.group_chat(-3480)
        game_id = await app.group_game(chat, alice, bob, "short clock 5+0.25")
        _, view = await app.get(game_id, alice)
        # the first move: its own window counts down in place of the delay, the reserve untouched
        side = view["clock"]["running"]
        assert side is not None and view["clock"]["first"] is True
        page = await open_app(browser, app, game_id, alice)
        window = page.locator(f'.clock[data-side="{side}"] .clock-delay')
        assert await window.count() == 1
        assert (await window.text_content() or "").startswith(tr("en", "webapp.clock.first") + " ")
        assert await _reserve(page, side) == 15
        await page.context.close()
        await open_both(app.env, game_id, {alice.id: alice, bob.id: bob}, chat.id)
        _, view = await app.get(game_id, alice)
        side = view["clock"]["running"]
        assert side is not None and view["clock"]["delay"] == 5.0
        page = await open_app(browser, app, game_id, alice)
        await page.goto(page_url(app, game_id, signed_init_data(alice.id, alice.first_name), theme=theme))
        await page.wait_for_selector("body[data-ready]")
        assert await page.get_attribute("html", "data-theme") == theme
        running = f'.clock[data-side="{side}"]'
        delay = page.locator(f"{running} .clock-delay")
        assert await delay.count() == 1
        first = await delay.text_content() or ""
        assert first.startswith(tr("en", "webapp.clock.delay") + " ")
        assert await _reserve(page, side) == 15  # the reserve waits for the delay
        await page.wait_for_function(
            f"(document.querySelector('{running} .clock-delay')?.textContent ?? '') !== {first!r}", timeout=10000
        )
        assert await _reserve(page, side) == 15
        colours = await page.evaluate(
            f"""() => {{
                const node = document.querySelector('{running}');
                const probe = document.createElement('div');
                probe.style.background = 'var(--button)';
                document.body.append(probe);
                const want = getComputedStyle(probe).backgroundColor;
                probe.remove();
                return [getComputedStyle(node).backgroundColor, want];
            }}"""
        )
        assert colours[0] == colours[1], colours
        gallery = os.environ.get("NARDY_GALLERY")
        folder = Path(gallery) / "webapp" if gallery else tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(folder / f"clock-{theme}.png"))
        await page.context.close()
