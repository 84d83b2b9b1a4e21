import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The examples import the package by its name, as a user's project does; the aliases point the
// names at the source so the examples run without a build.
const from = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const alias = [
  { find: /^agent-doubles\/vitest$/, replacement: from('../fixtures/vitest.ts') },
  { find: /^agent-doubles\/vitest\/setup$/, replacement: from('../fixtures/vitest-setup.ts') },
  { find: /^agent-doubles\/matchers$/, replacement: from('../matchers/index.ts') },
  { find: /^agent-doubles$/, replacement: from('../src/index.ts') },
]

// A top-level `test.override(…)` replaces the fixtures of the `test` it is called on, and under
// `isolate: false` that `test` is the one every later file of the worker imports: one file's
// `fakeProxyOptions` (a transcript, a chaos seed) would reach the files after it. Those files get
// a module graph of their own; the rest share one, which runs them about twice as fast.
const examples = readdirSync(from('.'), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts') && !entry.name.endsWith('.jest.test.ts'))
  .map((entry) => relative(from('.'), join(entry.parentPath, entry.name)))
  .filter((path) => !path.includes('node_modules'))
const overridesAtTopLevel = examples.filter((path) => /^(?:const \w+ = )?\w+\.override\(/m.test(readFileSync(from(path), 'utf8')))

export default defineConfig({
  root: from('.'),
  resolve: { alias },
  test: {
    testTimeout: 15_000,
    projects: [
      { extends: true, test: { name: 'shared', include: examples.filter((path) => !overridesAtTopLevel.includes(path)), isolate: false } },
      { extends: true, test: { name: 'own-graph', include: overridesAtTopLevel, isolate: true } },
    ],
  },
})
