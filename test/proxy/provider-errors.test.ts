/**
 * SPEC §10.2: every provider error name, on each wire, through the real SDK — the status, the
 * error class the SDK throws, and how many attempts its retry loop made.
 */
import Anthropic from '@anthropic-ai/sdk'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText } from 'ai'
import OpenAI from 'openai'
import { describe, expect, test, vi } from 'vitest'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'
import { providerError, providerErrorNames, type ProviderErrorName } from '../../src/provider-errors.js'
import { anthropicFor, openaiFor, startProxy } from './helpers.js'

type Expectation = { status: number; openai: string; retried: boolean }

/** What the OpenAI wires (Chat and Responses) answer, and what `openai` makes of it. */
const openaiExpected: Record<Exclude<ProviderErrorName, 'timeout'>, Expectation & { type: string; code: string | null }> = {
  rate_limit: { status: 429, openai: 'RateLimitError', retried: true, type: 'requests', code: 'rate_limit_exceeded' },
  insufficient_quota: { status: 429, openai: 'RateLimitError', retried: true, type: 'insufficient_quota', code: 'insufficient_quota' },
  invalid_api_key: { status: 401, openai: 'AuthenticationError', retried: false, type: 'invalid_request_error', code: 'invalid_api_key' },
  permission_denied: { status: 403, openai: 'PermissionDeniedError', retried: false, type: 'invalid_request_error', code: null },
  model_not_found: { status: 404, openai: 'NotFoundError', retried: false, type: 'invalid_request_error', code: 'model_not_found' },
  context_length_exceeded: { status: 400, openai: 'BadRequestError', retried: false, type: 'invalid_request_error', code: 'context_length_exceeded' },
  content_filter: { status: 400, openai: 'BadRequestError', retried: false, type: 'invalid_request_error', code: 'invalid_prompt' },
  overloaded: { status: 503, openai: 'InternalServerError', retried: true, type: 'server_error', code: null },
  server_error: { status: 500, openai: 'InternalServerError', retried: true, type: 'server_error', code: null },
}

/** What the Anthropic wire answers, and what `@anthropic-ai/sdk` makes of it. */
const anthropicExpected: Record<Exclude<ProviderErrorName, 'timeout'>, { status: number; sdk: string; retried: boolean; type: string }> = {
  rate_limit: { status: 429, sdk: 'RateLimitError', retried: true, type: 'rate_limit_error' },
  insufficient_quota: { status: 400, sdk: 'BadRequestError', retried: false, type: 'invalid_request_error' },
  invalid_api_key: { status: 401, sdk: 'AuthenticationError', retried: false, type: 'authentication_error' },
  permission_denied: { status: 403, sdk: 'PermissionDeniedError', retried: false, type: 'permission_error' },
  model_not_found: { status: 404, sdk: 'NotFoundError', retried: false, type: 'not_found_error' },
  context_length_exceeded: { status: 400, sdk: 'BadRequestError', retried: false, type: 'invalid_request_error' },
  content_filter: { status: 400, sdk: 'BadRequestError', retried: false, type: 'invalid_request_error' },
  overloaded: { status: 529, sdk: 'OverloadedError', retried: true, type: 'overloaded_error' },
  server_error: { status: 500, sdk: 'InternalServerError', retried: true, type: 'api_error' },
}

const answered = providerErrorNames.filter((name): name is Exclude<ProviderErrorName, 'timeout'> => name !== 'timeout')

async function caught(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise
  } catch (error) {
    return error as Error & Record<string, unknown>
  }
  throw new Error('expected the call to fail')
}

