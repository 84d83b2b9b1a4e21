import { defineConfig } from 'vitest/config'
import { heavyTests, slowTests } from './vitest.config.js'

// The files the quick loop leaves out (see vitest.config.ts); `npm run test:all` runs them. The
// slow files (child test runs, CLIs, agent runtimes) each in a child process of its own; the
// heavy ones (test/suites.ts) as the quick loop would run them, sharing one module graph.
export default defineConfig({
  test: {
    testTimeout: 15_000,
    projects: [
      { extends: true, test: { name: 'slow', include: slowTests, pool: 'forks' } },
      { extends: true, test: { name: 'heavy', include: heavyTests, pool: 'threads', isolate: false } },
    ],
  },
})
