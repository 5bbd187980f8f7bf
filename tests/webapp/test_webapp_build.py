"""The Mini App's committed build (bot/webapp/static, the bot package's data, served as it is) is the build of its
sources in webapp/: the test rebuilds it into a temporary folder with the locked esbuild and compares the files."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.webapp.parts import DIST_DIR

ROOT = Path(__file__).resolve().parents[2]
WEBAPP = ROOT / "webapp"
STATIC = ROOT / "bot" / "webapp" / "static"


def test_the_server_serves_the_committed_build() -> None:
    assert DIST_DIR.resolve() == STATIC.resolve()
    assert sorted(p.name for p in STATIC.iterdir()) == ["app.css", "app.js", "index.html"]


def test_the_committed_build_is_the_build_of_the_sources(tmp_path: Path) -> None:
    if not (WEBAPP / "node_modules" / "esbuild").is_dir() or shutil.which("node") is None:
        why = "webapp/node_modules is missing (scripts/test.sh runs npm ci in webapp/)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    subprocess.run(["node", "build.mjs", str(tmp_path)], cwd=WEBAPP, check=True, timeout=300)
    built = sorted(p.name for p in tmp_path.iterdir())
    assert built == ["app.css", "app.js", "index.html"]
    for name in built:
        committed = (STATIC / name).read_bytes()
        assert committed == (tmp_path / name).read_bytes(), (
            f"bot/webapp/static/{name} is stale: run npm run build in webapp/"
        )
