#!/bin/sh
# The install steps of the Docker image's build stage (Dockerfile), kept in one script so that
# scripts/check-image-install.sh runs exactly the same steps in a temporary venv on this machine.
#
#   docker-build-steps.sh dependencies   # in a directory holding pyproject.toml: pip-installs its [project] dependencies
#   docker-build-steps.sh project        # in the project's source tree: pip-installs it (--no-deps), which compiles
#                                        # the engine with mypyc, and fails unless the compiled engine is what imports
#   docker-build-steps.sh runtime-check  # anywhere: fails unless the installed bot has its compiled engine, its fonts
#                                        # and Pillow's raqm with fribidi (right-to-left names)
#
# Uses the `python` and `pip` of PATH (the image's /opt/venv). POSIX sh: the slim image has no bash by default.
set -eu

step=${1:?"usage: $0 dependencies|project|runtime-check"}

case "$step" in
  dependencies)
    # Dependencies first, from pyproject.toml alone, so that Docker caches this layer while only the code changes.
    python - > /tmp/requirements.txt <<'PY'
import tomllib
with open("pyproject.toml", "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["dependencies"]))
PY
    pip install --no-cache-dir -r /tmp/requirements.txt
    ;;
  project)
    # NARDY_PURE=1 in the environment would skip the compilation: refuse it here, the image must be compiled.
    if [ "${NARDY_PURE:-}" = 1 ]; then
      echo "docker-build-steps.sh: NARDY_PURE=1 is set; the image must carry the compiled engine" >&2
      exit 1
    fi
    pip install --no-cache-dir --no-deps .
    # Check from outside the source tree, so that the installed package is what is imported.
    (cd / && python -c "import nardy, sys; sys.exit(not nardy.compiled_engine())") || {
      echo "docker-build-steps.sh: the engine was installed as pure Python (no C compiler?)" >&2
      exit 1
    }
    echo "engine: compiled (mypyc)"
    ;;
  runtime-check)
    cd /
    python - <<'PY'
import sys
from importlib import resources

import nardy
import PIL
from PIL import features

problems = []
if not nardy.compiled_engine():
    problems.append("the engine is pure Python, not compiled")
for feature in ("raqm", "fribidi", "harfbuzz"):
    if not features.check(feature):
        problems.append(f"Pillow's {feature} is missing (libfribidi0 not installed?)")
fonts = [p.name for p in resources.files("rendering").joinpath("fonts").iterdir() if p.name.endswith((".ttf", ".otf"))]
if not fonts:
    problems.append("no fonts in rendering/fonts")
if problems:
    print("runtime check failed: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
versions = ", ".join(f"{f} {features.version(f)}" for f in ("raqm", "fribidi", "harfbuzz"))
print(f"runtime check: compiled engine; Pillow {PIL.__version__} with {versions}; {len(fonts)} font files")
PY
    ;;
  *)
    echo "usage: $0 dependencies|project|runtime-check" >&2
    exit 2
    ;;
esac
