/**
 * SPEC §9, §18: undici's WebSocket (Node's global one on 22+) goes through the dispatcher the
 * network guard hooks, so a client on `wss://api.openai.com` reaches the fake, as `ws`-based
 * clients do through `node:https`.
 */
import { WebSocket as UndiciWebSocket } from 'undici'
import { expect, onTestFinished, test } from 'vitest'
import { installNetworkGuard, routeProvidersTo } from '../../src/index.js'
import { startProxy } from '../proxy/helpers.js'

test("undici's WebSocket to wss://api.openai.com/v1/realtime is routed to the fake", async () => {
  const proxy = await startProxy()
  const stopRouting = installNetworkGuard({ route: routeProvidersTo(proxy.url) })
  onTestFinished(stopRouting)
  const socket = new UndiciWebSocket('wss://api.openai.com/v1/realtime?model=gpt-realtime')
  onTestFinished(() => socket.close())
  const first = await new Promise<string>((resolve, reject) => {
    socket.addEventListener('message', (event) => resolve(String(event.data)), { once: true })
    socket.addEventListener('error', () => reject(new Error('the WebSocket failed')), { once: true })
  })
  expect(JSON.parse(first)).toMatchObject({ type: 'session.created', session: { model: 'gpt-realtime' } })
  expect(proxy.sessions[0]).toMatchObject({ transport: 'openai-realtime', path: '/v1/realtime' })
})