describe('proxy.providerError() through the real SDKs', () => {
  test.each(answered)('%s on OpenAI Chat: status, class, body and attempts', async (name) => {
    const expected = openaiExpected[name]
    const proxy = await startProxy()
    proxy.providerError(name, { times: 5 })
    const error = await caught(openaiFor(proxy, { maxRetries: 1 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }))
    expect(error.constructor.name).toBe(expected.openai)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect(error).toMatchObject({ status: expected.status, type: expected.type, code: expected.code })
    expect(error.requestID).toMatch(/^req_[0-9a-f]{32}$/)
    const attempts = expected.retried ? 2 : 1
    expect(proxy.requests).toHaveLength(attempts)
    expect(proxy.requests[0]).toMatchObject({ status: expected.status, error: { name, type: expected.type, code: expected.code } })
    if (name === 'context_length_exceeded') expect(error.param).toBe('messages')
  })

  test.each(answered)('%s on OpenAI Responses: status, class and attempts', async (name) => {
    const expected = openaiExpected[name]
    const proxy = await startProxy()
    proxy.providerError(name, { times: 5 })
    const error = await caught(openaiFor(proxy, { maxRetries: 1 }).responses.create({ model: 'gpt-4o-mini', input: 'hi' }))
    expect(error.constructor.name).toBe(expected.openai)
    expect(error).toMatchObject({ status: expected.status, type: expected.type, code: expected.code })
    expect(proxy.requests).toHaveLength(expected.retried ? 2 : 1)
    expect(proxy.requests.every((request) => request.error?.name === name)).toBe(true)
    if (name === 'context_length_exceeded') expect(error.param).toBe('input')
  })

  test.each(answered)('%s on Anthropic Messages: status, class, body and attempts', async (name) => {
    const expected = anthropicExpected[name]
    const proxy = await startProxy()
    proxy.providerError(name, { times: 5 })
    const error = await caught(anthropicFor(proxy, { maxRetries: 1 }).messages.create({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }))
    expect(error.constructor.name).toBe(expected.sdk)
    expect(error).toBeInstanceOf(Anthropic.APIError)
    expect(error).toMatchObject({ status: expected.status, type: expected.type })
    // The body carries the request id the header gives, as real Anthropic errors do.
    expect(error.requestID).toMatch(/^req_011C[1-9A-HJ-NP-Za-km-z]{20}$/)
    expect((error.error as { request_id?: string }).request_id).toBe(error.requestID)
    expect(proxy.requests).toHaveLength(expected.retried ? 2 : 1)
    expect(proxy.requests[0]).toMatchObject({ status: expected.status, error: { name, type: expected.type } })
  })

  test('a planned error is used up after `times`; the brain answers the next request', async () => {
    const proxy = await startProxy()
    proxy.providerError('rate_limit', { times: 2 })
    const completion = await openaiFor(proxy, { maxRetries: 2 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(completion.choices[0].message.content).toBe('Hello from FakeProxy.')
    expect(proxy.requests.map((request) => request.status ?? 200)).toEqual([429, 429, 200])
  })

  test('rate_limit carries the retry and exhausted rate-limit headers; retryAfterS sets the wait', async () => {
    const proxy = await startProxy()
    proxy.providerError('rate_limit', { retryAfterS: 0.002, message: 'slow down' })
    const openaiError = await caught(openaiFor(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }))
    const headers = openaiError.headers as Headers
    expect(openaiError.message).toBe('429 slow down')
    expect(headers.get('retry-after')).toBe('1')
    expect(headers.get('retry-after-ms')).toBe('2')
    expect(headers.get('x-ratelimit-remaining-requests')).toBe('0')

    proxy.providerError('rate_limit')
    const anthropicError = await caught(anthropicFor(proxy).messages.create({ model: 'c', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }))
    const anthropicHeaders = anthropicError.headers as Headers
    expect(anthropicHeaders.get('retry-after-ms')).toBe('1')
    expect(anthropicHeaders.get('x-should-retry')).toBe('true')
    expect(anthropicHeaders.get('anthropic-ratelimit-requests-remaining')).toBe('0')
    expect(anthropicHeaders.get('anthropic-ratelimit-requests-reset')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  })

  test('the AI SDK retries a 529 overloaded_error and a 429 as against the real APIs', async () => {
    const proxy = await startProxy()
    proxy.providerError('overloaded', { times: 1 }).providerError('rate_limit', { times: 1 })
    const openai = createOpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1` })
    const result = await generateText({ model: openai.chat('gpt-4o-mini'), prompt: 'hi', maxRetries: 2 })
    expect(result.text).toBe('Hello from FakeProxy.')
    expect(proxy.requests.map((request) => request.status ?? 200)).toEqual([503, 429, 200])
  })

  test('timeout answers nothing until the client gives up', async () => {
    const proxy = await startProxy()
    proxy.providerError('timeout')
    const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0, timeout: 200 })
    const error = await caught(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }))
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError)
    expect(proxy.requests[0].error).toMatchObject({ name: 'timeout', type: 'timeout' })
    expect(proxy.requests[0].status).toBeUndefined()
  })

  test('close() ends a request a timeout holds open', async () => {
    const proxy = await startProxy()
    proxy.providerError('timeout')
    const client = anthropicFor(proxy)
    const pending = caught(client.messages.create({ model: 'c', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }))
    await vi.waitFor(() => expect(proxy.requests).toHaveLength(1))
    await proxy.close()
    expect(await pending).toBeInstanceOf(Anthropic.APIConnectionError)
  })

  test('reset() drops planned provider errors', async () => {
    const proxy = await startProxy()
    proxy.providerError('server_error', { times: 3 })
    proxy.reset()
    const completion = await openaiFor(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(completion.choices[0].message.content).toBe('Hello from FakeProxy.')
  })

  test('unknown names and bad options are TypeErrors listing what is valid', async () => {
    const proxy = await startProxy()
    expect(() => proxy.providerError('slow' as ProviderErrorName)).toThrow(TypeError)
    expect(() => proxy.providerError('slow' as ProviderErrorName)).toThrow(/unknown provider error "slow"; valid names: rate_limit, insufficient_quota, .*timeout/)
    expect(() => proxy.providerError('rate_limit', { times: 0 })).toThrow(/option times must be an integer of at least 1, got 0/)
    expect(() => proxy.providerError('rate_limit', { retryAfterS: -1 })).toThrow(/option retryAfterS must be a non-negative number of seconds, got -1/)
    expect(() => proxy.providerError('rate_limit', { wait: 1 } as never)).toThrow(/unknown option "wait"; expected one of message, retryAfterS, times/)
    expect(() => providerError('nope' as ProviderErrorName)).toThrow(/providerError\(\): unknown provider error "nope"; valid names:/)
    expect(() => providerError('rate_limit', { times: 2 } as never)).toThrow(/unknown option "times"/)
  })
})

describe('providerError() as a script reply', () => {
  test('a ScriptedLLM turn answers with the provider error on each wire; the SDK retry meets the next turn', async () => {
    const proxy = await startProxy({ llm: new ScriptedLLM([providerError('overloaded'), 'recovered', providerError('overloaded'), 'again']) })
    const message = await anthropicFor(proxy, { maxRetries: 1 }).messages.create({ model: 'c', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] })
    expect(message.content).toEqual([{ type: 'text', text: 'recovered' }])
    const completion = await openaiFor(proxy, { maxRetries: 1 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(completion.choices[0].message.content).toBe('again')
    expect(proxy.requests.map((request) => request.status ?? 200)).toEqual([529, 200, 503, 200])
  })

  test('on a stream request, the error is the HTTP status, before any event', async () => {
    const proxy = await startProxy({ llm: new ScriptedLLM([providerError('invalid_api_key', { message: 'bad key' })]) })
    const error = await caught(
      (async () => {
        const stream = await openaiFor(proxy).responses.create({ model: 'm', input: 'hi', stream: true })
        for await (const _event of stream) void _event
      })(),
    )
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError)
    expect(error.message).toBe('401 bad key')
  })
})

describe('providerError in transcripts', () => {
  const request = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }
  const lines = (...turns: unknown[]): string => turns.map((turn) => JSON.stringify(turn)).join('\n')

  test('a "providerError" turn replays as that provider error; the retry meets the next turn', async () => {
    const llm = await ScriptedLLM.fromTranscript(
      lines(
        { request, providerError: { name: 'rate_limit', retryAfterS: 0.001 } },
        { request, response: { content: [{ type: 'text', text: 'after the wait' }] } },
      ),
    )
    const proxy = await startProxy({ llm })
    const completion = await openaiFor(proxy, { maxRetries: 1 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(completion.choices[0].message.content).toBe('after the wait')
    expect(proxy.requests.map((r) => r.error?.name ?? 'ok')).toEqual(['rate_limit', 'ok'])
  })

  test('a malformed "providerError" fails the load, naming the line and the valid names', async () => {
    await expect(ScriptedLLM.fromTranscript(lines({ request, providerError: { name: 'meltdown' } }))).rejects.toThrow(
      /transcript text line 1: providerError: unknown provider error "meltdown"; valid names: rate_limit/,
    )
    await expect(ScriptedLLM.fromTranscript(lines({ request, providerError: 'rate_limit' }))).rejects.toThrow(/line 1: "providerError" must be an object/)
  })
})
