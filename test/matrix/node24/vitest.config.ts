import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The Node 24 leg of the matrix: the project's own test files, run by Vitest 5 against the
// newest majors of the clients (openai 7, ai 7, @ai-sdk/* 4). The aliases make every test file
// import those from this folder instead of the root's Node 20 versions.
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const root = here('../../..')
const local = (name: string) => ({
  find: new RegExp(`^${name.replace('/', '\\/')}(/.*)?$`),
  replacement: `${here(`node_modules/${name}`)}$1`,
})

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
    include: ['test/**/*.test.ts'],
    exclude: ['test/matrix/**', 'test/types/**', 'test/jest/**', 'test/e2e/**', 'test/browser/**', '**/node_modules/**'],
    pool: 'forks',
    testTimeout: 15_000,
  },
})
