#!/usr/bin/env bash
# Makes sure Caddy (the webhook deployment's reverse proxy, deploy/Caddyfile) is installed for its end-to-end test,
# installing Debian's package when it is missing. Never fails: without Caddy that test fails under CI=true and is
# skipped elsewhere.
set -uo pipefail

if command -v caddy >/dev/null 2>&1; then
  echo "Caddy: $(caddy version 2>/dev/null | head -n 1)"
  exit 0
fi
echo "No Caddy found; installing Debian's package"
if [ "$(id -u)" = 0 ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null) || true
elif command -v sudo >/dev/null 2>&1; then
  (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null) || true
fi
# Debian's package starts a caddy service where systemd runs; the test runs its own
if command -v systemctl >/dev/null 2>&1; then
  systemctl stop caddy >/dev/null 2>&1 || sudo systemctl stop caddy >/dev/null 2>&1 || true
fi
command -v caddy >/dev/null 2>&1 && echo "Caddy installed" || echo "WARNING: Caddy could not be installed" >&2
exit 0
