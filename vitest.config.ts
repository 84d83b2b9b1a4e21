import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/matrix/**', 'test/types/**', 'test/jest/**', 'test/e2e/**', '**/node_modules/**'],
    pool: 'forks',
    testTimeout: 15_000,
  },
})
