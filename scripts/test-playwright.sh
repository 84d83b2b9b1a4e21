#!/usr/bin/env bash
# The Playwright example (examples/playwright/): a chat page in headless Chromium, its Node server
# on the openai client pointed at the worker's FakeProxy, each test scripting its own lane through
# agent-doubles/playwright. Uses the system's Chromium (see scripts/chromium.sh) and never
# downloads one; without it the step is skipped, saying why. Ends with "Tests: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

source scripts/chromium.sh
browser=$(find_chromium)
if [ -z "$browser" ]; then
  chromium_hint | sed 's/^/test:playwright: /'
  echo 'test:playwright: skipped: the Playwright example did NOT run (no Chromium).'
  exit 0
fi
# The example imports agent-doubles/playwright as a user does: from dist/.
source scripts/dist-current.sh
build_dist_unless_current test:playwright || exit 1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
CHROMIUM_PATH=$browser npx playwright test --config examples/playwright/playwright.config.ts "$@" 2>&1 | tee "$out"
code=${PIPESTATUS[0]}
summary=$(sed 's/\x1b\[[0-9;]*m//g' "$out")
passed=$(grep -oE '^\s*[0-9]+ passed' <<<"$summary" | grep -oE '[0-9]+' | tail -1)
failed=$(grep -oE '^\s*[0-9]+ failed' <<<"$summary" | grep -oE '[0-9]+' | tail -1)
echo "Tests: ${passed:-0} passed, ${failed:-0} failed"
exit "$code"
