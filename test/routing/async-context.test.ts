// The route runs synchronously in the caller's async context: a store the caller set with
// AsyncLocalStorage is visible in it, whichever way the request goes out — so concurrent
// callers with different stores are routed to different targets.
import { AsyncLocalStorage } from 'node:async_hooks'
import { createServer, type Server } from 'node:http'
import https from 'node:https'
import OpenAI from 'openai'
import * as undici from 'undici'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { isProviderHost } from '../../src/guard/provider-hosts.js'
import { withDefaultBaseUrls } from '../guard/helpers.js'
import { send } from './http-helpers.js'

const lane = new AsyncLocalStorage<string>()
const client = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))

// One local server; the route puts the caller's lane into the path, the server notes it.
const received: string[] = []
const server: Server = createServer((req, res) => {
  received.push(req.url ?? '')
  // Answer late enough that both callers are in flight together.
  setImmediate(() => {
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ object: 'list', data: [{ id: req.url, object: 'model', created: 0, owned_by: 'x' }] }))
  })
})
let local = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  local = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const seen: Array<string | undefined> = []
let uninstall: () => void
beforeAll(() => {
  uninstall = installNetworkGuard({
    route: (url) => {
      seen.push(lane.getStore())
      if (!isProviderHost(url.hostname)) return undefined
      const store = lane.getStore()
      return store === undefined ? undefined : `${local}/${store}${url.pathname}`
    },
  })
})
afterAll(() => uninstall())
afterEach(() => {
  received.length = 0
  seen.length = 0
})

test('two concurrent fetch callers (an SDK client built before the install) get their own targets', async () => {
  const [a, b] = await Promise.all([lane.run('lane-a', () => client.models.list()), lane.run('lane-b', () => client.models.list())])
  expect(a.data[0]?.id).toBe('/lane-a/v1/models')
  expect(b.data[0]?.id).toBe('/lane-b/v1/models')
  expect(received.sort()).toEqual(['/lane-a/v1/models', '/lane-b/v1/models'])
  expect(seen.sort()).toEqual(['lane-a', 'lane-b'])
})

test('undici.request and https.request see the caller\'s store too', async () => {
  const viaUndici = (store: string) =>
    lane.run(store, async () => (await undici.request('https://api.openai.com/v1/models')).body.json() as Promise<{ data: Array<{ id: string }> }>)
  const viaHttps = (store: string) => lane.run(store, () => send(https.request, 'https://api.anthropic.com/v1/models', {}))
  const [a, b, c, d] = await Promise.all([viaUndici('u1'), viaUndici('u2'), viaHttps('h1'), viaHttps('h2')])
  expect([a.data[0]?.id, b.data[0]?.id]).toEqual(['/u1/v1/models', '/u2/v1/models'])
  expect([c, d].map((sent) => JSON.parse(sent.body).data[0].id)).toEqual(['/h1/v1/models', '/h2/v1/models'])
  expect(seen.sort()).toEqual(['h1', 'h2', 'u1', 'u2'])
})

test('outside any store the route gives no target, and the provider request is refused', async () => {
  await expect(client.models.list()).rejects.toMatchObject({ cause: { cause: { code: 'AGENT_DOUBLES_REAL_MODEL_CALL' } } })
  expect(seen).toEqual([undefined])
  expect(received).toEqual([])
})
