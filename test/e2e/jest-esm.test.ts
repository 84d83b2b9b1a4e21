// A child Jest 30 run in a "type": "module" project (projects/jest-esm): an ESM jest.config.js,
// node --experimental-vm-modules, plain ESM and TypeScript test files (an esbuild transform that
// keeps ESM), the built ESM entries — on Node 20 and Node 24, under --detectOpenHandles.
import { describe, expect, test, vi } from 'vitest'
import { describeRun, fromRoot, jestBin, node20, node24, runChild, testCounts } from './helpers.js'

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

const config = fromRoot('test/e2e/projects/jest-esm/jest.config.js')

describe.each([
  { name: 'Jest 30 (ESM) on Node 20', node: async () => node20, major: '20' },
  { name: 'Jest 30 (ESM) on Node 24', node: node24, major: '24' },
])('$name', ({ node, major }) => {
  test('the ESM config, ESM and TypeScript tests pass with the matchers and reset; no warning, no open handle', async () => {
    const run = await runChild(
      await node(),
      ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', jestBin, '--config', config, '--detectOpenHandles', '--ci'],
      { env: { E2E_NODE: major }, timeoutMs: 90_000 },
    )
    expect(run.timedOut, describeRun(run)).toBe(false)
    expect(run.code, describeRun(run)).toBe(0)
    expect(testCounts(run.output), describeRun(run)).toEqual({ passed: 5, failed: 0 })
    expect(run.output).toMatch(/PASS .*proxy\.e2e\.js/)
    expect(run.output).toMatch(/PASS .*agent\.e2e\.ts/)
    expect(run.output).not.toMatch(/ExperimentalWarning|open handle/i)
  })
})
