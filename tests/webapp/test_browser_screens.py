"""Every game of the rule book drawn by the Mini App at a phone's size (390 × 844), in both board themes: the page
shows the board of the state (all 15, or 3, checkers of each side on the board, the bar, the trays and the
reserves), and the screenshots go to the gallery when ``NARDY_GALLERY`` names a folder
(``NARDY_GALLERY=gallery python -m pytest tests/webapp/test_browser_screens.py`` writes ``gallery/webapp/*.png``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Store
from nardy.variants import variant_names
from tests.bot.e2e.drive import awaited_user, state
from tests.bot.e2e.group_play import users
from tests.bot.e2e.helpers import board_message
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import signed_init_data
from tests.webapp.browserkit import DIST_DIR, PHONE, page_url


def _out(tmp_path: Path) -> Path:
    """Return the folder the screenshots go to: the gallery's webapp/ when NARDY_GALLERY is set."""
    gallery = os.environ.get("NARDY_GALLERY")
    folder = Path(gallery) / "webapp" if gallery else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("theme", ["classic", "dark"])
async def test_every_board_at_phone_size(store: Store, browser: Any, tmp_path: Path, theme: str) -> None:
    out = _out(tmp_path)
    async with AppEnv(store, seed="screens", static_dir=DIST_DIR) as app:
        context = await browser.new_context(**PHONE)
        await context.route("https://telegram.org/**", lambda route: route.abort())
        page = await context.new_page()
        for number, variant in enumerate(variant_names()):
            alice, bob = users(app.env.fake, "Alice", "Bob", base=600 + 2 * number)
            game_id = await app.group_game(app.env.fake.group_chat(-600 - number), alice, bob, variant)
            status, view = await app.get(game_id, alice)
            assert status == 200, view
            data = signed_init_data(alice.id, "Alice", language="ru" if number % 2 else "en")
            await page.goto(page_url(app, game_id, data, theme=theme))
            await page.wait_for_selector("body[data-ready=yes]")
            assert await page.get_attribute("svg#board", "data-theme") == theme
            checkers = sum(p["count"] for p in view["points"])
            drawn = await page.locator("#board circle.checker:not(.pinned)").count()
            assert (drawn > 0) == (checkers > 0) and drawn <= checkers, (variant, drawn, checkers)
            if view["reserve"] is not None:
                assert await page.locator('#board [data-tray^="reserve-"]').count() == 2
            path = out / f"{variant}-{theme}.png"
            await page.screenshot(path=str(path), animations="disabled")
            assert path.stat().st_size > 10_000
        await context.close()
    _write_index(out)


async def test_a_step_in_the_middle_of_a_turn_in_the_app_and_in_the_chat(
    store: Store, browser: Any, tmp_path: Path
) -> None:
    """The gallery's pair of the turn being built: one step of a short game played, the app and the group's board
    (``mid-turn-app.png``, ``mid-turn-chat.jpg``) both showing the checker on its target and the pips after it."""
    out = _out(tmp_path)
    async with AppEnv(store, seed="screens-mid-turn", static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=700)
        chat = app.env.fake.group_chat(-700)
        game_id = await app.group_game(chat, alice, bob, "short")
        players = {alice.id: alice, bob.id: bob}
        for _ in range(10):  # to a turn of steps: roll when a roll is awaited
            stored, match = await state(app.env, game_id)
            mover = awaited_user(stored, match, players)
            _, view = await app.get(game_id, mover)
            steps = [a["action"] for a in view["actions"] if a["step"] is not None]
            if steps:
                break
            await app.act(game_id, mover, {"version": view["version"], "action": view["actions"][0]["action"]})
        status, played = await app.act(game_id, mover, {"version": view["version"], "action": steps[0]})
        assert status == 200 and played["pending"], played
        assert played["pips"] != view["pips"]  # the step is counted
        context = await browser.new_context(**PHONE)
        await context.route("https://telegram.org/**", lambda route: route.abort())
        page = await context.new_page()
        await page.goto(page_url(app, game_id, signed_init_data(mover.id, mover.first_name)))
        await page.wait_for_selector("body[data-ready=yes]")
        assert await page.get_attribute("body", "data-version") == str(played["version"])
        assert await page.locator("#board .pending").count() > 0
        # the caption's side marks are drawn as the board's checkers, not left to a font's emoji
        assert await page.locator("#caption .mark.side0").count() == await page.locator("#caption .mark.side1").count()
        assert await page.locator("#caption .mark").count() >= 2
        assert "\u26aa" not in (await page.text_content("#caption") or "")
        await page.screenshot(path=str(out / "mid-turn-app.png"), animations="disabled")
        await context.close()
        photo = board_message(app.env.fake, chat.id).photo
        assert photo is not None and len(photo) > 10_000
        (out / "mid-turn-chat.jpg").write_bytes(photo)
    _write_index(out)


def _write_index(folder: Path) -> None:
    """Write ``index.html`` showing every screenshot of the folder, at the phone's size."""
    figures = "\n".join(
        f'<figure><img src="{p.name}" width="390" alt="{p.stem}"><figcaption>{p.stem}</figcaption></figure>'
        for p in sorted([*folder.glob("*.png"), *folder.glob("*.jpg")])
    )
    folder.joinpath("index.html").write_text(
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Nardy Mini App gallery</title>'
        "<style>body{font-family:sans-serif;display:flex;flex-wrap:wrap;gap:16px}</style></head><body>\n"
        f"{figures}\n</body></html>\n",
        encoding="utf-8",
    )
