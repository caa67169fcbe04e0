#!/usr/bin/env bash
# The whole test suite: set-up, lint, format, types, unit + API tests, browser tests, console weight.
# Does its own set-up on a fresh machine: npm dependencies, Debian's Chromium,
# python3-can (the independent reader/writer the log-format tests compare against),
# groovy and bubblewrap (test management's analysis scripts run on it, contained; the tests run real Groovy) and
# mosquitto (the device-account tests run a Mosquitto with its dynamic-security plugin).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== installing npm dependencies"
  npm ci
fi

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
/usr/bin/python3 -c 'import can' 2>/dev/null || missing+=(python3-can)
command -v groovy >/dev/null 2>&1 || missing+=(groovy)
# bubblewrap contains the Groovy workers (the tests run scripts in it, and probe code inside it).
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
# Mosquitto with its dynamic-security plugin and mosquitto_ctrl: the device-account tests start one.
command -v mosquitto_ctrl >/dev/null 2>&1 || missing+=(mosquitto)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Debian's `groovy` launcher needs JAVA_HOME: set from the java on the PATH for what runs below.
if [ -z "${JAVA_HOME:-}" ] && command -v java >/dev/null 2>&1; then
  JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
  export JAVA_HOME
fi

echo "== lint and format (biome) (at ${SECONDS} s)"
npx biome check .
echo "== types (tsc --noEmit, every workspace) (at ${SECONDS} s)"
npm run --silent typecheck
echo "== unit and API tests (vitest) (at ${SECONDS} s)"
npx vitest run
echo "== end-to-end tests (Playwright + Chromium) (at ${SECONDS} s)"
npm run --silent test:e2e
# The console's weight budgets (issue "Fleet scale": /Login ≤ 300 KB, home page ≤ 500 KB of gzip
# JavaScript), measured in Chromium on the console the browser tests just built: exits 1 over budget.
echo "== console weight (at ${SECONDS} s)"
npm run --silent bench:console-weight -- --no-build --runs 1
