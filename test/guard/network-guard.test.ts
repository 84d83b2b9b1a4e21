import http from 'node:http'
import https from 'node:https'
import { createServer, type Server } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { installNetworkGuard, isNetworkGuardInstalled } from '../../src/guard/network-guard.js'
import { REAL_MODEL_CALL } from '../../src/guard/real-model-call.js'
import { routeProvidersTo } from '../../src/guard/provider-hosts.js'
import { globalDispatcher, installSafetyNet, type SafetyNet } from './helpers.js'

let net: SafetyNet
const uninstalls: Array<() => void> = []
const guard = (...args: Parameters<typeof installNetworkGuard>) => {
  const uninstall = installNetworkGuard(...args)
  uninstalls.push(uninstall)
  return uninstall
}

// A local server standing in for the fake: every request it gets is noted.
const received: string[] = []
const server: Server = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk: Buffer) => (body += chunk.toString()))
  req.on('end', () => {
    received.push(`${req.method} ${req.url} host=${req.headers.host}${body ? ` body=${body}` : ''}`)
    res.end('from the local server')
  })
})
let local = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  local = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

beforeAll(() => {
  net = installSafetyNet({ status: 200, body: '"from the network"' })
})
afterAll(() => net.restore())
afterEach(() => {
  for (const uninstall of uninstalls.splice(0)) uninstall()
  net.calls.length = 0
  received.length = 0
  delete process.env.AGENT_DOUBLES_ALLOW_REAL
})

/** The guard error a `fetch` rejected with: Node's fetch wraps it as the cause of `fetch failed`. */
async function refusal(pending: Promise<unknown>): Promise<Error & { code?: string }> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(TypeError)
  expect((error as Error).message).toBe('fetch failed')
  return (error as Error).cause as Error & { code?: string }
}

describe('refusing', () => {
  test('a fetch to a provider host rejects with the message and sends nothing', async () => {
    guard()
    const error = await refusal(fetch('https://api.openai.com/v1/chat/completions?x=1', { method: 'post', body: '{}' }))
    expect(net.calls).toEqual([])
    expect(error).toMatchObject({ name: 'RealModelCallError', code: REAL_MODEL_CALL, method: 'POST', url: 'https://api.openai.com/v1/chat/completions?x=1' })
    const message = error.message
    expect(message).toMatch(/^\[agent-doubles\] A real model was called: POST https:\/\/api\.openai\.com\/v1\/chat\/completions\?x=1\n/)
    expect(message).toContain('OPENAI_BASE_URL and ANTHROPIC_BASE_URL')
    expect(message).toContain('baseURL: `${proxy.url}/v1`')
    expect(message).toContain('interceptProviders: true')
    expect(message).toContain("AGENT_DOUBLES_ALLOW_REAL=1 (read at each request), or allow the host: installNetworkGuard({ allow: ['api.openai.com'] })")
  })

  test('names the method of a Request, and GET by default', async () => {
    guard()
    expect((await refusal(fetch(new Request('https://api.anthropic.com/v1/messages', { method: 'PUT', body: 'x' })))).message).toContain(
      'A real model was called: PUT https://api.anthropic.com/v1/messages',
    )
    expect((await refusal(fetch(new URL('https://openrouter.ai/api/v1/models')))).message).toContain('called: GET https://openrouter.ai/api/v1/models')
    expect(net.calls).toEqual([])
  })

  test.each([
    'https://generativelanguage.googleapis.com/v1beta/models',
    'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini:generateContent',
    'https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini:generateContent',
    'https://my-resource.openai.azure.com/openai/deployments/x/chat/completions',
    'https://my-resource.cognitiveservices.azure.com/openai/deployments/x/chat/completions',
    'https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse',
    'https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com/model/x/converse',
    'https://API.Mistral.AI:8443/v1/chat/completions',
    'https://api.fireworks.ai/inference/v1/chat/completions',
    'https://api.perplexity.ai/chat/completions',
    'https://api.cohere.com/v2/chat',
  ])('refuses %s', async (url) => {
    guard()
    expect(await refusal(fetch(url))).toMatchObject({ code: REAL_MODEL_CALL })
    expect(net.calls).toEqual([])
  })

  test('other hosts pass untouched, with their method and body', async () => {
    guard()
    const res = await fetch(`${local}/v1/chat/completions`, { method: 'POST', body: 'hi' })
    expect(await res.text()).toBe('from the local server')
    await fetch('https://example.com/openai.com')
    await fetch('https://api.openai.com.example.net/v1')
    expect(net.calls).toEqual([`POST ${local}/v1/chat/completions`, 'GET https://example.com/openai.com', 'GET https://api.openai.com.example.net/v1'])
    expect(received).toEqual(['POST /v1/chat/completions host=' + local.slice(7) + ' body=hi'])
  })

  test('no argument lets a request past it: the first release flag is gone', async () => {
    guard()
    const flag = Symbol.for('agent-doubles.pass-network-guard')
    expect(await refusal(fetch('https://api.openai.com/v1/models', { [flag]: true } as RequestInit))).toMatchObject({ code: REAL_MODEL_CALL })
    expect(net.calls).toEqual([])
  })
})

