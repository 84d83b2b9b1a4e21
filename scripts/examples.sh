#!/usr/bin/env bash
# Runs every example suite in examples/ — in Vitest (from source) and in Jest (against the
# built package) — and shows their results.
set -euo pipefail
cd "$(dirname "$0")/.."
export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false
echo '▶ building dist/ (ESM, CJS and type declarations; the Jest examples run against it)…'
npm run -s build -- --silent
echo '▶ examples in Vitest (from source)'
npx vitest run --config examples/vitest.config.ts --reporter=verbose
echo '▶ examples in Jest (against dist/)'
node node_modules/jest/bin/jest.js --config examples/jest.config.cjs --verbose --detectOpenHandles
