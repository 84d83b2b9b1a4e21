// The last uninstall puts back exactly what was there — the global dispatcher, the node:http,
// node:https and node:http2 functions and their ESM named imports — and a refusal leaves no socket or timer.
import http, { get as namedHttpGet, request as namedHttpRequest } from 'node:http'
import https, { get as namedHttpsGet, request as namedHttpsRequest } from 'node:https'
import http2, { connect as namedHttp2Connect } from 'node:http2'
import { expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { globalDispatcher } from '../guard/helpers.js'
import { localLookup, send } from './http-helpers.js'

const hooks = () => ({
  dispatcher: globalDispatcher(),
  httpRequest: http.request,
  httpGet: http.get,
  httpsRequest: https.request,
  httpsGet: https.get,
  namedHttpRequest,
  namedHttpGet,
  namedHttpsRequest,
  namedHttpsGet,
  http2Connect: http2.connect,
  namedHttp2Connect,
})

test('install hooks every entry point, ESM named imports included; the last uninstall restores each', () => {
  const before = hooks()
  const first = installNetworkGuard()
  const second = installNetworkGuard({ route: () => undefined })
  const during = hooks()
  for (const [name, hook] of Object.entries(during)) expect(hook, name).not.toBe(before[name as keyof typeof before])
  expect(during.namedHttpsRequest).toBe(during.httpsRequest)
  first()
  expect(hooks()).toEqual(during)
  second()
  const after = hooks()
  for (const [name, hook] of Object.entries(after)) expect(hook, name).toBe(before[name as keyof typeof before])
})

const networkResources = () => process.getActiveResourcesInfo().filter((name) => /TCP|TLS|Timeout|GetAddrInfo/.test(name))

test('a refused request opens no socket and leaves no timer behind', async () => {
  const before = networkResources()
  const uninstall = installNetworkGuard()
  const lookups: string[] = []
  const refusals = await Promise.all([
    send(https.request, 'https://api.openai.com/v1/models', { lookup: localLookup(lookups), timeout: 60_000 }).catch((e: unknown) => e),
    send(http.get, 'http://api.anthropic.com/v1/messages', { lookup: localLookup(lookups) }).catch((e: unknown) => e),
    fetch('https://api.openai.com/v1/models').catch((e: unknown) => e),
  ])
  uninstall()
  expect(refusals.map((error) => (error as Error & { code?: string }).code ?? ((error as Error).cause as { code?: string }).code)).toEqual([
    'AGENT_DOUBLES_REAL_MODEL_CALL',
    'AGENT_DOUBLES_REAL_MODEL_CALL',
    'AGENT_DOUBLES_REAL_MODEL_CALL',
  ])
  expect(lookups).toEqual([])
  expect(networkResources()).toEqual(before)
})
