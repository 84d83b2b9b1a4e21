import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The examples import the package by its name, as a user's project does; the aliases point the
// names at the source so the examples run without a build.
const from = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  root: from('.'),
  resolve: {
    alias: [
      { find: /^agent-doubles\/vitest$/, replacement: from('../fixtures/vitest.ts') },
      { find: /^agent-doubles\/vitest\/setup$/, replacement: from('../fixtures/vitest-setup.ts') },
      { find: /^agent-doubles\/matchers$/, replacement: from('../matchers/index.ts') },
      { find: /^agent-doubles$/, replacement: from('../src/index.ts') },
    ],
  },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/*.jest.test.ts', '**/node_modules/**'],
    testTimeout: 15_000,
    // Each file in its own module graph. Shared (isolate: false) ran twice as fast, but a file's
    // top-level `test.override({ fakeProxyOptions })` (authoring/replay) then reached other files
    // run after it in the same worker: under CI, public-names/helpers asked for a transcript.
    isolate: true,
  },
})
