import { defineConfig } from 'vitest/config'

// The end-to-end drivers (test/e2e/*.test.ts), run on their own after `npm run build`: they
// start child Vitest and Jest runs on the built package (dist/) and on its packed tarball.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/e2e/*.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
