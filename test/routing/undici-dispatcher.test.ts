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

test("importing agent-doubles loads none of undici's main module; the guard loads it at the first request, on an Agent it closes when it comes off", async () => {
  const script = `
    import { createRequire } from 'node:module'
    import { createServer } from 'node:http'
    const cache = createRequire(import.meta.url).cache
    const undiciLoaded = () => Object.keys(cache).some((file) => /[\\\\/]node_modules[\\\\/]undici[\\\\/]index\\.js$/.test(file))
    const one = Symbol.for('undici.globalDispatcher.1')
    const { installNetworkGuard } = await import(${JSON.stringify(index)})
    // Node 24 has made its fetch's dispatcher by now (something at load reads a lazy web global); Node 20 has not.
    const report = { atImport: undiciLoaded(), runtimeHadDispatcher: globalThis[one] !== undefined }
    const uninstall = installNetworkGuard()
    report.atInstall = undiciLoaded()
    report.installed = globalThis[one]?.constructor?.name
    const server = createServer((req, res) => res.end('ok'))
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    report.answer = await fetch('http://127.0.0.1:' + server.address().port + '/').then((response) => response.text())
    report.atRequest = undiciLoaded()
    uninstall()
    server.closeAllConnections()
    server.close()
    report.restored = globalThis[one]?.constructor?.name
    console.log(JSON.stringify(report))
  `
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script])
  const report = JSON.parse(stdout.trim()) as { runtimeHadDispatcher: boolean }
  expect(report).toEqual({
    atImport: false,
    runtimeHadDispatcher: report.runtimeHadDispatcher,
    atInstall: false,
    installed: 'GuardedDispatcher',
    answer: 'ok',
    // A dispatcher Node's fetch made before the guard is wrapped as it is; one the guard had Node
    // make is bypassed for undici's own Agent, which the first request loads.
    atRequest: !report.runtimeHadDispatcher,
    // Put back: the dispatcher Node's fetch made.
    restored: 'Agent',
  })
})
