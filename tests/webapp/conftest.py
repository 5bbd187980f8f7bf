"""Fixtures of the Mini App's browser tests: a real headless Chromium (Debian's, driven by Playwright) and a store.

Without /usr/bin/chromium (or the ``playwright`` package) the browser tests are skipped with the reason, except
under CI=true, where they fail: scripts/ensure-chromium.sh installs the browser before the tests run.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import SqliteGameStore

CHROMIUM = os.environ.get("NARDY_CHROMIUM", "/usr/bin/chromium")


def _missing() -> str | None:
    """Return why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).is_file() and shutil.which(CHROMIUM) is None:
        return f"no Chromium at {CHROMIUM} (scripts/ensure-chromium.sh installs Debian's package)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """Yield a headless Chromium (Playwright's Browser) on Debian's binary; no browser is downloaded."""
    why = _missing()
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        launched = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteGameStore]:
    """Yield an SQLite store on a fresh file."""
    opened = SqliteGameStore(str(tmp_path / "nardy.sqlite3"))
    yield opened
    await opened.close()
