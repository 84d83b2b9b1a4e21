/**
 * SPEC §10.1/§21: the providers' own error answers (test/recordings/{gemini,vertex,bedrock,
 * ollama,azure}/, sources in each folder's SOURCES.md) against what `proxy.providerError()`
 * answers on the same provider's route: the same status, every field the provider sends (key
 * paths; values that differ by nature such as wording and delays are not compared), the same
 * gRPC status name, exception type or error code.
 */
import { describe, expect, test } from 'vitest'
import type { ProviderErrorName } from '../../src/index.js'
import { postJson, startProxy } from '../proxy/helpers.js'
import { keyPaths, recording } from './conformance.js'

interface Route {
  path: string
  body: unknown
}

const hi = [{ role: 'user', content: 'hi' }]
const gemini: Route = { path: '/v1beta/models/gemini-2.5-flash:generateContent', body: { contents: [{ parts: [{ text: 'hi' }] }] } }
const vertexGemini: Route = { path: '/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent', body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] } }
const vertexClaude: Route = { path: '/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5:rawPredict', body: { anthropic_version: 'vertex-2023-10-16', max_tokens: 8, messages: hi } }
const bedrock: Route = { path: '/model/amazon.nova-lite-v1%3A0/converse', body: { messages: [{ role: 'user', content: [{ text: 'hi' }] }] } }
const ollama: Route = { path: '/api/chat', body: { model: 'llama3.2', messages: hi, stream: false } }
const azure: Route = { path: '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21', body: { messages: hi } }

/** What the fake answers for provider error `name` on `route`. */
async function fakeAnswer(route: Route, name: Exclude<ProviderErrorName, 'timeout'>): Promise<{ status: number; headers: Headers; body: unknown }> {
  const proxy = await startProxy()
  proxy.providerError(name)
  return postJson(`${proxy.url}${route.path}`, route.body)
}

/** Every key path of the provider's body is in the fake's. */
function expectFieldsOf(real: unknown, fake: unknown): void {
  const missing = [...keyPaths(real)].filter((path) => !keyPaths(fake).has(path))
  expect(missing, 'fields the provider sends and the fake does not').toEqual([])
}

describe('the fake’s provider errors carry what the providers’ documented errors carry', () => {
  test.each([
    ['rate_limit', 'gemini/error-429-resource-exhausted.json'],
    ['invalid_api_key', 'gemini/error-400-api-key-invalid.json'],
  ] as const)('Gemini %s: %s', async (name, file) => {
    const real = JSON.parse(recording(file)) as { error: { code: number; status: string; details: { '@type': string }[] } }
    const fake = await fakeAnswer(gemini, name)
    expect(fake.status).toBe(real.error.code)
    expectFieldsOf(real, fake.body)
    const error = (fake.body as typeof real).error
    expect(error).toMatchObject({ code: real.error.code, status: real.error.status })
    expect(error.details.map((detail) => detail['@type'])).toEqual(real.error.details.map((detail) => detail['@type']))
  })

  test('Vertex AI: Gemini’s 429 RESOURCE_EXHAUSTED and Claude’s 529 overloaded_error', async () => {
    const real = JSON.parse(recording('vertex/error-429-resource-exhausted.json')) as { error: { code: number; status: string } }
    const fake = await fakeAnswer(vertexGemini, 'rate_limit')
    expect(fake.status).toBe(429)
    expectFieldsOf(real, fake.body)
    expect(fake.body).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } })
    const claude = JSON.parse(recording('vertex/anthropic-error-529-overloaded.json')) as unknown
    const overloaded = await fakeAnswer(vertexClaude, 'overloaded')
    expect(overloaded.status).toBe(529)
    expectFieldsOf(claude, overloaded.body)
    expect(overloaded.body).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } })
  })

  test.each([
    ['rate_limit', 'bedrock/throttling-exception.http.json'],
    ['permission_denied', 'bedrock/access-denied-exception.http.json'],
  ] as const)('Bedrock %s: %s — status, x-amzn-errortype and { message }', async (name, file) => {
    const real = JSON.parse(recording(file)) as { status: number; headers: Record<string, string>; body: unknown }
    const fake = await fakeAnswer(bedrock, name)
    expect(fake.status).toBe(real.status)
    expect(fake.headers.get('x-amzn-errortype')).toBe(real.headers['x-amzn-errortype'])
    expect(Object.keys(fake.body as object)).toEqual(Object.keys(real.body as object))
  })

  test('Ollama model_not_found: 404 and a bare { error: string }', async () => {
    const real = JSON.parse(recording('ollama/error-model-not-found.http.json')) as { status: number; body: { error: string } }
    const fake = await fakeAnswer(ollama, 'model_not_found')
    expect(fake.status).toBe(real.status)
    expect(Object.keys(fake.body as object)).toEqual(['error'])
    expect(typeof (fake.body as { error: unknown }).error).toBe('string')
    expect((fake.body as { error: string }).error).toContain('llama3.2')
  })

  test('Azure content_filter (innererror with the filter results) and 429 (Azure’s string code)', async () => {
    const real = JSON.parse(recording('azure/content-filter.json')) as { error: { code: string; innererror: { code: string } } }
    const fake = await fakeAnswer(azure, 'content_filter')
    expect(fake.status).toBe(400)
    expectFieldsOf(real, fake.body)
    expect(fake.body).toMatchObject({ error: { code: 'content_filter', param: 'prompt', status: 400, innererror: { code: 'ResponsibleAIPolicyViolation' } } })
    const limited = JSON.parse(recording('azure/rate-limit-429.json')) as unknown
    const fakeLimited = await fakeAnswer(azure, 'rate_limit')
    expect(fakeLimited.status).toBe(429)
    expectFieldsOf(limited, fakeLimited.body)
    expect(fakeLimited.body).toMatchObject({ error: { code: '429' } })
  })
})
