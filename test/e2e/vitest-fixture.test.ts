// A child Vitest run of the exported `test` from 'agent-doubles/vitest' (projects/vitest-fixture):
// fakeProxy reached by new OpenAI() / new Anthropic() through the environment, which names the
// file server's root from its first test to the file's end (checked in the child's afterAll; the
// restore after the file in test/fixtures/env-per-file.test.ts), fakeProxyOptions overridden in
// one file only.
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { describeRun, fromRoot, node20, node24, runChild, testCounts, vitest4Bin, vitest5Bin, type ChildResult } from './helpers.js'

// Child runs take seconds, and longer on a loaded machine; the children's own deadlines catch hangs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

const config = fromRoot('test/e2e/projects/vitest-fixture/vitest.config.ts')
// The child checks that it started with this OPENAI_BASE_URL, and ANTHROPIC_BASE_URL unset.
const sentinel = { OPENAI_BASE_URL: 'http://sentinel.invalid/v1' }

const legs = [
  { name: 'Vitest 4 on Node 20', node: async () => node20, bin: vitest4Bin, env: sentinel },
  { name: 'Vitest 5 on Node 24', node: node24, bin: vitest5Bin, env: { ...sentinel, E2E_VITEST: '5' } },
]

const runs = new Map<string, Promise<ChildResult>>()
beforeAll(() => {
  for (const leg of legs) {
    runs.set(leg.name, leg.node().then((node) => runChild(node, [leg.bin, 'run', '--config', config], { env: leg.env })))
  }
})

describe.each(legs)('$name', (leg) => {
  test('both files pass: clients reach fakeProxy through the environment, pointed once per file, and each file has its own options', async () => {
    const run = await runs.get(leg.name)!
    expect(run.timedOut, describeRun(run)).toBe(false)
    expect(run.code, describeRun(run)).toBe(0)
    expect(run.output).toMatch(/Test Files\s+2 passed \(2\)/)
    expect(testCounts(run.output), describeRun(run)).toEqual({ passed: 6, failed: 0 })
    // A failing afterAll (the child's environment check) fails its file, not a test.
    expect(run.output).not.toContain('Failed Suites')
  })
})
