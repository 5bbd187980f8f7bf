#!/usr/bin/env bash
# Makes sure Debian's Chromium (/usr/bin/chromium) is installed for the Mini App's browser tests (tests/webapp,
# driven by Playwright on that binary: no browser is downloaded), installing Debian's package when it is missing,
# with the emoji and CJK fonts its screenshots need; and that the Mini App's npm packages are installed
# (webapp/node_modules, from its lock file) for its checks and the test that its committed build is up to date.
# Never fails: without Chromium or npm those tests fail under CI=true and are skipped elsewhere, with the reason.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ -x /usr/bin/chromium ]; then
  echo "Chromium: $(/usr/bin/chromium --version 2>/dev/null | head -n 1)"
else
  echo "No Chromium found; installing Debian's package"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "WARNING: no apt-get here: the browser tests will be skipped (they fail under CI=true)" >&2
  elif [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || true
  elif command -v sudo >/dev/null 2>&1; then
    (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || true
  fi
  [ -x /usr/bin/chromium ] && echo "Chromium installed" || echo "WARNING: Chromium could not be installed" >&2
fi

# Fonts for users' real names and the buttons' emoji in the screenshots (a phone has them; a bare Debian has not)
if ! fc-list 2>/dev/null | grep -qi "Noto Color Emoji" || ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
  echo "Installing the emoji and CJK fonts for the browser tests"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-color-emoji fonts-noto-cjk \
      >/dev/null) || echo "WARNING: the emoji and CJK fonts could not be installed" >&2
  elif command -v sudo >/dev/null 2>&1; then
    (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-color-emoji \
      fonts-noto-cjk >/dev/null) || echo "WARNING: the emoji and CJK fonts could not be installed" >&2
  fi
fi

if command -v npm >/dev/null 2>&1; then
  (cd webapp && npm ci --no-audit --no-fund --loglevel=error && npm run --silent check) \
    || echo "WARNING: the Mini App's npm install or check failed" >&2
else
  echo "WARNING: no npm here: the Mini App's build check will be skipped (it fails under CI=true)" >&2
fi
exit 0
