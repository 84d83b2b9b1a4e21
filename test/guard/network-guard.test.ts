import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { installNetworkGuard, isNetworkGuardInstalled, PASS_GUARD } from '../../src/guard/network-guard.js'
import { REAL_MODEL_CALL } from '../../src/guard/real-model-call.js'
import { routeProvidersTo } from '../../src/guard/provider-hosts.js'
import { installSafetyNet, type SafetyNet } from './helpers.js'

let net: SafetyNet
const uninstalls: Array<() => void> = []
const guard = (...args: Parameters<typeof installNetworkGuard>) => {
  const uninstall = installNetworkGuard(...args)
  uninstalls.push(uninstall)
  return uninstall
}

beforeEach(() => {
  net = installSafetyNet(() => new Response('from the real fetch'))
})
afterEach(() => {
  for (const uninstall of uninstalls.splice(0)) uninstall()
  net.restore()
  delete process.env.AGENT_DOUBLES_ALLOW_REAL
})

describe('refusing', () => {
  test('a fetch to a provider host rejects with the message and sends nothing', async () => {
    guard()
    const error = await fetch('https://api.openai.com/v1/chat/completions?x=1', { method: 'post', body: '{}' }).catch((e: unknown) => e)
    expect(net.calls).toEqual([])
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ code: REAL_MODEL_CALL, method: 'POST', url: 'https://api.openai.com/v1/chat/completions?x=1' })
    const message = (error as Error).message
    expect(message).toMatch(/^\[agent-doubles\] A real model was called: POST https:\/\/api\.openai\.com\/v1\/chat\/completions\?x=1\n/)
    expect(message).toContain('OPENAI_BASE_URL and ANTHROPIC_BASE_URL')
    expect(message).toContain('baseURL: `${proxy.url}/v1`')
    expect(message).toContain('interceptProviders: true')
    expect(message).toContain('AGENT_DOUBLES_ALLOW_REAL=1')
  })

  test('names the method of a Request, and GET by default', async () => {
    guard()
    await expect(fetch(new Request('https://api.anthropic.com/v1/messages', { method: 'PUT', body: 'x' }))).rejects.toThrow(
      'A real model was called: PUT https://api.anthropic.com/v1/messages',
    )
    await expect(fetch(new URL('https://openrouter.ai/api/v1/models'))).rejects.toThrow('called: GET https://openrouter.ai/api/v1/models')
    expect(net.calls).toEqual([])
  })

  test.each([
    'https://generativelanguage.googleapis.com/v1beta/models',
    'https://my-resource.openai.azure.com/openai/deployments/x/chat/completions',
    'https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse',
    'https://API.Mistral.AI:8443/v1/chat/completions',
  ])('refuses %s', async (url) => {
    guard()
    await expect(fetch(url)).rejects.toMatchObject({ code: REAL_MODEL_CALL })
    expect(net.calls).toEqual([])
  })

  test('other hosts pass untouched, with their init', async () => {
    guard()
    const res = await fetch('http://127.0.0.1:9/v1/chat/completions', { method: 'POST', body: 'hi' })
    expect(await res.text()).toBe('from the real fetch')
    await fetch('https://example.com/openai.com')
    await fetch('https://api.openai.com.example.net/v1')
    expect(net.calls).toEqual(['POST http://127.0.0.1:9/v1/chat/completions', 'GET https://example.com/openai.com', 'GET https://api.openai.com.example.net/v1'])
  })

  test('a request marked to pass the guard (record mode) reaches the real fetch', async () => {
    guard()
    await fetch('https://api.openai.com/v1/models', { [PASS_GUARD]: true } as RequestInit)
    expect(net.calls).toEqual(['GET https://api.openai.com/v1/models'])
  })
})

