"""Users' real names in the Mini App: emoji, flags, family emoji, CJK and right-to-left scripts are shown as they
are, a right-to-left name keeps its "(you)" after it, and a name too long for its strip is cut on a whole character
("…") before the pip count, never over it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Store
from tests.bot.webapp.appkit import AppEnv
from tests.webapp.browserkit import DIST_DIR, open_app

FSI, PDI = "\u2068", "\u2069"
LONG_NAME = "Алёна 🇷🇺✨ Константиновна-Преображенская-Воскресенская"
PAIRS = [
    (LONG_NAME, "مريم الحسن"),
    ("李小龍", "👨‍👩‍👧‍👦 Семья 🇰🇿"),
]

STRIPS = """() => Array.from(document.querySelectorAll('#board text.name')).map((name) => {
  const side = name.getAttribute('data-side');
  const pips = document.querySelector(`#board text.pips[data-side="${side}"]`);
  const a = name.getBBox(), b = pips.getBBox();
  return { text: name.textContent, right: a.x + a.width, pipsLeft: b.x };
})"""


def _shown_name(text: str) -> str:
    """Return the name of a strip's text: what is between the isolation marks."""
    assert text.startswith(FSI) and PDI in text, repr(text)
    return text[1 : text.index(PDI)]


def _ends_whole(text: str) -> bool:
    """Return whether ``text`` does not end inside a flag (an odd run of regional indicators) or a joined emoji."""
    run = 0
    for char in reversed(text):
        if "\U0001f1e6" <= char <= "\U0001f1ff":
            run += 1
        else:
            break
    return run % 2 == 0 and not text.endswith("\u200d")


@pytest.mark.parametrize("names", PAIRS, ids=["long-and-rtl", "cjk-and-family"])
async def test_real_names_on_the_board(store: Store, browser: Any, tmp_path: Path, names: tuple[str, str]) -> None:
    async with AppEnv(store, seed="names", static_dir=DIST_DIR) as app:
        fake = app.env.fake
        alice, bob = fake.user(701, names[0], "en"), fake.user(702, names[1], "en")
        game_id = await app.group_game(fake.group_chat(-700), alice, bob)
        for user in (alice, bob):
            page = await open_app(browser, app, game_id, user)
            strips = await page.evaluate(STRIPS)
            assert len(strips) == 2
            shown = {_shown_name(s["text"]) for s in strips}
            for strip in strips:
                assert strip["right"] <= strip["pipsLeft"], strip  # the name ends before the pips
                name = _shown_name(strip["text"])
                if name.endswith("…"):  # cut: a prefix of a real name, on a whole character
                    cut = name.removesuffix("…")
                    assert any(n.startswith(cut) for n in names) and _ends_whole(cut), name
            assert names[1] in shown  # the short names are whole
            assert LONG_NAME not in shown  # the long one is cut, and only it
            assert any(n.endswith("…") for n in shown) == (LONG_NAME in names)
            mine = next(s["text"] for s in strips if _shown_name(s["text"]).startswith(user.first_name[:3]))
            assert mine.endswith(f"{PDI} (you)")  # the tag after the name, right-to-left or not
            gallery = os.environ.get("NARDY_GALLERY")
            folder = Path(gallery) / "webapp" if gallery else tmp_path
            folder.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(folder / f"names-{user.id}-{game_id[:4]}.png"), animations="disabled")
            await page.context.close()
