// A child Jest 30 run (projects/jest) with `setupFilesAfterEnv: ['agent-doubles/jest/setup']`
// mapped to the built package, under --detectOpenHandles, on Node 20 and Node 24: useFakeProxy
// with the real clients leaves no handle and Jest exits by itself; a failing matcher's message.
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { describeRun, fromRoot, jestBin, node20, node24, runChild, testCounts, type ChildResult } from './helpers.js'

// Child runs take seconds, and longer on a loaded machine; the children's own deadlines catch hangs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

const config = fromRoot('test/e2e/projects/jest/jest.config.cjs')

const legs = [
  { name: 'Jest 30 on Node 20', node: async () => node20, env: { E2E_NODE: '20' } },
  { name: 'Jest 30 on Node 24', node: node24, env: { E2E_NODE: '24' } },
]

const runs = new Map<string, Promise<ChildResult>>()
beforeAll(() => {
  for (const leg of legs) {
    // A hung Jest (a handle left open) is killed at the deadline and the test fails on `timedOut`.
    const start = async (pattern: string) =>
      runChild(await leg.node(), [jestBin, '--config', config, '--detectOpenHandles', '--ci', pattern], { env: leg.env, timeoutMs: 60_000 })
    runs.set(`${leg.name} passing`, start('proxy\\.e2e'))
    runs.set(`${leg.name} failing`, start('failing\\.e2e'))
  }
})

describe.each(legs)('$name', (leg) => {
  test('useFakeProxy with new OpenAI() and new Anthropic(): passes, reports no open handle, exits by itself', async () => {
    const run = await runs.get(`${leg.name} passing`)!
    expect(run.timedOut, describeRun(run)).toBe(false)
    expect(run.code, describeRun(run)).toBe(0)
    expect(testCounts(run.output), describeRun(run)).toEqual({ passed: 5, failed: 0 })
    expect(run.output).toMatch(/Test Suites: 1 passed, 1 total/)
    expect(run.output).not.toMatch(/open handle/i)
    expect(run.output).not.toContain('did not exit')
  })

  test('a failing toHaveBeenCalledWithTask lists the recorded tasks and the expected one; Jest exits 1', async () => {
    const run = await runs.get(`${leg.name} failing`)!
    expect(run.timedOut, describeRun(run)).toBe(false)
    expect(run.code, describeRun(run)).toBe(1)
    expect(testCounts(run.output), describeRun(run)).toEqual({ passed: 1, failed: 2 })
    expect(run.output).toContain('● toHaveBeenCalledWithTask fails and lists the recorded tasks')
    expect(run.output).toMatch(/Expected task: "nope"/)
    expect(run.output).toMatch(/1st writer call: "summarise the findings"/)
    expect(run.output).toMatch(/2nd writer call: "polish the draft"/)
    expect(run.output).not.toMatch(/open handle/i)
  })

  test('a failing toHaveRefusedWith lists the refusal codes the proxy gave', async () => {
    const run = await runs.get(`${leg.name} failing`)!
    expect(run.output).toMatch(/Expected: refused with "rate_limited"/)
    expect(run.output).toMatch(/1st refusal: "policy_denied" \(403\) POST \/v1\/chat\/completions/)
  })
})
