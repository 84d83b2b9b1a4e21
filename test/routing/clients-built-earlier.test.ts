// Clients built before the guard is installed, with their default (real) base URLs: the guard on
// undici's global dispatcher and on node:http/node:https routes each to the fake, or refuses it
// with its clear error — fetch, undici, http(s) and URL-like objects alike.
import Anthropic from '@anthropic-ai/sdk'
import { anthropic } from '@ai-sdk/anthropic'
import { openai } from '@ai-sdk/openai'
import { generateText } from 'ai'
import http from 'node:http'
import https, { request as namedHttpsRequest } from 'node:https'
import OpenAI from 'openai'
import * as undici from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { routeProvidersTo } from '../../src/guard/provider-hosts.js'
import { REAL_MODEL_CALL } from '../../src/guard/real-model-call.js'
import { FakeProxy } from '../../src/server/fake-proxy.js'
import { installSafetyNet, withDefaultBaseUrls, type SafetyNet } from '../guard/helpers.js'
import { localLookup, send } from './http-helpers.js'

// Module scope, before any install: these clients hold Node's fetch and their default URLs.
const openaiClient = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
const anthropicClient = withDefaultBaseUrls(() => new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 }))
const messages = [{ role: 'user' as const, content: 'hi' }]
const chatBody = JSON.stringify({ model: 'gpt-5', messages })

let net: SafetyNet
const proxy = new FakeProxy()
const savedKeys = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY }
beforeAll(async () => {
  await proxy.start()
  // The AI SDK providers read their key at each call; their base URL was read at import.
  process.env.OPENAI_API_KEY = 'sk-test'
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test'
})
afterAll(async () => {
  await proxy.close()
  for (const [name, value] of Object.entries(savedKeys)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})
let uninstall: (() => void) | undefined
afterEach(async () => {
  uninstall?.()
  uninstall = undefined
  proxy.reset()
  targets.length = 0
  await net.restore()
})

function guard(options?: Parameters<typeof installNetworkGuard>[0]): void {
  net = installSafetyNet()
  uninstall = installNetworkGuard(options)
}

const paths = () => proxy.requests.map((request) => `${request.method} ${request.path}`)

/** routeProvidersTo(proxy.url), noting each target it gives: one per request. */
const targets: string[] = []
function routeToProxy(url: URL): string | undefined {
  const target = routeProvidersTo(proxy.url)(url)
  if (target) targets.push(target.slice(proxy.url.length))
  return target
}

describe('with a route to the fake, every client reaches it', () => {
  test('module-scope new OpenAI() and new Anthropic(), built before the install', async () => {
    guard({ route: routeToProxy })
    expect(openaiClient.baseURL).toBe('https://api.openai.com/v1')
    const chat = await openaiClient.chat.completions.create({ model: 'gpt-5', messages })
    expect(typeof chat.choices[0]?.message.content).toBe('string')
    await anthropicClient.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages })
    expect(paths()).toEqual(['POST /v1/chat/completions', 'POST /v1/messages'])
    expect(net.calls).toEqual([`POST ${proxy.url}/v1/chat/completions`, `POST ${proxy.url}/v1/messages`])
  })

  test('the module-level openai and anthropic providers of the AI SDK', async () => {
    guard({ route: routeToProxy })
    await generateText({ model: openai('gpt-5'), prompt: 'hi', maxRetries: 0 })
    await generateText({ model: anthropic('claude-sonnet-4-6'), prompt: 'hi', maxRetries: 0 })
    expect(paths()).toEqual(['POST /v1/responses', 'POST /v1/messages'])
  })

  test('undici.request and undici.fetch', async () => {
    guard({ route: routeToProxy })
    const response = await undici.request('https://api.openai.com/v1/models', { query: { limit: 2 } })
    expect(response.statusCode).toBe(200)
    expect(((await response.body.json()) as { object: string }).object).toBe('list')
    const fetched = await undici.fetch('https://api.anthropic.com/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, messages }) })
    expect(fetched.status).toBe(200)
    expect(paths()).toEqual(['GET /v1/models', 'POST /v1/messages'])
    expect(targets).toEqual(['/v1/models?limit=2', '/v1/messages'])
  })

  test('https.request, its ESM named import, and http.request to an http provider URL', async () => {
    guard({ route: routeToProxy })
    const posted = await send(https.request, 'https://api.openai.com/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', host: 'api.openai.com' } }, chatBody)
    expect(posted.status).toBe(200)
    expect(JSON.parse(posted.body).object).toBe('chat.completion')
    // An https.Agent cannot carry an http request: the routed one goes on http's default agent.
    await send(namedHttpsRequest, new URL('https://api.anthropic.com/v1/models'), { agent: new https.Agent({ keepAlive: false }) })
    await send(http.request, 'http://api.openai.com/v1/models', {})
    await send(https.get, { hostname: 'api.openai.com', path: '/v1/models?x=1', agent: new https.Agent({ keepAlive: false }) }, undefined)
    expect(targets).toEqual(['/v1/chat/completions', '/v1/models', '/v1/models', '/v1/models?x=1'])
    expect(paths()).toEqual(['POST /v1/chat/completions', 'GET /v1/models', 'GET /v1/models', 'GET /v1/models'])
    expect(proxy.requests[0]?.headers.host).toBe(new URL(proxy.url).host)
  })

  test('a URL-like object passed to fetch is resolved as fetch resolves it', async () => {
    guard({ route: routeToProxy })
    const response = await fetch({ toString: () => 'https://api.openai.com/v1/models' } as unknown as string)
    expect(response.status).toBe(200)
    expect(paths()).toEqual(['GET /v1/models'])
  })
})

