/**
 * Run in a child process by own-dispatcher.test.ts, so the dispatcher it installs touches no
 * other test: the guard goes on first, then undici loads (its key for the global dispatcher is
 * then the guard's), the test sets its own Agent and puts the original back, and the guard
 * comes off. Prints one JSON line: whether the teardown threw, and what is left under the keys.
 */
import { installNetworkGuard } from '../../../src/guard/network-guard.js'

const off = installNetworkGuard()
const { Agent, getGlobalDispatcher, setGlobalDispatcher } = await import('undici')
const original = getGlobalDispatcher()
const own = new Agent()
setGlobalDispatcher(own)
setGlobalDispatcher(original)
let teardown = 'ok'
try {
  off()
} catch (error) {
  teardown = (error as Error).message
}
const holder = globalThis as unknown as Record<symbol, { dispatch?: unknown } | undefined>
const left = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')].map((key) => typeof holder[key]?.dispatch)
await own.close()
process.stdout.write(`${JSON.stringify({ teardown, left, stillGuarded: getGlobalDispatcher() === original })}\n`)
