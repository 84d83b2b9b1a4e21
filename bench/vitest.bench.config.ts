import { defineConfig } from 'vitest/config'

// The child Vitest runs of bench/proxy/lanes.bench.ts: generated files only, one fork.
export default defineConfig({
  test: { include: ['bench/.generated/*.test.ts'], pool: 'forks', fileParallelism: false },
})
