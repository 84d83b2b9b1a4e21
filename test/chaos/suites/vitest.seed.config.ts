// The Vitest config of run-seed.test.ts's child run: two files in two forks, with the
// package's global setup drawing the run's chaos seed.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/chaos/suites/seed-*.vitest.ts'],
    globalSetup: ['fixtures/vitest-global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 60_000,
  },
})
