"""The Mini App's committed build (bot/webapp/static, the bot package's data, served as it is) is the build of its
sources in webapp/: the test rebuilds it into a temporary folder with the locked esbuild and compares the files."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.webapp.parts import DIST_DIR
from rendering.theme import get_theme, theme_names

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


def _ts_themes() -> dict[str, dict[str, object]]:
    """Return the Mini App's THEMES (webapp/src/board.ts) as plain data: colours as tuples, checkers as a list."""
    source = (WEBAPP / "src" / "board.ts").read_text(encoding="utf-8")
    block = source[source.index("export const THEMES") : source.index("};", source.index("export const THEMES"))]
    themes: dict[str, dict[str, object]] = {}
    for name, body in re.findall(r"\n  (\w+): \{\n(.*?)\n  \},", block, re.S):
        colours: dict[str, object] = {
            key: tuple(int(v) for v in value.split(","))
            for key, value in re.findall(r"^    (\w+): \[([\d, ]+)\],$", body, re.M)
        }
        colours["checkers"] = [
            tuple(tuple(int(v) for v in part.split(",")) for part in checker)
            for checker in re.findall(r"body: \[([\d, ]+)\], rim: \[([\d, ]+)\], text: \[([\d, ]+)\]", body)
        ]
        themes[name] = colours
    return themes


def test_the_mini_app_draws_the_pictures_colours() -> None:
    """The Mini App's board uses rendering/theme.py's colours, colour for colour: the colour-vision-safe markers and
    points of the picture are the app's too."""
    themes = _ts_themes()
    assert set(themes) == set(theme_names())
    for name, colours in themes.items():
        theme = get_theme(name)
        assert len(colours) >= 20, name
        for key, value in colours.items():
            if key == "checkers":
                assert value == [(c.body, c.rim, c.text) for c in theme.checkers], name
            else:
                snake = re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), key)
                assert value == getattr(theme, snake), (name, key)
