"""The Mini App's name strips show each side's pip count, as the Pillow board's do: the catalogue's caption (in the
viewer's language) and the count of the view, left of the match score and clear of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage import Store
from bot.texts import tr
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.webapp.browserkit import DIST_DIR, open_app


async def test_the_strips_show_the_pips_left_of_the_score(store: Store, browser: Any, tmp_path: Path) -> None:
    async with AppEnv(store, seed="pips", static_dir=DIST_DIR) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=660)
        game_id = await app.group_game(app.env.fake.group_chat(-660), alice, bob, "long match 3")
        # a player reads the page in the language it plays in, a spectator in its Telegram's
        for user, language in ((alice, "en"), (carol, "ru")):
            _, view = await app.get(game_id, user)
            assert view["match_length"] == 3
            page = await open_app(browser, app, game_id, user, language=language)
            await page.screenshot(path=str(tmp_path / f"pips-{language}.png"), animations="disabled")
            for side in (0, 1):
                pips = page.locator(f'#board text.pips[data-side="{side}"]')
                assert await pips.text_content() == f"{tr(language, 'board.pips')} {view['pips'][side]}"
                score = page.locator("#board text.score").nth(0 if side == 1 - view["bottom"] else 1)
                pips_box, score_box = await pips.bounding_box(), await score.bounding_box()
                assert pips_box is not None and score_box is not None
                assert pips_box["x"] + pips_box["width"] < score_box["x"]  # the score stays readable
            await page.screenshot(path=str(tmp_path / f"pips-{language}.png"), animations="disabled")
            await page.context.close()
