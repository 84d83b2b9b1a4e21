import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

import { isolatedTests, slowTests } from '../../suites.js'

// The Node 24 leg of the matrix: the project's own test files, run by Vitest 5 against the
// newest majors of the clients (openai 7, ai 7, @ai-sdk/* 4). The aliases make every test file
// import those from this folder instead of the root's Node 20 versions.
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const root = here('../../..')
const local = (name: string) => ({
  find: new RegExp(`^${name.replace('/', '\\/')}(/.*)?$`),
  replacement: `${here(`node_modules/${name}`)}$1`,
})

const exclude = ['test/matrix/**', 'test/types/**', 'test/jest/**', 'test/e2e/**', 'test/browser/**', '**/node_modules/**', ...slowTests]

export default defineConfig({
  root,
  // Vite 8 under Vitest 5 must not read the dependency cache Vitest 4 writes for the same root.
  cacheDir: here('node_modules/.vite'),
  resolve: {
    alias: [
      local('vitest'),
      local('openai'),
      local('ai'),
      local('@ai-sdk/openai'),
      local('@ai-sdk/anthropic'),
      local('@anthropic-ai/sdk'),
      local('@ai-sdk/mcp'),
      local('@ai-sdk/google'),
      local('@ai-sdk/azure'),
      local('@ai-sdk/amazon-bedrock'),
      local('@google/genai'),
    ],
  },
  test: {
    testTimeout: 15_000,
    // The same split as the Node 20 leg (vitest.config.ts): one shared module graph per worker
    // thread for most files, a fresh one for the files that inspect what a worker holds. The slow
    // files (child runs, CLIs, agent runtimes) are left out: each already starts its children on
    // Node 20 and Node 24 itself where the version matters (record-replay, the e2e suite), and
    // the rest test the fake, not the clients this leg upgrades.
    pool: 'threads',
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...exclude, ...isolatedTests], isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolatedTests, exclude } },
    ],
  },
})
