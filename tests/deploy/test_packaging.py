"""Installing the project prints no warnings of ours: a wheel built in pip's isolated build environment (the build
requirements of pyproject.toml, as a fresh machine gets them) and an editable install into a clean venv, both of a
copy of the sources. The wheel says ``License-Expression: MIT`` and carries the licences, the fonts, the
catalogues and the Mini App's built front end. The engine is not compiled here (NARDY_PURE=1: the warnings come
from the metadata, and tests/deploy/test_dockerfile.py covers the compiled build)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "nardy", "rendering", "tournaments", "bot")
BUILT = shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.so", "_native.json", "*.egg-info")
PIP_LOCATION_NOTE = re.compile(r"^\s*WARNING: Location '[^']*' is ignored")
"""pip's note about an index location of this machine's pip configuration: not the project's output."""


@pytest.fixture(scope="module")
def source_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a copy of what an install reads (no built extensions, caches or egg-info)."""
    copy = tmp_path_factory.mktemp("nardy-src")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, copy / name, ignore=BUILT)
        else:
            shutil.copy2(path, copy / name)
    return copy


def pip_env() -> dict[str, str]:
    """Return the environment of a pure-Python build, without this machine's byte-code setting."""
    keep = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "VIRTUAL_ENV")}
    return {**keep, "NARDY_PURE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def warnings_in(output: str) -> list[str]:
    """Return the lines of pip's output that warn about the project (deprecations, ignored packages, ...)."""
    suspicious = re.compile(r"warning|deprecat|would be ignored|^\s*!!\s*$", re.IGNORECASE)
    return [line for line in output.splitlines() if suspicious.search(line) and not PIP_LOCATION_NOTE.match(line)]


def test_the_wheel_builds_without_warnings_and_says_mit(source_copy: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), str(source_copy)],
        env=pip_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert warnings_in(output) == []
    (wheel,) = tmp_path.glob("nardy_bot-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(metadata_name).decode())
    assert metadata["License-Expression"] == "MIT"
    assert "License" not in metadata  # the deprecated free-text field is gone
    assert set(metadata.get_all("License-File") or []) >= {"LICENSE", "rendering/fonts/LICENSE"}
    fonts = {
        f"rendering/fonts/{p.name}" for p in (ROOT / "rendering" / "fonts").iterdir() if p.suffix in (".ttf", ".otf")
    }
    assert fonts and fonts <= names, sorted(fonts - names)
    catalogues = {str(p.relative_to(ROOT)) for p in (ROOT / "bot" / "locales").rglob("*.mo")}
    assert catalogues and catalogues <= names
    webapp = {f"bot/webapp/static/{name}" for name in ("index.html", "app.js", "app.css")}
    assert webapp <= names, sorted(webapp - names)  # the Mini App's front end, served from the installed package


def test_an_editable_install_prints_no_warnings(source_copy: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    # this environment's pip (a venv's bundled one may be older and show less of the build's output)
    install = ["install", "--no-deps", "-e", str(source_copy)]
    result = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), *install],
        env=pip_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert warnings_in(output) == []
    imported = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import nardy; print(nardy.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(imported.stdout.strip()).is_relative_to(source_copy)
