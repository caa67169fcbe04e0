#!/usr/bin/env bash
# The whole test suite: set-up, lint, format, types, unit + API tests, browser tests.
# Does its own set-up on a fresh machine: npm dependencies, Debian's Chromium and
# python3-can (the independent reader/writer the log-format tests compare against).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== installing npm dependencies"
  npm ci
fi

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
/usr/bin/python3 -c 'import can' 2>/dev/null || missing+=(python3-can)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "== lint and format (biome)"
npx biome check .
echo "== types (tsc --noEmit, every workspace)"
npm run --silent typecheck
echo "== unit and API tests (vitest)"
npx vitest run
echo "== end-to-end tests (Playwright + Chromium)"
npm run --silent test:e2e
