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
  'test/agent/memory.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/mcp.test.ts',
  'test/cli/commands.test.ts',
  'test/cli/parent.test.ts',
  'test/proxy/hostile/findings.test.ts',
]

/**
 * Files that need a fresh module graph each: they check what the registry, the setup entry or the
 * network guard hold when the file starts, so another file's leftovers in a shared worker would
 * change their answer.
 */
export const isolatedTests = ['test/fixtures/**/*.test.ts', 'test/guard/vitest-*.test.ts']

const exclude = ['test/matrix/**', 'test/types/**', 'test/jest/**', 'test/e2e/**', 'test/browser/**', '**/node_modules/**', ...slowTests]

export default defineConfig({
  test: {
    // Worker threads start and report faster than child processes: the shared files ran in about
    // two thirds of the time with the same tests (the slow files keep forks for their child runs).
    pool: 'threads',
    testTimeout: 15_000,
    projects: [
      {
        // Importing openai, @anthropic-ai/sdk, ai and LangChain costs more than most files' tests:
        // the files below share one module graph per worker, so each worker pays it once.
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...exclude, ...isolatedTests], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: isolatedTests, exclude } },
    ],
  },
})
