/**
 * The WebSocket side (`ws` and the transports of SPEC §18) is loaded by a server's first
 * upgrade, not by `start()`: most test files never open a WebSocket, and loading it cost every
 * file that started a FakeProxy about 115 ms of CPU. Each case runs in a fresh process, where
 * nothing else has loaded it.
 */
import { expect, test } from 'vitest'
import { runChild } from '../child-figures.js'

const child = (mode: string): Promise<Record<string, unknown>> => runChild(new URL('./children/lazy-side.ts', import.meta.url), [], mode)

test('start() and HTTP requests leave the WebSocket side unloaded; the first upgrade loads and serves it', async () => {
  expect(await child('load')).toEqual({ afterStart: false, afterHttp: false, afterUpgrade: true, firstEvent: 'session.created' })
})

test('a server closed while an upgrade waits for the WebSocket side ends the upgrade and leaves nothing open', async () => {
  // The child exits only if no socket or timer is left: a hang fails the run's timeout.
  expect(await child('close')).toMatchObject({ outcome: 'closed' })
})
