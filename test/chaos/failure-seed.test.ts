/**
 * SPEC §19 with §14: a test that fails under chaos prints its seed and its faults with the
 * failure — run as a child Vitest and a child Jest (on the built package), whose output is read.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve, join } from 'node:path'
import { expect, test } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

/** Runs a child test run; its whole output. */
function childOutput(args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise<string>((done) => {
    execFile(process.execPath, args, { cwd: root, env: { ...process.env, ...env, AGENT_DOUBLES_CHAOS_SEED: '' }, timeout: 120_000 }, (_error, stdout, stderr) => done(`${stdout}\n${stderr}`))
  })
}

test('Vitest: the failure names the seed, the replay variable and each fault', async () => {
  const output = await childOutput([join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/chaos/suites/vitest.config.ts'], { CHAOS_SUITE: 'test/chaos/suites/failing.vitest.ts' })
  expect(output).toContain('expects an answer it never gets')
  expect(output).toContain('chaos seed 99 (replay with AGENT_DOUBLES_CHAOS_SEED=99): #1 empty')
}, 150_000)

test('Jest: the failure Jest prints names the seed, the replay variable and each fault, under the test', async () => {
  expect(existsSync(join(root, 'dist/jest/setup.cjs')), 'npm run build first: the Jest child runs the built package').toBe(true)
  const output = await childOutput([join(root, 'node_modules/jest/bin/jest.js'), '--config', 'test/chaos/suites/jest.failing.config.cjs'])
  expect(output).toContain('✕ expects an answer it never gets')
  const failure = output.slice(output.indexOf('● expects an answer it never gets'))
  expect(failure).toMatch(/Expected: "an answer"\s+Received: ""/)
  expect(failure).toContain('chaos seed 99 (replay with AGENT_DOUBLES_CHAOS_SEED=99): #1 empty')
  expect(failure).toContain('reply: (empty)')
}, 150_000)
