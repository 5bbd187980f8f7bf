#!/usr/bin/env bash
# Runs the bot locally: creates .venv when missing, installs the project into it, then `python -m bot`.
# Only BOT_TOKEN is required (in the environment or in .env); without REDIS_URL games are kept in the
# embedded SQLite file data/nardy.sqlite3. Every setting is listed in .env.example.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e .

if [ -z "${BOT_TOKEN:-}" ] && ! grep -qs '^BOT_TOKEN=' .env; then
  echo "BOT_TOKEN is not set: export it or put it in .env (see .env.example)" >&2
  exit 2
fi
exec python -m bot "$@"
