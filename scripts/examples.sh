#!/usr/bin/env bash
# Runs every example suite in examples/ — in Vitest (from source) and in Jest (against the
# built package) — and shows their results.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s build -- --silent
npx vitest run --config examples/vitest.config.ts --reporter=verbose
node node_modules/jest/bin/jest.js --config examples/jest.config.cjs --verbose --detectOpenHandles
