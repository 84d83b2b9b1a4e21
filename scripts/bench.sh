#!/usr/bin/env bash
# npm run bench: the benchmarks measure the package as users get it — dist/, imported by its
# name — so dist/ is rebuilt first when it is missing or older than the sources. (From the
# sources through tsx, every function also pays esbuild's `keepNames` wrapper, which dist/ has not.)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/dist-current.sh
if ! dist_is_current; then
  echo 'bench: building dist/ first (it is missing or older than src/)…'
  npm run -s build -- --silent
fi
exec node --import tsx bench/run.ts "$@"
