/**
 * SPEC §19 with §14: a test that fails under chaos prints its seed and its faults with the
 * failure — run as a child Vitest, whose output is read.
 */
import { execFile } from 'node:child_process'
import { resolve, join } from 'node:path'
import { expect, test } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

test('the failure names the seed, the replay variable and each fault', async () => {
  const output = await new Promise<string>((done) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/chaos/suites/vitest.config.ts'],
      { cwd: root, env: { ...process.env, CHAOS_SUITE: 'test/chaos/suites/failing.vitest.ts', AGENT_DOUBLES_CHAOS_SEED: '' }, timeout: 120_000 },
      (_error, stdout, stderr) => done(`${stdout}\n${stderr}`),
    )
  })
  expect(output).toContain('expects an answer it never gets')
  expect(output).toContain('chaos seed 99 (replay with AGENT_DOUBLES_CHAOS_SEED=99): #1 empty')
}, 150_000)
