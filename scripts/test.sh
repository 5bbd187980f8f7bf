#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs the project with its test and dev extras into .venv,
# makes sure a Redis server answers (starting one if none does), then runs the linters, the type checker and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e '.[dev]'

export REDIS_URL=${TEST_REDIS_URL:-redis://127.0.0.1:6379}
bash scripts/ensure-redis.sh

ruff check .
ruff format --check .
mypy
python -m pytest "$@"