describe('without a route, each is refused with the guard error and nothing is sent', () => {
  const expectGuardError = (error: unknown, method: string, url: string) => {
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ name: 'RealModelCallError', code: REAL_MODEL_CALL, method, url })
    expect((error as Error).message).toContain(`A real model was called: ${method} ${url}`)
  }

  test('the SDK clients and the AI SDK providers built before the install', async () => {
    guard()
    const fromOpenai = await openaiClient.models.list().catch((e: unknown) => e)
    expect(fromOpenai).toBeInstanceOf(OpenAI.APIConnectionError)
    // Node's fetch reports every failure below it as `TypeError: fetch failed`, the cause attached.
    expectGuardError(((fromOpenai as Error).cause as Error).cause, 'GET', 'https://api.openai.com/v1/models')
    const fromAnthropic = await anthropicClient.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages }).catch((e: unknown) => e)
    expect(fromAnthropic).toBeInstanceOf(Anthropic.APIConnectionError)
    expectGuardError(((fromAnthropic as Error).cause as Error).cause, 'POST', 'https://api.anthropic.com/v1/messages')
    const fromAiSdk = await generateText({ model: openai('gpt-5'), prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e)
    expect((fromAiSdk as Error).message).toContain('A real model was called: POST https://api.openai.com/v1/responses')
    expect(net.calls).toEqual([])
  })

  test('undici.request, undici.fetch and a URL-like object', async () => {
    guard()
    expectGuardError(await undici.request('https://api.openai.com/v1/models').catch((e: unknown) => e), 'GET', 'https://api.openai.com/v1/models')
    const fetched = await undici.fetch('https://api.mistral.ai/v1/chat/completions', { method: 'POST', body: '{}' }).catch((e: unknown) => e)
    expect(fetched).toBeInstanceOf(TypeError)
    expectGuardError((fetched as Error).cause, 'POST', 'https://api.mistral.ai/v1/chat/completions')
    const urlLike = await fetch({ toString: () => 'https://api.openai.com/v1/models' } as unknown as string).catch((e: unknown) => e)
    expectGuardError((urlLike as Error).cause, 'GET', 'https://api.openai.com/v1/models')
    expect(net.calls).toEqual([])
  })

  test('https.request, https.get and http.request emit it as their error; no socket is opened', async () => {
    guard()
    const lookups: string[] = []
    const lookup = localLookup(lookups)
    const errors: unknown[] = []
    for (const [fn, url] of [
      [https.request, 'https://api.openai.com/v1/chat/completions'],
      [namedHttpsRequest, 'https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse'],
      [http.request, 'http://api.anthropic.com/v1/messages'],
    ] as const) {
      errors.push(await send(fn, url, { method: 'POST', lookup }, '{}').catch((e: unknown) => e))
    }
    errors.push(await send(https.get, 'https://api.openai.com/v1/models', { lookup }).catch((e: unknown) => e))
    expectGuardError(errors[0], 'POST', 'https://api.openai.com/v1/chat/completions')
    expectGuardError(errors[1], 'POST', 'https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse')
    expectGuardError(errors[2], 'POST', 'http://api.anthropic.com/v1/messages')
    expectGuardError(errors[3], 'GET', 'https://api.openai.com/v1/models')
    expect(lookups).toEqual([])
  })
})
