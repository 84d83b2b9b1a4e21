/**
 * SPEC §19: "the run's seed is printed once" — with the package's global setup, a child run of
 * two files in two worker processes (Vitest forks; Jest workers on the built package)
 * prints the seed line exactly once, and every worker's chaos used that seed.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const scratch = mkdtempSync(join(tmpdir(), 'agent-doubles-run-seed-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Runs a child suite; its output and each test's `{ seed, pid }`. */
async function childRun(label: string, command: string[]): Promise<{ output: string; tests: Array<{ test: string; seed: number; pid: number }> }> {
  const out = join(scratch, `${label}.jsonl`)
  const env = { ...process.env, CHAOS_OUT: out, AGENT_DOUBLES_CHAOS_SEED: '', AGENT_DOUBLES_RUN_SEED: '' }
  const output = await new Promise<string>((done) => {
    execFile(process.execPath, command, { cwd: root, env, timeout: 200_000 }, (_error, stdout, stderr) => done(`${stdout}\n${stderr}`))
  })
  const tests = existsSync(out) ? readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : []
  return { output, tests }
}

function expectOneSeed({ output, tests }: Awaited<ReturnType<typeof childRun>>): void {
  const lines = output.split('\n').filter((line) => line.includes('[agent-doubles] chaos seed'))
  expect(lines, output).toHaveLength(1)
  const seed = Number(/chaos seed (\d+) \(replay with AGENT_DOUBLES_CHAOS_SEED=\1\)/.exec(lines[0])?.[1])
  expect(tests).toHaveLength(2)
  // Several workers, one seed: the one printed.
  expect(new Set(tests.map((entry) => entry.pid)).size).toBeGreaterThan(1)
  for (const entry of tests) expect(entry.seed).toBe(seed)
}

describe('the run prints its chaos seed once, whatever the workers', () => {
  test('Vitest: globalSetup agent-doubles/vitest/global-setup, two forks', async () => {
    expectOneSeed(await childRun('vitest', [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/chaos/suites/vitest.seed.config.ts']))
  }, 240_000)

  test('Jest: globalSetup agent-doubles/jest/global-setup, two workers', async () => {
    expect(existsSync(join(root, 'dist/jest/global-setup.cjs')), 'npm run build first: the Jest child runs the built package').toBe(true)
    const cache = join(scratch, 'jest-cache')
    expectOneSeed(await childRun('jest', [join(root, 'node_modules/jest/bin/jest.js'), '--config', 'test/chaos/suites/jest.seed.config.cjs', '--maxWorkers=2', `--cacheDirectory=${cache}`]))
  }, 240_000)
})
