// On a machine without Chromium, the browser step fails (a browser check that cannot run is not
// a pass) with a hint naming the package to install, and test:all's helper says so up front.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const exec = promisify(execFile)
const noChromium = { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' }

test('test:browser without Chromium: exit 1, naming apt-get install chromium and CHROMIUM_PATH', async () => {
  const failed = await exec('bash', ['scripts/test-browser.sh'], { cwd: root, env: noChromium }).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  )
  expect(failed?.code).toBe(1)
  expect(failed?.stderr).toContain('test:browser: no Chromium found')
  expect(failed?.stderr).toContain('apt-get install chromium')
  expect(failed?.stderr).toContain('CHROMIUM_PATH')
  expect(failed?.stderr).toContain('the browser-mode tests did NOT run')
})

test('find_chromium finds the one given, or prints nothing', async () => {
  const find = (env: NodeJS.ProcessEnv) => exec('bash', ['-c', 'source scripts/chromium.sh; find_chromium'], { cwd: root, env }).then((out) => out.stdout)
  expect(await find(noChromium)).toBe('')
  expect(await find({ ...process.env, CHROMIUM_PATH: '/bin/sh' })).toBe('/bin/sh\n')
})
