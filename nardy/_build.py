"""Which build of the engine's hot path runs: the mypyc-compiled extension modules (with the C generator of short
nardy's board, :data:`C_EXTENSIONS`) or the pure-Python sources.

``pip install`` compiles :data:`COMPILED_MODULES` with mypyc when it can (``setup.py``) and records a SHA-256 of
each source beside them (:data:`MANIFEST`). At import, :func:`select` keeps the compiled modules only when every one
of them was built from the sources that are here now; otherwise, or when the environment sets ``NARDY_PURE=1``,
it makes Python load those modules from their ``.py`` files. Both builds give identical results (the test command
runs the engine's tests on each); the compiled one is faster. No compiler, no mypy: nothing is compiled, and the
pure sources run as they always did.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

COMPILED_MODULES: tuple[str, ...] = (
    "nardy/position.py",
    "nardy/move.py",
    "nardy/movegen.py",
    "nardy/variants/__init__.py",
    "nardy/variants/base.py",
    "nardy/variants/short.py",
    "nardy/variants/long.py",
    "nardy/variants/opposite.py",
    "nardy/variants/plakoto.py",
    "nardy/variants/reserve.py",
    "nardy/variants/fevga.py",
    "nardy/variants/gulbara.py",
)
"""The sources compiled by mypyc, relative to the project root (the parent of the ``nardy`` package)."""

C_EXTENSIONS: dict[str, str] = {"nardy._shortgen": "nardy/_shortgen.c"}
"""The engine's C extension modules (built with the mypyc ones, used only with them) and their sources."""

GROUP_NAME = "nardy._native"
"""mypyc's group: its shared library is the extension module ``nardy._native__mypyc``."""

MANIFEST = "_native.json"
"""The file beside this module that maps each compiled source to the SHA-256 it was compiled from."""

PURE_ENV = "NARDY_PURE"

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent


def module_name(source: str) -> str:
    """Return the dotted module name of a source path such as ``nardy/variants/__init__.py``."""
    parts = source.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_digests(root: Path = _PACKAGE_ROOT) -> dict[str, str]:
    """Return the SHA-256 (hex) of each of :data:`COMPILED_MODULES` and :data:`C_EXTENSIONS`' sources under ``root``.

    Raises:
        OSError: a source cannot be read.
    """
    sources = (*COMPILED_MODULES, *C_EXTENSIONS.values())
    return {source: hashlib.sha256((root / source).read_bytes()).hexdigest() for source in sources}


def _manifest_matches() -> bool:
    try:
        recorded = json.loads((Path(__file__).resolve().parent / MANIFEST).read_text(encoding="utf-8"))
        return bool(recorded == source_digests())
    except (OSError, ValueError):
        return False


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' ``.py`` files, ahead of their extension modules."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.names:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path or sys.path:
            spec = importlib.machinery.FileFinder(entry, loader).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


_FINDER = _SourceFinder(frozenset(module_name(source) for source in COMPILED_MODULES))


def select() -> None:
    """Make the compiled modules load from their sources when ``NARDY_PURE=1`` is set or the compiled build is
    missing or stale; call once, before any of them is imported (``nardy/__init__.py`` does)."""
    if _FINDER in sys.meta_path:
        return
    if os.environ.get(PURE_ENV) == "1" or not _manifest_matches():
        sys.meta_path.insert(0, _FINDER)


def native_selected() -> bool:
    """Return whether the compiled build is the one selected (so its C extensions may be used too): False under
    ``NARDY_PURE=1`` or when the build is missing or stale."""
    return _FINDER not in sys.meta_path


def compiled() -> bool:
    """Return whether the engine's hot path runs compiled (its modules are mypyc extension modules).

    It asks the import system where the move generator loads from (the loaded module's spec once it is imported)
    rather than importing it: the compiled modules import this one, never the other way round.
    """
    spec = importlib.util.find_spec(module_name("nardy/movegen.py"))
    return not ((spec.origin if spec else None) or "").endswith(".py")


if __name__ == "nardy._build":  # imported as the package's module (setup.py reads this file for its settings)
    select()
