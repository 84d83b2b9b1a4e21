#!/usr/bin/env bash
# npm run bench: the benchmarks measure the package as users get it — dist/, imported by its
# name — so dist/ is rebuilt first when it is missing or older than the sources. (From the
# sources through tsx, every function also pays esbuild's `keepNames` wrapper, which dist/ has not.)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/dist-current.sh
build_dist_unless_current bench
exec node --expose-gc --import tsx bench/run.ts "$@"
