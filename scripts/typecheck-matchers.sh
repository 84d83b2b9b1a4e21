#!/usr/bin/env bash
# Type tests of the matcher augmentation and the fixtures, one tsc program per flavour, each with
# skipLibCheck: false: Vitest 4.1, Vitest 5, `expect` from @jest/globals, the global `expect` of
# @types/jest. They read the BUILT package (dist/), so run `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f dist/vitest/index.d.ts ] || [ ! -f dist/jest/index.d.cts ]; then
  echo "typecheck-matchers: dist/ is missing its type declarations; run 'npm run build' first" >&2
  exit 1
fi
if [ ! -f test/matrix/node24/node_modules/vitest/package.json ]; then
  echo "typecheck-matchers: Vitest 5 is not installed in test/matrix/node24 (npm install there first)" >&2
  exit 1
fi

status=0
for flavour in vitest4 vitest5 jest-globals jest-global; do
  if npx tsc -p "test/types/$flavour"; then
    echo "typecheck-matchers: $flavour ok"
  else
    echo "typecheck-matchers: $flavour FAILED" >&2
    status=1
  fi
done
exit $status
