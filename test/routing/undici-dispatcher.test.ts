// The guard loads undici's Dispatcher class on its own, not undici's main module (see
// src/routing/dispatcher.ts): that file must stay the class undici exports, and loading
// agent-doubles must not load the rest of undici.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { Dispatcher } from 'undici'
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js'
import { expect, test } from 'vitest'

const exec = promisify(execFile)
const index = fileURLToPath(new URL('../../src/index.ts', import.meta.url))

test("the Dispatcher file the guard loads is the class undici's main module exports", () => {
  expect(DispatcherClass).toBe(Dispatcher)
})

test("importing agent-doubles loads none of undici's main module; the guard then wraps the dispatcher Node's fetch makes", async () => {
  // undici's main module defines the `.2` global dispatcher as it loads; Node 20's own undici defines only `.1`.
  const script = `
    const two = Symbol.for('undici.globalDispatcher.2')
    const { installNetworkGuard } = await import(${JSON.stringify(index)})
    const loadedUndici = globalThis[two] !== undefined
    const uninstall = installNetworkGuard()
    const wrapped = globalThis[Symbol.for('undici.globalDispatcher.1')]
    const answer = await fetch('data:text/plain,ok').then((response) => response.text())
    uninstall()
    const after = globalThis[Symbol.for('undici.globalDispatcher.1')]
    console.log(JSON.stringify({ loadedUndici, wrapped: wrapped?.constructor?.name, answer, after: after?.constructor?.name }))
  `
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script])
  const report = JSON.parse(stdout.trim()) as Record<string, unknown>
  expect(report.loadedUndici).toBe(false)
  expect(report.wrapped).toBe('GuardedDispatcher')
  expect(report.answer).toBe('ok')
  // What the uninstall puts back is Node's own dispatcher, which its fetch made when the guard asked.
  expect(report.after).toBe('Agent')
})
