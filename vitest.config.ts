import { defineConfig } from 'vitest/config'

/**
 * Files that spawn child test runs or CLIs, or push thousands of requests: the whole matrix
 * (`npm run test:all`) runs them through vitest.slow.config.ts; the quick loop (`npm test`) leaves
 * them out.
 */
export const slowTests = [
  'test/authoring/record-replay.test.ts',
  'test/authoring/failure-context.test.ts',
  'test/authoring/snapshot-stability.test.ts',
  'test/proxy/hostile/fuzz.test.ts',
  'test/proxy/stream-resources.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/mcp.test.ts',
  'test/proxy/hostile/findings.test.ts',
]

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/matrix/**', 'test/types/**', 'test/jest/**', 'test/e2e/**', 'test/browser/**', '**/node_modules/**', ...slowTests],
    pool: 'forks',
    testTimeout: 15_000,
  },
})
