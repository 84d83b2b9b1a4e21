#!/usr/bin/env bash
# The test suite. `scripts/test-all.sh quick` (npm test) is the quick loop: build (skipped when
# dist/ is newer than every source), then the Node 20 leg (Vitest 4, Jest 30, openai 6, ai 6) and
# the examples, Vitest beside the other three. Without an argument
# (npm run test:all, what CI runs) it is the whole matrix: package checks, type tests, the
# Node 20 and Node 24 (Vitest 5, Jest 30, openai 7, ai 7) legs and the end-to-end suite.
# Ends with one line "tests: N passed, N failed" summed over every runner.
set -uo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
# A green run prints the runners' results, not npm's notices: engine mismatches of dev tools
# (EBADENGINE), install-script notes, funding and update banners are warnings, not failures.
export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# The AWS SDK warns once per process that its 2027 releases will need Node 22: news, not a failure.
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
started=$SECONDS
status=0
passed=0
failed=0
node24=(npx -y node@24)

step() {
  local name=$1; shift
  local began=$SECONDS
  printf '\n\033[1m▶ %s\033[0m\n' "$name"
  if "$@" 2>&1 | tee "$log/$name.txt"; then
    echo "✓ $name ($((SECONDS - began)) s)"
  else
    status=1
    echo "✗ $name failed ($((SECONDS - began)) s)"
  fi
}

# tsup is silent for the half minute it takes: say what it is doing.
build() {
  echo 'building dist/ (ESM, CJS and type declarations)…'
  npm run -s build -- --silent
}

source scripts/dist-current.sh

# Sums "N passed" / "N failed" from a Vitest ("Tests  3 passed") or Jest ("Tests: 3 passed") summary.
count() {
  local file=$1 line
  line=$(sed 's/\x1b\[[0-9;]*m//g' "$file" | grep -E '^\s*Tests:?\s' | tail -1)
  passed=$((passed + $(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)))
  failed=$((failed + $(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)))
}

# The browser steps need the system's Chromium: say so up front, not after ten minutes.
source scripts/chromium.sh
if [ "$mode" = all ] && [ -z "$(find_chromium)" ]; then
  chromium_hint | sed 's/^/⚠ test:all: /'
fi

if [ "$mode" = all ] && [ ! -d test/matrix/node24/node_modules ]; then
  step install-node24-leg npm ci --prefix test/matrix/node24 --engine-strict=false --no-audit --no-fund --loglevel=error
fi
# The agent runtimes of SPEC §17 (Claude Agent SDK, Codex SDK with its binary, Gemini CLI), pinned
# in a package of their own; test/runtimes/*.test.ts (in the slow leg) drives them.
if [ "$mode" = all ] && [ ! -d test/matrix/runtimes/node_modules ]; then
  step install-runtimes npm ci --prefix test/matrix/runtimes --no-audit --no-fund --loglevel=error
fi

if dist_is_current; then
  echo 'dist/ is newer than every source: build skipped'
else
  step build build
fi
if [ "$mode" = all ]; then
  step typecheck npx tsc -p tsconfig.json --noEmit
  step package-lint npm run -s lint:package
  step matcher-types bash scripts/typecheck-matchers.sh
fi
# Jest and the examples, one after the other; in the quick loop they run beside Vitest, which
# keeps one worker busy, so the second core works too.
jest_and_examples() {
  step jest-node20 node node_modules/jest/bin/jest.js --detectOpenHandles --ci
  step examples-vitest npx vitest run --config examples/vitest.config.ts
  step examples-jest node node_modules/jest/bin/jest.js --config examples/jest.config.cjs --detectOpenHandles --ci
  return $status
}

if [ "$mode" = all ]; then
  # Two workers: with nothing beside it, Vitest's default on two cores is one.
  step vitest-node20 npx vitest run --maxWorkers=2
  step vitest-node20-slow npx vitest run --config vitest.slow.config.ts
  count "$log/vitest-node20-slow.txt"
  jest_and_examples
else
  # The side steps' output is held back and printed after Vitest's, so the two never interleave.
  # They run in their own process group, which the exit trap ends if the script stops early.
  set -m
  jest_and_examples >"$log/side.txt" 2>&1 &
  side=$!
  set +m
  trap 'kill -- -"$side" 2>/dev/null; rm -rf "$log"' EXIT
  # Two workers, not Vitest's default of one on two cores: the side steps wait on their child
  # runs and servers often enough that a second worker fills the gaps.
  step vitest-node20 npx vitest run --maxWorkers=2
  wait "$side" || status=1
  cat "$log/side.txt"
fi
count "$log/vitest-node20.txt"
count "$log/jest-node20.txt"
count "$log/examples-vitest.txt"
count "$log/examples-jest.txt"
if [ "$mode" = all ]; then
step vitest-node24 "${node24[@]}" test/matrix/node24/node_modules/vitest/vitest.mjs run --config test/matrix/node24/vitest.config.ts --maxWorkers=2
count "$log/vitest-node24.txt"
step jest-node24 "${node24[@]}" node_modules/jest/bin/jest.js --detectOpenHandles --ci
count "$log/jest-node24.txt"
step e2e npx vitest run --config test/e2e/vitest.config.ts
count "$log/e2e.txt"
# proxy.fetch in a real headless Chromium (Vitest browser mode); .ci/run installs Debian's chromium.
step browser bash scripts/test-browser.sh
count "$log/browser.txt"
# Failure context in Vitest's HTML report, in headless Chromium (says so and passes without one).
step html-report node scripts/check-html-report.mjs
# agent-doubles/playwright: the example chat app in headless Chromium (skipped, saying why, without one).
step playwright bash scripts/test-playwright.sh
count "$log/playwright.txt"
# The documentation site: built (API reference included), then every page opened in headless
# Chromium — no console error, no broken internal link, the local search finds every matcher.
step docs-site bash -c 'set -o pipefail; npm run -s docs:build 2>&1 | tail -n 20 && node scripts/check-docs-site.mjs'
fi

if grep -q 'open handle' "$log"/jest-*.txt; then
  echo '✗ jest --detectOpenHandles reported an open handle'
  status=1
fi

echo
# A step can fail with no failing test (a Jest suite that could not load, a type check): say so.
unaccounted=''
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then unaccounted=' — and a step failed (see ✗ above)'; fi
echo "tests: $passed passed, $failed failed ($((SECONDS - started)) s)$unaccounted"
if [ "$mode" = all ] && [ -z "$(find_chromium)" ]; then chromium_hint | sed 's/^/⚠ test:all: /'; fi
exit $status
