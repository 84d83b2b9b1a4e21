import { defineConfig, type Options } from 'tsup'

// Runners are peers, never bundled: a second copy of `vitest` would give a `test` the running
// runner does not know. Target node20 keeps parameter destructuring, which Vitest parses in
// fixture functions. Splitting keeps one copy of the core per format, so a double made through
// `agent-doubles/jest` is the same class as one imported from `agent-doubles`.
const external = ['vitest', '@jest/globals', 'expect', '@vitest/expect', '@playwright/test']

const shared: Options = {
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  external,
}

const dualEntries = {
  index: 'src/index.ts',
  'in-process': 'src/in-process.ts',
  'matchers/index': 'matchers/index.ts',
  'jest/index': 'fixtures/jest.ts',
  'jest/setup': 'fixtures/jest-setup.ts',
  'jest/globals': 'fixtures/jest-globals.ts',
  'jest/global-setup': 'fixtures/jest-global-setup.ts',
  playwright: 'src/playwright.ts',
}

export default defineConfig([
  {
    ...shared,
    entry: {
      ...dualEntries,
      'vitest/index': 'fixtures/vitest.ts',
      'vitest/setup': 'fixtures/vitest-setup.ts',
      'vitest/global-setup': 'fixtures/vitest-global-setup.ts',
      cli: 'src/cli.ts',
    },
    format: ['esm'],
    dts: true,
    clean: true,
  },
  // The shim gives the CommonJS build `import.meta.url` (the tokenizer's loader resolves from it).
  { ...shared, entry: dualEntries, format: ['cjs'], dts: true, clean: false, shims: true },
])
