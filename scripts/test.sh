#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs the project with its test and dev extras into .venv,
# makes sure a Redis server answers (starting one if none does), a local Redis Cluster runs (scripts/redis-cluster.sh),
# Caddy is installed (scripts/ensure-caddy.sh), Docker Compose v2 is at hand (scripts/ensure-compose.sh), Chromium and
# the Mini App's npm packages are installed (scripts/ensure-chromium.sh),
# then runs the linters, the type checker and pytest (on the compiled engine, and the engine's tests also on the pure
# build).
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
bash scripts/ensure-caddy.sh
bash scripts/ensure-compose.sh
bash scripts/ensure-chromium.sh
# A local 3-node Redis Cluster for the storage contract suite (reused when already running). When it cannot be
# started, the cluster tests fail under CI=true (and are skipped elsewhere); the other tests still run.
if [ -z "${TEST_REDIS_CLUSTER_URL:-}" ]; then
  if cluster_out=$(bash scripts/redis-cluster.sh); then
    TEST_REDIS_CLUSTER_URL=$(printf '%s\n' "$cluster_out" | tail -n 1)
    export TEST_REDIS_CLUSTER_URL
    echo "Redis Cluster for the tests: $TEST_REDIS_CLUSTER_URL"
  else
    echo "WARNING: no Redis Cluster could be started; the cluster tests will fail under CI, skip otherwise" >&2
  fi
fi

ruff check .
ruff format --check .
mypy
lint-imports

# The engine's hot path is compiled with mypyc by the install above when a C compiler is at hand (nardy/_build.py);
# the tests then run on the compiled build, and the engine's own tests once more on the pure-Python sources.
if python -c 'import sys, nardy; sys.exit(not nardy.compiled_engine())'; then
  export NARDY_EXPECTED_BUILD=compiled
elif [ "${CI:-}" = true ]; then
  echo "ERROR: the engine's compiled build is missing under CI (see the install's warnings above)" >&2
  exit 1
else
  echo "WARNING: the engine is not compiled here (no C compiler?); the tests run on the pure-Python build" >&2
  export NARDY_EXPECTED_BUILD=pure
fi
echo "engine build under test: $NARDY_EXPECTED_BUILD"
python -m pytest "$@"
if [ "$#" -eq 0 ] && [ "$NARDY_EXPECTED_BUILD" = compiled ]; then
  echo "the engine's tests again, on the pure-Python build (NARDY_PURE=1)"
  NARDY_PURE=1 NARDY_EXPECTED_BUILD=pure python -m pytest tests/nardy --ignore=tests/nardy/ai -q
fi
