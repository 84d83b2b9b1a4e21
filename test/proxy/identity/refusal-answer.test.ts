import { describe, expect, it } from 'vitest'
import { refusalAnswer } from '../../../src/gateway/refusal-answer.js'
import { refusalCodes, type RefusalCode } from '../../../src/gateway/refusal-codes.js'

const codes = Object.keys(refusalCodes) as RefusalCode[]

const anthropicTypes: Record<number, string> = {
  400: 'invalid_request_error',
  403: 'permission_error',
  409: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'api_error',
  504: 'timeout_error',
}

describe('refusalAnswer', () => {
  it.each(codes)('%s: status and headers', (code) => {
    const { status, retried } = refusalCodes[code]
    for (const style of ['openai', 'anthropic', 'local'] as const) {
      const answer = refusalAnswer(code, style)
      expect(answer.status).toBe(status)
      const expected: Record<string, string> = { 'content-type': 'application/json', 'x-viper-error': code, 'x-should-retry': String(retried) }
      if (retried) expected['retry-after-ms'] = '1'
      expect(answer.headers).toEqual(expected)
    }
  })

  it.each(codes)('%s: the body in each style', (code) => {
    const { status, meaning } = refusalCodes[code]
    expect(refusalAnswer(code, 'openai').body).toEqual({ error: { message: meaning, type: 'proxy_error', code, param: null, hint: null } })
    expect(refusalAnswer(code, 'anthropic').body).toEqual({ type: 'error', error: { type: anthropicTypes[status], message: meaning, code, hint: null } })
    expect(refusalAnswer(code, 'local').body).toEqual({ error: { code, message: meaning, hint: null } })
  })

  it('carries the given message and hint', () => {
    const detail = { message: 'injected', hint: 'try later' }
    expect(refusalAnswer('rate_limited', 'openai', detail).body).toMatchObject({ error: { message: 'injected', hint: 'try later' } })
    expect(refusalAnswer('rate_limited', 'anthropic', detail).body).toMatchObject({ error: { message: 'injected', hint: 'try later' } })
    expect(refusalAnswer('rate_limited', 'local', detail).body).toEqual({ error: { code: 'rate_limited', message: 'injected', hint: 'try later' } })
  })
})
