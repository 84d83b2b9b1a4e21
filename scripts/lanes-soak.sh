#!/usr/bin/env bash
# The lanes soak of issue 7: the 200-test concurrent file, N runs in a row under each pool and
# shard, on Node 20 (Vitest 4) and Node 24 (Vitest 5), and the Jest 30 file. Not part of CI
# (it takes minutes); run it after touching lanes or routing: `bash scripts/lanes-soak.sh [N]`.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
failed=0
file=test/lanes/concurrent.test.ts
node24=(npx -y node@24 test/matrix/node24/node_modules/vitest/vitest.mjs)
legs=(
  "node20 threads|npx vitest run $file --pool=threads"
  "node20 forks|npx vitest run $file --pool=forks"
  "node20 shard 1/2|npx vitest run test/lanes --shard=1/2"
  "node20 shard 2/2|npx vitest run test/lanes --shard=2/2"
  "node24 threads|${node24[*]} run --config test/matrix/node24/vitest.config.ts $file --pool=threads"
  "node24 forks|${node24[*]} run --config test/matrix/node24/vitest.config.ts $file --pool=forks"
  "node24 shard 1/2|${node24[*]} run --config test/matrix/node24/vitest.config.ts test/lanes --shard=1/2"
  "node24 shard 2/2|${node24[*]} run --config test/matrix/node24/vitest.config.ts test/lanes --shard=2/2"
  "jest node20|node node_modules/jest/bin/jest.js --ci test/jest/lanes"
)
for leg in "${legs[@]}"; do
  name=${leg%%|*}
  command=${leg#*|}
  ok=0
  for ((run = 1; run <= runs; run++)); do
    if $command >/tmp/lanes-soak.log 2>&1; then ok=$((ok + 1)); else failed=$((failed + 1)); echo "✗ $name run $run failed:"; tail -30 /tmp/lanes-soak.log; fi
  done
  echo "$name: $ok/$runs runs passed"
done
exit $((failed > 0))
