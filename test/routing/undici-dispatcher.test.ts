// The guard loads undici's Dispatcher class on its own, not undici's main module (see
// src/routing/dispatcher.ts): that file must stay the class undici exports, and loading
// agent-doubles must not load the rest of undici.
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { Agent, Dispatcher, request } from 'undici'
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js'
import AgentClass from 'undici/lib/dispatcher/agent.js'
import { expect, test } from 'vitest'
import { hookGlobalDispatcher } from '../../src/routing/dispatcher.js'
import { PASS } from '../../src/routing/decision.js'

const exec = promisify(execFile)
const index = fileURLToPath(new URL('../../src/index.ts', import.meta.url))

test("the Dispatcher and Agent files the guard loads are the classes undici's main module exports", () => {
  expect(DispatcherClass).toBe(Dispatcher)
  expect(AgentClass).toBe(Agent)
})

test("the guard wraps the dispatcher Node's fetch made and loads none of undici's main module or Agent, before or after a request", async () => {
  const script = `
    import { createRequire } from 'node:module'
    import { createServer } from 'node:http'
    const cache = createRequire(import.meta.url).cache
    const loaded = (pattern) => Object.keys(cache).some((file) => pattern.test(file.replaceAll('\\\\', '/')))
    const undiciLoaded = () => loaded(/\\/node_modules\\/undici\\/index\\.js$/)
    const agentLoaded = () => loaded(/\\/node_modules\\/undici\\/lib\\/dispatcher\\/agent\\.js$/)
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
    report.agentAtRequest = agentLoaded()
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
    // The dispatcher Node's fetch made, before the guard or at its request, is wrapped as it is:
    // no part of undici's own Agent is loaded for it.
    atRequest: false,
    agentAtRequest: false,
    // Put back: the dispatcher Node's fetch made.
    restored: 'Agent',
  })
})

test("a realm with no dispatcher, even after asking Node for one, gets undici's Agent made at its first request, and closed when the guard comes off", async () => {
  const server = createServer((_req, res) => res.end('ok'))
  const closed: Array<Promise<void>> = []
  server.on('connection', (socket) => closed.push(new Promise((resolve) => socket.once('close', () => resolve()))))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  // A vm realm's global: no `Response` of Node's, so nothing makes a dispatcher for it.
  const realm: Record<symbol, unknown> = {}
  const one = Symbol.for('undici.globalDispatcher.1')
  const leave = hookGlobalDispatcher(realm)(() => PASS)
  try {
    const guarded = realm[one] as Dispatcher
    expect(guarded.constructor.name).toBe('GuardedDispatcher')
    const { port } = server.address() as { port: number }
    const answer = await request(`http://127.0.0.1:${port}/`, { dispatcher: guarded })
    expect(await answer.body.text()).toBe('ok')
    expect(closed).toHaveLength(1)
  } finally {
    leave()
  }
  // The guard's Agent closed its kept-alive connection (the server closed none).
  await Promise.all(closed)
  await new Promise((resolve) => server.close(resolve))
  // The realm is as it was: the key the guard added is gone.
  expect(Object.getOwnPropertySymbols(realm)).toEqual([])
})
