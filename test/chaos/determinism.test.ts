/**
 * SPEC §19: the same seed gives every test the same faults whatever the order and concurrency —
 * a child suite runs twice, in order and then shuffled (Vitest: `test.concurrent` and
 * `--sequence.shuffle`; Jest: `--randomize`), and the faults each test recorded are compared.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, test } from 'vitest'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const scratch = mkdtempSync(join(tmpdir(), 'agent-doubles-chaos-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

type Outcome = Record<string, Array<{ kind: string; source: string; seed: number; request: number } | null>>

/** Runs a child suite with `args` and `env`, and reads back each test's faults. */
async function faultsOf(label: string, command: string[], env: Record<string, string>): Promise<Outcome> {
  const out = join(scratch, `${label}.jsonl`)
  await run(process.execPath, command, { cwd: root, env: { ...process.env, ...env, CHAOS_OUT: out, AGENT_DOUBLES_CHAOS_SEED: '' }, timeout: 120_000 })
  const lines = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { test: string; faults: Outcome[string] })
  return Object.fromEntries(lines.map((line) => [line.test, line.faults]))
}

function expectSomeFaults(outcome: Outcome): void {
  const all = Object.values(outcome).flat()
  expect(all).toHaveLength(24)
  // rate 0.5 over 24 requests: some faults, and some clean answers.
  expect(all.filter(Boolean).length).toBeGreaterThan(2)
  expect(all.filter((fault) => fault === null).length).toBeGreaterThan(2)
  for (const fault of all) if (fault) expect(fault).toMatchObject({ source: 'chaos', seed: 7 })
}

describe('the same seed, the same faults', () => {
  test('Vitest: in order, then concurrent and shuffled', async () => {
    const vitest = [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/chaos/suites/vitest.config.ts']
    const inOrder = await faultsOf('vitest-order', vitest, {})
    const shuffled = await faultsOf('vitest-shuffled', [...vitest, '--sequence.shuffle', '--sequence.seed=12345'], { CHAOS_CONCURRENT: '1' })
    expectSomeFaults(inOrder)
    expect(shuffled).toEqual(inOrder)
  }, 150_000)

  test('Jest: in order, then randomized', async () => {
    expect(existsSync(join(root, 'dist/jest/index.cjs')), 'npm run build first: the Jest child runs the built package').toBe(true)
    const jest = [join(root, 'node_modules/jest/bin/jest.js'), '--config', 'test/chaos/suites/jest.config.cjs']
    const inOrder = await faultsOf('jest-order', jest, {})
    const shuffled = await faultsOf('jest-random', [...jest, '--randomize', '--seed=98765'], {})
    expectSomeFaults(inOrder)
    expect(shuffled).toEqual(inOrder)
  }, 150_000)
})
