"""A class's docstring read from its source file, for the tests of both builds.

mypyc's compiled classes carry no ``__doc__``, so the tests that check what a variant's docstring cites read it from
the module's ``.py`` file. The tests import it as ``from class_docs import class_docstring`` (pytest puts
this folder on ``sys.path``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import nardy

ROOT = Path(nardy.__file__).resolve().parent.parent


def class_docstring(cls: type) -> str:
    """Return the docstring of ``cls`` as written in its module's ``.py`` file ('' when it has none)."""
    source = ROOT.joinpath(*cls.__module__.split(".")).with_suffix(".py")
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return ast.get_docstring(node) or ""
    raise LookupError(f"class {cls.__name__} is not defined in {source}")
