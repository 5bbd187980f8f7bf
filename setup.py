"""Build script: compiles the engine's hot path (``nardy._build.COMPILED_MODULES``) with mypyc when it can, and with
it the C generator of short nardy's board (``nardy._build.C_EXTENSIONS``).

Everything else about the package is in ``pyproject.toml``. Without mypy or a C compiler, or with ``NARDY_PURE=1``
set, no extension is built and the package installs as pure Python (identical results, slower). A built extension
is recorded in ``nardy/_native.json`` with the SHA-256 of each source it came from, so that an edited source is never
shadowed by a stale extension (``nardy/_build.py`` checks at import).
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
BUILD = runpy.run_path(str(ROOT / "nardy" / "_build.py"), run_name="nardy_build_settings")


class OptionalBuildExt(build_ext):
    """Builds the mypyc extension, or nothing when it cannot: the pure sources are then used."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a missing compiler shows up as several distutils error types
            self._discard(f"the compiled engine could not be built ({error}); installing pure Python")
            return
        self._write_manifest()

    def _discard(self, reason: str) -> None:
        print(f"WARNING: {reason}", file=sys.stderr)
        for output in self.get_outputs():
            Path(output).unlink(missing_ok=True)
        self.extensions = []

    def _write_manifest(self) -> None:
        package_dir = Path(self.get_ext_fullpath("nardy._build")).parent
        package_dir.mkdir(parents=True, exist_ok=True)
        (package_dir / BUILD["MANIFEST"]).write_text(json.dumps(BUILD["source_digests"](ROOT), indent=1) + "\n")


def extensions() -> list[Any]:
    """Return mypyc's extension modules for the hot path and the C ones that go with them, or none (pure
    install)."""
    if os.environ.get(BUILD["PURE_ENV"]) == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("WARNING: mypy is not installed; installing the engine as pure Python", file=sys.stderr)
        return []
    try:
        compiled = list(mypycify(list(BUILD["COMPILED_MODULES"]), opt_level="3", group_name=BUILD["GROUP_NAME"]))
    except Exception as error:  # mypyc refuses code it cannot compile: stay pure rather than fail the install
        print(f"WARNING: mypyc could not compile the engine ({error}); installing pure Python", file=sys.stderr)
        return []
    native = [Extension(name, [source], extra_compile_args=["-O2"]) for name, source in BUILD["C_EXTENSIONS"].items()]
    return compiled + native


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
