#!/usr/bin/env bash
# Runs the Docker image's install steps on this machine, without Docker: copies what the Dockerfile's build stage
# COPYs (read from the Dockerfile itself, less what .dockerignore leaves out of the context: caches, built
# extensions) into a temporary directory, creates a clean venv there, and runs scripts/docker-build-steps.sh
# exactly as the Dockerfile does: `dependencies`, `project` (compiles the engine, fails if it stays pure Python),
# then `runtime-check` (compiled engine, fonts, Pillow's raqm + fribidi + harfbuzz), and that the installed bot
# carries the Mini App's built front end (bot/webapp/static).
#
# What it cannot check: the image's own base (python:3.11-slim-bookworm) and its apt packages. Here the C compiler
# and libfribidi0 are this machine's; in the image, build-essential and libfribidi0 provide them.
#
# Usage: scripts/check-image-install.sh   (PYTHON=python3.11 to choose the interpreter; KEEP=1 keeps the directory)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PYTHON=${PYTHON:-python3}

work=$(mktemp -d "${TMPDIR:-/tmp}/nardy-image-check.XXXXXX")
if [ "${KEEP:-}" != 1 ]; then
  trap 'rm -rf "$work"' EXIT
fi

# The build stage's COPY instructions -> files under $work/src (its WORKDIR) or $work/root (absolute targets).
"$PYTHON" - "$ROOT" "$work" <<'PY'
import fnmatch
import shutil
import sys
from pathlib import Path

root, work = Path(sys.argv[1]), Path(sys.argv[2])
lines = (root / "Dockerfile").read_text(encoding="utf-8").splitlines()
stages = [i for i, line in enumerate(lines) if line.upper().startswith("FROM ")]
build_stage = lines[stages[0] : stages[1]]
workdir = next(line.split()[1] for line in build_stage if line.upper().startswith("WORKDIR "))
excluded = ["__pycache__", "*.py[cod]", "*.so", "_native.json", ".mypy_cache", ".ruff_cache", ".pytest_cache"]


def ignore(_directory: str, names: list[str]) -> set[str]:
    return {n for n in names if any(fnmatch.fnmatch(n, pattern) for pattern in excluded)}


copies = 0
for line in build_stage:
    words = line.split()
    if not words or words[0].upper() != "COPY" or any(w.startswith("--") for w in words):
        continue
    *sources, target = words[1:]
    target_path = Path(target if target.startswith("/") else f"{workdir}/{target}")
    base = work / ("src" if str(target_path).startswith(workdir) else "root")
    relative = target_path.relative_to(workdir) if base.name == "src" else target_path.relative_to("/")
    destination = base / relative
    for source in sources:
        path = root / source
        if path.is_dir():
            shutil.copytree(path, destination if len(sources) == 1 else destination / path.name, ignore=ignore)
        else:
            into = destination / path.name if target.endswith("/") or len(sources) > 1 else destination
            into.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, into)
        copies += 1
print(f"copied {copies} sources of the Dockerfile's build stage into {work}")
PY

steps="$work/root/usr/local/bin/docker-build-steps.sh"
[ -f "$steps" ] || { echo "the Dockerfile no longer copies scripts/docker-build-steps.sh" >&2; exit 1; }
"$PYTHON" -m venv "$work/venv"
export PATH="$work/venv/bin:$PATH" PIP_DISABLE_PIP_VERSION_CHECK=1
unset NARDY_PURE PYTHONPATH
started=$(date +%s)
(cd "$work/src" && sh "$steps" dependencies > "$work/dependencies.log" 2>&1) \
  || { tail -40 "$work/dependencies.log" >&2; exit 1; }
echo "dependencies installed in $(( $(date +%s) - started )) s"
started=$(date +%s)
(cd "$work/src" && sh "$steps" project > "$work/project.log" 2>&1) || { tail -40 "$work/project.log" >&2; exit 1; }
tail -n 1 "$work/project.log"
echo "project installed and compiled in $(( $(date +%s) - started )) s"
sh "$steps" runtime-check
# The Mini App's front end is package data of bot.webapp: the installed package serves it, with no source tree.
(cd / && python -c "
import sys
from bot.webapp.parts import DIST_DIR
missing = [n for n in ('index.html', 'app.js', 'app.css') if not (DIST_DIR / n).is_file()]
sys.exit(f'the Mini App front end is not installed: {missing} missing in {DIST_DIR}' if missing else 0)
") || exit 1
echo "Mini App front end installed: bot/webapp/static/index.html"
echo "image install check passed (venv: $(du -sh "$work/venv" | cut -f1))"
