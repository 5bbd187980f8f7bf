"""The two builds of the engine's hot path (nardy/_build.py): which one runs, that a stale compiled module is never
used, and that both list the same legal moves."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import nardy
from nardy import _build, compiled_engine, get_variant, legal_moves
from nardy.variants.base import GameValue, Pool, TurnContext
from nardy.variants.fevga import FevgaContext

ROOT = Path(nardy.__file__).resolve().parent.parent

DIGEST_SCRIPT = """
import hashlib, json, random, sys
import nardy
from nardy import get_variant, legal_moves
from nardy.variants import registered_variants

digest = hashlib.sha256()
for variant in registered_variants():
    rng = random.Random(variant.name)
    for _ in range(int(sys.argv[1])):
        position = variant.initial_position()
        for ply in range(300):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            moves = legal_moves(variant, position, dice, first_turn=ply < 2)
            digest.update(" ".join(sorted(f"{m.notation}={m.position.key()}" for m in moves)).encode())
            if not moves:
                position = position.swapped()
                continue
            after = rng.choice(moves).position
            if variant.borne_off(after.me) == variant.checkers:
                break
            position = after.swapped()
print(json.dumps({"compiled": nardy.compiled_engine(), "digest": digest.hexdigest()}))
"""


def run_digest(env_pure: bool, games: int, cwd: Path = ROOT) -> dict[str, object]:
    """Return what DIGEST_SCRIPT prints when run in a fresh interpreter in ``cwd`` (``NARDY_PURE=1`` if asked)."""
    env = {key: value for key, value in os.environ.items() if key != _build.PURE_ENV}
    if env_pure:
        env[_build.PURE_ENV] = "1"
    env["PYTHONPATH"] = str(cwd)
    done = subprocess.run(
        [sys.executable, "-c", DIGEST_SCRIPT, str(games)], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_expected_build_runs() -> None:
    """scripts/test.sh says which build it tests (NARDY_EXPECTED_BUILD); the run must be on that one."""
    expected = os.environ.get("NARDY_EXPECTED_BUILD")
    if expected is None:
        pytest.skip("NARDY_EXPECTED_BUILD is set by scripts/test.sh")
    assert compiled_engine() == (expected == "compiled")


def test_module_names_of_the_compiled_sources() -> None:
    assert _build.module_name("nardy/variants/__init__.py") == "nardy.variants"
    assert _build.module_name("nardy/movegen.py") == "nardy.movegen"
    for source in _build.COMPILED_MODULES:
        assert (ROOT / source).is_file()


def test_both_builds_list_the_same_moves_in_every_variant() -> None:
    """Seeded games of every variant, every legal move and the position after it: the same on both builds (when
    only the pure build is installed the two runs are the same build, and still must agree)."""
    pure = run_digest(env_pure=True, games=3)
    native = run_digest(env_pure=False, games=3)
    assert pure["compiled"] is False
    assert native["compiled"] is _manifest_present()
    assert pure["digest"] == native["digest"]


def _manifest_present() -> bool:
    manifest = ROOT / "nardy" / _build.MANIFEST
    return manifest.is_file() and json.loads(manifest.read_text()) == _build.source_digests()


def test_an_edited_source_is_never_shadowed_by_its_stale_compiled_module(tmp_path: Path) -> None:
    """A copy of the package whose movegen.py differs from what was compiled runs every module from source."""
    shutil.copytree(ROOT / "nardy", tmp_path / "nardy", ignore=shutil.ignore_patterns("__pycache__"))
    intact = run_digest(env_pure=False, games=1, cwd=tmp_path)
    assert intact["compiled"] is _manifest_present()
    with (tmp_path / "nardy" / "movegen.py").open("a") as source:
        source.write("\n# edited after the build\n")
    edited = run_digest(env_pure=False, games=1, cwd=tmp_path)
    assert edited["compiled"] is False
    assert edited["digest"] == intact["digest"]


def test_the_manifest_records_each_source() -> None:
    digests = _build.source_digests()
    assert set(digests) == {*_build.COMPILED_MODULES, *_build.C_EXTENSIONS.values()}
    source = (ROOT / "nardy" / "movegen.py").read_bytes()
    assert digests["nardy/movegen.py"] == hashlib.sha256(source).hexdigest()


def test_values_survive_pickle_and_copy_on_this_build() -> None:
    """The compiled build's frozen classes cannot be restored field by field; their ``__reduce__`` rebuilds them
    (the bot's worker processes and the analysis pickle moves and positions)."""
    short = get_variant("short")
    moves = legal_moves(short, short.initial_position(), (3, 1))
    values: list[object] = [
        *moves,
        moves[0].steps[0],
        moves[0].position,
        TurnContext(3, 2, False),
        FevgaContext(3, 2, False, False),
        GameValue("gammon", 2),
        Pool((6, 6), 3, True),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value and copy.copy(value) == value
        assert type(pickle.loads(pickle.dumps(value))) is type(value)
