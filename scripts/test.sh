#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs the project with its test and dev extras into .venv,
# makes sure a Redis server answers (starting one if none does) and a local Redis Cluster runs (scripts/redis-cluster.sh),
# then runs the linters, the type checker and pytest.
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
python -m pytest "$@"