describe('AGENT_DOUBLES_ALLOW_REAL and allow', () => {
  test('AGENT_DOUBLES_ALLOW_REAL=1 lets provider requests through, read at each request', async () => {
    guard()
    process.env.AGENT_DOUBLES_ALLOW_REAL = '1'
    expect(await (await fetch('https://api.openai.com/v1/models')).text()).toBe('"from the network"')
    process.env.AGENT_DOUBLES_ALLOW_REAL = '0'
    expect(await refusal(fetch('https://api.openai.com/v1/models'))).toMatchObject({ code: REAL_MODEL_CALL })
    expect(net.calls).toEqual(['GET https://api.openai.com/v1/models'])
  })

  test('allow lets the named hosts through while its install lives, and no others', async () => {
    const uninstall = guard({ allow: ['API.Groq.com.'] })
    guard()
    expect((await fetch('https://api.groq.com/openai/v1/models')).status).toBe(200)
    expect(await refusal(fetch('https://api.openai.com/v1/models'))).toMatchObject({ code: REAL_MODEL_CALL })
    uninstall()
    expect(await refusal(fetch('https://api.groq.com/openai/v1/models'))).toMatchObject({ code: REAL_MODEL_CALL })
    expect(net.calls).toEqual(['GET https://api.groq.com/openai/v1/models'])
  })

  test('allow must be an array of hostnames', () => {
    expect(() => installNetworkGuard({ allow: 'api.groq.com' as never })).toThrow(
      '[agent-doubles] installNetworkGuard: option allow must be an array of hostnames, got "api.groq.com"',
    )
    expect(() => installNetworkGuard({ allow: [''] })).toThrow(TypeError)
    expect(isNetworkGuardInstalled()).toBe(false)
  })
})

describe('routing', () => {
  test('a route sends requests to another URL, method, body and query kept, Host fixed', async () => {
    guard({ route: routeProvidersTo(`${local}/`) })
    await fetch('https://api.openai.com/v1/chat/completions?a=b', { method: 'POST', body: '{}' })
    await fetch(new Request('https://api.anthropic.com/v1/messages', { method: 'POST', body: '{"x":1}' }))
    const host = local.slice('http://'.length)
    expect(received).toEqual([`POST /v1/chat/completions?a=b host=${host} body={}`, `POST /v1/messages host=${host} body={"x":1}`])
    expect(net.calls).toEqual([`POST ${local}/v1/chat/completions?a=b`, `POST ${local}/v1/messages`])
  })

  test('the route is consulted for every request, not only provider hosts', async () => {
    const seen: string[] = []
    guard({
      route: (url) => {
        seen.push(url.href)
        return url.hostname === 'example.com' ? `${local}/example${url.pathname}` : undefined
      },
    })
    await fetch('https://example.com/page')
    await fetch(`${local}/direct`)
    expect(seen).toEqual(['https://example.com/page', `${local}/direct`])
    expect(received.map((line) => line.split(' ')[1])).toEqual(['/example/page', '/direct'])
  })

  test('a provider the route does not cover is refused, saying the fake serves no such API', async () => {
    guard({ route: routeProvidersTo(local) })
    const error = await refusal(fetch('https://api.cohere.com/v2/chat', { method: 'POST', body: '{}' }))
    expect(error.message).toContain('The route to the fake proxy (interceptProviders) has no target for api.cohere.com/v2/chat')
    expect(net.calls).toEqual([])
  })

  test('a route to a provider host is no way around the guard', async () => {
    guard({ route: () => 'https://api.openai.com/v1/models' })
    expect(await refusal(fetch('https://example.com/'))).toMatchObject({ code: REAL_MODEL_CALL, url: 'https://api.openai.com/v1/models' })
    expect(net.calls).toEqual([])
  })

  test('a route that throws or returns no absolute http(s) URL fails that request, naming what it returned', async () => {
    guard({ route: (url) => (url.pathname === '/throw' ? (() => { throw new Error('route broke') })() : 'not a url') })
    expect((await refusal(fetch('https://example.com/throw'))).message).toBe('route broke')
    expect((await refusal(fetch('https://example.com/x'))).message).toBe(
      '[agent-doubles] installNetworkGuard: option route must return an absolute http(s) URL or undefined, got "not a url" for https://example.com/x',
    )
    expect(net.calls).toEqual([])
  })

  test('the latest install with a route wins; removing it brings back the refusal', async () => {
    guard()
    const stopRouting = guard({ route: () => `${local}/routed` })
    await fetch('https://api.openai.com/v1/models')
    stopRouting()
    expect(await refusal(fetch('https://api.openai.com/v1/models'))).toMatchObject({ code: REAL_MODEL_CALL })
    expect(net.calls).toEqual([`GET ${local}/routed`])
  })
})

