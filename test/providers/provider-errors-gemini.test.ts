/**
 * SPEC §10.2 and §21 on Gemini's wire, through `@google/genai`: every provider error name in
 * Gemini's own shape (`{ error: { code, message, status } }`, the gRPC status name beside the
 * HTTP one), planned with `proxy.providerError()` or given by a script, on JSON and streamed
 * calls, with the retries the SDK makes when given `retryOptions`; a blocked prompt as Gemini
 * sends it (a 200 with `promptFeedback.blockReason`); refusals and bad input in the same shape.
 */
import { ApiError, GoogleGenAI } from '@google/genai'
import { describe, expect, test } from 'vitest'
import { providerError, scriptedLLM, type ProviderErrorName } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

function genaiFor(proxy: FakeProxy, attempts?: number): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: 'test-key',
    httpOptions: { baseUrl: proxy.url, ...(attempts ? { retryOptions: { attempts, initialDelay: 0.001, maxDelay: 0.001 } } : {}) },
  })
}

type Answered = Exclude<ProviderErrorName, 'timeout' | 'content_filter'>

/** Gemini's status for each name, and whether `@google/genai` retries it (408, 429, 5xx but 501). */
const expected: Record<Answered, { status: number; name: string; retried: boolean }> = {
  rate_limit: { status: 429, name: 'RESOURCE_EXHAUSTED', retried: true },
  insufficient_quota: { status: 429, name: 'RESOURCE_EXHAUSTED', retried: true },
  invalid_api_key: { status: 400, name: 'INVALID_ARGUMENT', retried: false },
  permission_denied: { status: 403, name: 'PERMISSION_DENIED', retried: false },
  model_not_found: { status: 404, name: 'NOT_FOUND', retried: false },
  context_length_exceeded: { status: 400, name: 'INVALID_ARGUMENT', retried: false },
  overloaded: { status: 503, name: 'UNAVAILABLE', retried: true },
  server_error: { status: 500, name: 'INTERNAL', retried: true },
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  )
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`)
  return error
}

const ask = { model: 'gemini-2.5-flash', contents: 'hi' }

describe('provider errors on Gemini through @google/genai', () => {
  test.each(Object.keys(expected) as Answered[])('%s: ApiError with the status, Gemini body and the SDK’s retries', async (name) => {
    const want = expected[name]
    const proxy = await startProxy()
    proxy.providerError(name, { times: 3 })
    const error = await caught(genaiFor(proxy, 3).models.generateContent(ask))
    expect(error.status).toBe(want.status)
    const body = JSON.parse(error.message) as { error: { code: number; status: string; message: string } }
    expect(body.error).toMatchObject({ code: want.status, status: want.name, message: expect.any(String) })
    // The SDK's retry loop: three attempts for a retried status, one otherwise.
    expect(proxy.requests).toHaveLength(want.retried ? 3 : 1)
    expect(proxy.requests[0]).toMatchObject({ status: want.status, error: { name, type: want.name, code: String(want.status) } })
  })

  test('rate_limit: retried until it passes, with Google’s QuotaFailure and RetryInfo details', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['finally']) })
    proxy.providerError('rate_limit', { times: 2, retryAfterS: 7 })
    const response = await genaiFor(proxy, 3).models.generateContent(ask)
    expect(response.text).toBe('finally')
    expect(proxy.requests.map((request) => request.status ?? 200)).toEqual([429, 429, 200])
    proxy.providerError('rate_limit', { retryAfterS: 7 })
    const limited = await fetch(`${proxy.url}/v1beta/models/gemini-2.5-flash:generateContent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('content-type')).toMatch(/^application\/json/)
    const body = (await limited.json()) as { error: { details: { '@type': string; retryDelay?: string }[] } }
    expect(body.error.details.map((detail) => detail['@type'])).toEqual(['type.googleapis.com/google.rpc.QuotaFailure', 'type.googleapis.com/google.rpc.RetryInfo'])
    expect(body.error.details[1].retryDelay).toBe('7s')
    // Without retryAfterS, the millisecond the other wires' retry-after-ms gives: not a rounded
    // "0s", which Gemini CLI reads as no RetryInfo (and then waits the quota's per-minute window, 60 s).
    proxy.providerError('rate_limit')
    const soon = await fetch(`${proxy.url}/v1beta/models/gemini-2.5-flash:generateContent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) })
    expect(((await soon.json()) as { error: { details: { retryDelay?: string }[] } }).error.details[1]!.retryDelay).toBe('0.001s')
  })

  test('a streamed call gets the error status before any chunk, and a given message', async () => {
    const proxy = await startProxy()
    proxy.providerError('overloaded', { message: 'busy right now' })
    const error = await caught(genaiFor(proxy).models.generateContentStream(ask))
    expect(error.status).toBe(503)
    expect(JSON.parse(error.message)).toEqual({ error: { code: 503, message: 'busy right now', status: 'UNAVAILABLE' } })
  })

  test('the script helper providerError() answers the same, and the SDK retries it', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([providerError('server_error'), 'recovered']) })
    const response = await genaiFor(proxy, 2).models.generateContent(ask)
    expect(response.text).toBe('recovered')
    expect(proxy.requests.map((request) => request.status ?? 200)).toEqual([500, 200])
    const once = await startProxy({ llm: scriptedLLM([providerError('model_not_found')]) })
    const error = await caught(genaiFor(once, 3).models.generateContent({ ...ask, model: 'gemini-9' }))
    expect(error.status).toBe(404)
    expect(JSON.parse(error.message).error.message).toMatch(/^models\/gemini-9 is not found for API version v1beta/)
  })

  test('content_filter is a blocked prompt: a 200 with promptFeedback.blockReason, JSON and streamed', async () => {
    const proxy = await startProxy()
    proxy.providerError('content_filter', { times: 2 })
    const response = await genaiFor(proxy).models.generateContent(ask)
    expect(response.promptFeedback?.blockReason).toBe('SAFETY')
    expect(response.candidates).toBeUndefined()
    expect(response.text).toBeUndefined()
    const chunks = []
    for await (const chunk of await genaiFor(proxy).models.generateContentStream(ask)) chunks.push(chunk)
    expect(chunks.map((chunk) => chunk.promptFeedback?.blockReason)).toEqual(['SAFETY'])
    expect(proxy.requests.map((request) => request.error?.name)).toEqual(['content_filter', 'content_filter'])
  })

  test('refusals and bad input on Gemini routes are in Gemini’s shape too', async () => {
    const proxy = await startProxy()
    proxy.refuse('policy_denied', { message: 'not for you' })
    const refused = await caught(genaiFor(proxy).models.generateContent(ask))
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.message).error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED', message: 'not for you' })
    const bad = await caught(genaiFor(proxy).models.generateContent({ ...ask, config: { temperature: 9 } }))
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.message).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' })
  })
})
