import { describe, expect, it } from 'vitest'
import { RateLimited, UpstreamResponseLost, createProxyError, proxyError } from '../../../src/gateway/proxy-error.js'
import { refusalAnswer } from '../../../src/gateway/refusal-answer.js'

// Errors fabricated in the shape each client throws (see wire-protocols.md §1.6).

function openaiShaped(status: number, headers: Headers, inner: unknown): Error {
  return Object.assign(new Error(`${status} ${(inner as { message?: string })?.message}`), { status, headers, error: inner })
}

describe('proxyError on errors shaped like each client', () => {
  it('openai: Headers object, .error is the inner error object', () => {
    const answer = refusalAnswer('upstream_response_lost', 'openai', { message: 'lost it', hint: 'check first' })
    const err = openaiShaped(502, new Headers(answer.headers), (answer.body as { error: unknown }).error)
    const found = proxyError(err)
    expect(found).toBeInstanceOf(UpstreamResponseLost)
    expect(found).toMatchObject({ code: 'upstream_response_lost', status: 502, message: 'lost it', hint: 'check first' })
    expect(found?.cause).toBe(err)
  })

  it('openai v4: headers as a plain record', () => {
    const answer = refusalAnswer('rate_limited', 'openai')
    const err = openaiShaped(429, undefined as never, (answer.body as { error: unknown }).error)
    Object.assign(err, { headers: { 'X-Viper-Error': 'rate_limited' } })
    expect(proxyError(err)).toBeInstanceOf(RateLimited)
  })

  it('Anthropic: .error is the whole body', () => {
    const answer = refusalAnswer('agent_unknown', 'anthropic', { message: 'who?' })
    const err = Object.assign(new Error('403 {...}'), { status: 403, headers: new Headers(answer.headers), error: answer.body })
    expect(proxyError(err)).toMatchObject({ name: 'AgentUnknown', status: 403, message: 'who?', hint: undefined })
  })

  it('AI SDK: APICallError with responseHeaders and responseBody, and a RetryError around it', () => {
    const answer = refusalAnswer('upstream_timeout', 'openai', { message: 'slow', hint: 'later' })
    const callError = Object.assign(new Error('slow'), {
      statusCode: 504,
      responseHeaders: answer.headers,
      responseBody: JSON.stringify(answer.body),
      data: { error: { message: 'slow' } },
    })
    expect(proxyError(callError)).toMatchObject({ code: 'upstream_timeout', status: 504, message: 'slow', hint: 'later' })
    const retryError = Object.assign(new Error('Failed after 3 attempts'), { reason: 'maxRetriesExceeded', errors: [callError, callError], lastError: callError })
    expect(proxyError(retryError)).toMatchObject({ code: 'upstream_timeout', hint: 'later' })
    const onlyErrors = Object.assign(new Error('x'), { errors: [new Error('first'), callError] })
    expect(proxyError(onlyErrors)?.code).toBe('upstream_timeout')
  })

  it('a non-JSON body still gives the code, with the default message', () => {
    const err = Object.assign(new Error('x'), { statusCode: 500, responseHeaders: { 'x-viper-error': 'internal_error' }, responseBody: 'oops' })
    expect(proxyError(err)).toMatchObject({ code: 'internal_error', status: 500, message: 'internal proxy error' })
  })

  it('a ProxyError (from ProxyClient) is returned as is, also as the cause of a connection error', () => {
    const refusal = createProxyError('files_unknown')
    expect(proxyError(refusal)).toBe(refusal)
    expect(proxyError(new Error('Connection error.', { cause: refusal }))).toBe(refusal)
  })

  it('is undefined without the mark, with an unknown mark, and for non-errors', () => {
    expect(proxyError(openaiShaped(500, new Headers(), { message: 'boom' }))).toBeUndefined()
    expect(proxyError(openaiShaped(500, new Headers({ 'x-viper-error': 'no_such_code' }), { message: 'boom' }))).toBeUndefined()
    expect(proxyError(new Error('plain'))).toBeUndefined()
    expect(proxyError(undefined)).toBeUndefined()
    expect(proxyError('rate_limited')).toBeUndefined()
  })

  it('does not loop on a cyclic cause chain', () => {
    const a = new Error('a')
    const b = new Error('b', { cause: a })
    Object.assign(a, { cause: b })
    expect(proxyError(a)).toBeUndefined()
  })
})