describe('AGENT_DOUBLES_ALLOW_REAL', () => {
  test('=1 lets provider requests through to the original fetch, read at each request', async () => {
    guard()
    process.env.AGENT_DOUBLES_ALLOW_REAL = '1'
    const res = await fetch('https://api.openai.com/v1/models')
    expect(await res.text()).toBe('from the real fetch')
    process.env.AGENT_DOUBLES_ALLOW_REAL = '0'
    await expect(fetch('https://api.openai.com/v1/models')).rejects.toMatchObject({ code: REAL_MODEL_CALL })
    expect(net.calls).toEqual(['GET https://api.openai.com/v1/models'])
  })
})

describe('routing', () => {
  test('a route sends OpenAI and Anthropic requests to the fake, path, query and body kept', async () => {
    guard({ route: routeProvidersTo('http://127.0.0.1:4000/') })
    await fetch('https://api.openai.com/v1/chat/completions?a=b', { method: 'POST', body: '{}' })
    await fetch(new Request('https://api.anthropic.com/v1/messages', { method: 'POST', body: '{"x":1}' }))
    expect(net.calls).toEqual(['POST http://127.0.0.1:4000/v1/chat/completions?a=b', 'POST http://127.0.0.1:4000/v1/messages'])
  })

  test('a provider the route does not cover is refused, saying only OpenAI and Anthropic can be routed', async () => {
    guard({ route: routeProvidersTo('http://127.0.0.1:4000') })
    const error = await fetch('https://api.groq.com/openai/v1/chat/completions').catch((e: unknown) => e)
    expect((error as Error).message).toContain('interceptProviders routes only api.openai.com and api.anthropic.com to the fake proxy; api.groq.com cannot be routed')
    expect(net.calls).toEqual([])
  })

  test('the latest install with a route wins; removing it brings back the refusal', async () => {
    guard()
    const stopRouting = guard({ route: () => 'http://127.0.0.1:1/routed' })
    await fetch('https://api.openai.com/v1/models')
    stopRouting()
    await expect(fetch('https://api.openai.com/v1/models')).rejects.toMatchObject({ code: REAL_MODEL_CALL })
    expect(net.calls).toEqual(['GET http://127.0.0.1:1/routed'])
  })
})

describe('install and uninstall', () => {
  test('installing twice wraps once; the last uninstall restores the exact fetch', () => {
    const first = guard()
    const guarded = globalThis.fetch
    expect(guarded).not.toBe(net.fetch)
    const second = guard()
    expect(globalThis.fetch).toBe(guarded)
    second()
    expect(globalThis.fetch).toBe(guarded)
    expect(isNetworkGuardInstalled()).toBe(true)
    first()
    expect(globalThis.fetch).toBe(net.fetch)
    expect(isNetworkGuardInstalled()).toBe(false)
    expect(Object.getOwnPropertySymbols(globalThis).map(String)).not.toContain('Symbol(agent-doubles.network-guard)')
  })

  test('an uninstaller called twice removes only its own install', async () => {
    const first = guard()
    const second = guard()
    second()
    second()
    await expect(fetch('https://api.openai.com/v1/models')).rejects.toMatchObject({ code: REAL_MODEL_CALL })
    first()
    expect(globalThis.fetch).toBe(net.fetch)
  })

  test('a wrapper kept by a client after uninstall only calls through', async () => {
    const uninstall = guard()
    const kept = globalThis.fetch
    uninstall()
    await kept('https://api.openai.com/v1/models')
    expect(net.calls).toEqual(['GET https://api.openai.com/v1/models'])
  })

  test('a fetch set over the guard is left in place at uninstall', () => {
    const uninstall = guard()
    const mine: typeof fetch = async () => new Response('mine')
    globalThis.fetch = mine
    uninstall()
    expect(globalThis.fetch).toBe(mine)
    expect(isNetworkGuardInstalled()).toBe(false)
  })

  test('a route that is not a function is a TypeError naming it', () => {
    expect(() => installNetworkGuard({ route: 'http://x' as never })).toThrow(
      /^\[agent-doubles\] installNetworkGuard: option route must be a function \(url: URL\) => string \| undefined, got "http:\/\/x"$/,
    )
    expect(() => installNetworkGuard({ routes: 1 } as never)).toThrow(TypeError)
    expect(isNetworkGuardInstalled()).toBe(false)
  })
})
