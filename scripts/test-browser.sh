#!/usr/bin/env bash
# proxy.fetch in a real headless Chromium (Vitest browser mode, test/browser/). Uses the system's
# Chromium (CHROMIUM_PATH, else /usr/bin/chromium, else `chromium` on PATH) and never downloads
# a browser. Without one it says so and fails: a browser check that cannot run is not a pass.
set -uo pipefail
cd "$(dirname "$0")/.."

source scripts/chromium.sh
browser=$(find_chromium)
if [ -z "$browser" ]; then
  chromium_hint | sed 's/^/test:browser: /' >&2
  echo "test:browser: the browser-mode tests did NOT run." >&2
  exit 1
fi
# built-entry.test.ts loads dist/ as published: rebuild it when it is missing or older than the sources.
source scripts/dist-current.sh
build_dist_unless_current test:browser || exit 1
CHROMIUM_PATH=$browser exec npx vitest run --config test/browser/vitest.config.ts "$@"