describe('install and uninstall', () => {
  const hooked = () => [globalDispatcher(), http.request, http.get, https.request, https.get]

  test('installing twice hooks once; the last uninstall restores the exact dispatcher and functions', () => {
    const before = hooked()
    const fetchBefore = globalThis.fetch
    const first = guard()
    const during = hooked()
    during.forEach((hook, index) => expect(hook).not.toBe(before[index]))
    // In the main realm the dispatcher sees every fetch: fetch itself stays as it was.
    expect(globalThis.fetch).toBe(fetchBefore)
    const second = guard()
    expect(hooked()).toEqual(during)
    second()
    expect(hooked()).toEqual(during)
    expect(isNetworkGuardInstalled()).toBe(true)
    first()
    hooked().forEach((hook, index) => expect(hook).toBe(before[index]))
    expect(globalThis.fetch).toBe(fetchBefore)
    expect(isNetworkGuardInstalled()).toBe(false)
    expect(Object.getOwnPropertySymbols(globalThis).map(String)).not.toContain('Symbol(agent-doubles.network-guard)')
    expect(Object.getOwnPropertySymbols(http).map(String)).not.toContain('Symbol(agent-doubles.node-http-hook)')
  })

  test('an uninstaller called twice removes only its own install', async () => {
    const first = guard()
    const second = guard()
    second()
    second()
    expect(await refusal(fetch('https://api.openai.com/v1/models'))).toMatchObject({ code: REAL_MODEL_CALL })
    first()
    expect(globalDispatcher()).toBe(net.dispatcher)
  })

  test('a dispatcher kept after uninstall only passes requests through', async () => {
    const uninstall = guard()
    const kept = globalDispatcher() as typeof net.dispatcher
    uninstall()
    await fetch('https://api.openai.com/v1/models', { dispatcher: kept } as unknown as RequestInit)
    expect(net.calls).toEqual(['GET https://api.openai.com/v1/models'])
  })

  test('a dispatcher or http.request set over the guard is left in place at uninstall', () => {
    const uninstall = guard()
    const mine = { dispatch: () => true }
    const holder = globalThis as unknown as Record<symbol, unknown>
    const key = Symbol.for('undici.globalDispatcher.1')
    holder[key] = mine
    const original = http.request
    const myRequest = ((...args: Parameters<typeof http.request>) => original(...args)) as typeof http.request
    ;(http as { request: typeof http.request }).request = myRequest
    uninstall()
    expect(holder[key]).toBe(mine)
    expect(http.request).toBe(myRequest)
    expect(isNetworkGuardInstalled()).toBe(false)
    holder[key] = net.dispatcher
    ;(http as { request: typeof http.request }).request = original
  })

  test('a route that is not a function is a TypeError naming it', () => {
    expect(() => installNetworkGuard({ route: 'http://x' as never })).toThrow(
      /^\[agent-doubles\] installNetworkGuard: option route must be a function \(url: URL\) => string \| undefined, got "http:\/\/x"$/,
    )
    expect(() => installNetworkGuard({ routes: 1 } as never)).toThrow(TypeError)
    expect(isNetworkGuardInstalled()).toBe(false)
  })
})
