"""Helpers of the browser tests: open the Mini App as a Telegram user, read what the page shows."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from aiogram.types import User

from bot.webapp.parts import DIST_DIR
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import signed_init_data

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": False}
"""A phone's screen (390 × 844 CSS pixels)."""


def page_url(app: AppEnv, game_id: str, init_data: str, *, theme: str | None = None) -> str:
    """Return the Mini App's address for the game with ``init_data`` in the URL hash, where Telegram puts it
    (``#tgWebAppData=...``)."""
    base = str(app.client.make_url("/webapp/"))
    query = f"?game={quote(game_id)}" + (f"&theme={theme}" if theme else "")
    return f"{base}{query}#tgWebAppData={quote(init_data, safe='')}&tgWebAppPlatform=tdesktop"


async def open_app(
    browser: Any,
    app: AppEnv,
    game_id: str,
    user: User | None,
    *,
    init_data: str | None = None,
    language: str = "en",
    hash_extra: str = "",
) -> Any:
    """Open the Mini App on the game in a new browser context signed in as ``user`` (or with ``init_data`` as
    given; ``hash_extra``: more of Telegram's hash parameters) and wait until its first state (or its error) is
    shown; return the page."""
    context = await browser.new_context(**PHONE)
    # telegram-web-app.js is not reachable here: the page works from the URL hash without it
    await context.route("https://telegram.org/**", lambda route: route.abort())
    page = await context.new_page()
    data = init_data
    if data is None:
        assert user is not None
        data = signed_init_data(user.id, user.first_name, language=language)
    await page.goto(page_url(app, game_id, data) + hash_extra)
    await page.wait_for_selector("body[data-ready]")
    return page


async def shown_version(page: Any) -> int:
    """Return the version of the state the page shows."""
    return int(await page.get_attribute("body", "data-version"))


async def wait_version(page: Any, version: int) -> None:
    """Wait until the page shows ``version`` (or newer); the bound only stops a hung test, it is no speed check."""
    await page.wait_for_function(f"Number(document.body.dataset.version) >= {version}", timeout=60000)


__all__ = ["DIST_DIR", "PHONE", "open_app", "page_url", "shown_version", "wait_version"]
