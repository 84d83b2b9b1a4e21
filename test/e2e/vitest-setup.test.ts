// A child Vitest run on the built package with `setupFiles: ['agent-doubles/vitest/setup']` and
// plain `vitest` imports (projects/vitest-setup): Vitest 4 on Node 20 and Vitest 5 on Node 24.
import { beforeAll, describe, expect, test, vi } from 'vitest'
import {
  describeRun,
  fromRoot,
  node20,
  node24,
  runChild,
  testCounts,
  vitest4Bin,
  vitest5Bin,
  type ChildResult,
} from './helpers.js'

// Child runs take seconds, and longer on a loaded machine; the children's own deadlines catch hangs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

const config = fromRoot('test/e2e/projects/vitest-setup/vitest.config.ts')
const passingFiles = ['1-reset', '2-proxy', '3-closed']

interface Leg {
  name: string
  node: () => Promise<string>
  bin: string
  major: string
  env: Record<string, string>
}

const legs: Leg[] = [
  { name: 'Vitest 4 on Node 20', node: async () => node20, bin: vitest4Bin, major: '4', env: { E2E_NODE: '20' } },
  { name: 'Vitest 5 on Node 24', node: node24, bin: vitest5Bin, major: '5', env: { E2E_NODE: '24', E2E_VITEST: '5' } },
]

// All four child runs start at once; each test awaits the one it reads.
const runs = new Map<string, Promise<ChildResult>>()
beforeAll(() => {
  for (const leg of legs) {
    const start = async (files: string[]) => runChild(await leg.node(), [leg.bin, 'run', '--config', config, ...files], { env: leg.env })
    runs.set(`${leg.name} passing`, start(passingFiles))
    runs.set(`${leg.name} failing`, start(['failing']))
  }
})

describe.each(legs)('$name', (leg) => {
  test('the setup entry resets module-scope doubles between tests and closes the proxy after its file; the run exits 0 on its own', async () => {
    const run = await runs.get(`${leg.name} passing`)!
    expect(run.timedOut, describeRun(run)).toBe(false)
    expect(run.code, describeRun(run)).toBe(0)
    expect(run.output).toMatch(new RegExp(`RUN\\s+v${leg.major}\\.`))
    expect(run.output).toMatch(/Test Files\s+3 passed \(3\)/)
    // 3 in 1-reset (Node major, call, no calls), 2 in 2-proxy, 1 in 3-closed (the proxy was closed).
    expect(testCounts(run.output), describeRun(run)).toEqual({ passed: 6, failed: 0 })
  })

  test('a failing toHaveBeenCalledWithTask lists the recorded tasks and the expected one; the run exits 1', async () => {
    const run = await runs.get(`${leg.name} failing`)!
    expect(run.timedOut, describeRun(run)).toBe(false)
    expect(run.code, describeRun(run)).toBe(1)
    expect(testCounts(run.output), describeRun(run)).toEqual({ passed: 1, failed: 3 })
    expect(run.output).toContain('failing.spec.ts > toHaveBeenCalledWithTask fails and lists the recorded tasks')
    expect(run.output).toMatch(/Expected task: "nope"/)
    expect(run.output).toMatch(/1st writer call: "summarise the findings"/)
    expect(run.output).toMatch(/2nd writer call: "polish the draft"/)
    expect(run.output).toMatch(/Number of calls: 2/)
  })

  test('the .not form shows the task that matched', async () => {
    const run = await runs.get(`${leg.name} failing`)!
    expect(run.output).toMatch(/Expected task: not "publish the post"/)
    expect(run.output).toMatch(/1st writer call: "publish the post"/)
  })

  test('a failing toHaveReceivedRequest lists the requests by method, path and model', async () => {
    const run = await runs.get(`${leg.name} failing`)!
    expect(run.output).toMatch(/"model": "claude-opus"/)
    expect(run.output).toMatch(/1st request: POST \/v1\/chat\/completions, model "gpt-5-mini"/)
  })
})
