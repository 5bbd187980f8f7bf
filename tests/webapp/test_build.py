"""The Mini App's committed build (webapp/dist, served by the bot as it is) is the build of its sources: the test
rebuilds it into a temporary folder with the locked esbuild and compares the files."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

WEBAPP = Path(__file__).resolve().parents[2] / "webapp"


def test_dist_is_the_build_of_the_sources(tmp_path: Path) -> None:
    if not (WEBAPP / "node_modules" / "esbuild").is_dir() or shutil.which("node") is None:
        why = "webapp/node_modules is missing (scripts/test.sh runs npm ci in webapp/)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    subprocess.run(["node", "build.mjs", str(tmp_path)], cwd=WEBAPP, check=True, timeout=300)
    built = sorted(p.name for p in tmp_path.iterdir())
    assert built == ["app.css", "app.js", "index.html"]
    for name in built:
        committed = (WEBAPP / "dist" / name).read_bytes()
        assert committed == (tmp_path / name).read_bytes(), f"webapp/dist/{name} is stale: run npm run build in webapp/"
