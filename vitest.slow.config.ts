import { defineConfig } from 'vitest/config'
import { slowTests } from './vitest.config.js'

// The slow files the quick loop leaves out (see vitest.config.ts); `npm run test:all` runs them.
export default defineConfig({
  test: {
    include: slowTests,
    pool: 'forks',
    testTimeout: 15_000,
  },
})
