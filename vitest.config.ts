import { defineConfig } from 'vitest/config'

import { heavyTests, isolatedTests, slowTests } from './test/suites.js'

export { heavyTests, isolatedTests, slowTests }

// The quick loop (npm test) leaves out the slow and the heavy files; vitest.slow.config.ts runs them.
const exclude = ['test/matrix/**', 'test/types/**', 'test/jest/**', 'test/e2e/**', 'test/browser/**', '**/node_modules/**', ...slowTests, ...heavyTests]

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
