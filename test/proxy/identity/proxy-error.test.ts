import { describe, expect, it, vi } from 'vitest'
import {
  AgentRequired,
  AgentUnknown,
  DefinitionUnknown,
  ProxyError,
  RateLimited,
  UpstreamResponseLost,
  UpstreamTimeout,
  createProxyError,
  isProxyError,
  refusal,
} from '../../../src/gateway/proxy-error.js'
import { refusalCodes, type RefusalCode } from '../../../src/gateway/refusal-codes.js'

const codes = Object.keys(refusalCodes) as RefusalCode[]

describe('ProxyError', () => {
  it.each(codes)('createProxyError(%s) is the typed subclass with the table status', (code) => {
    const err = createProxyError(code)
    expect(err).toBeInstanceOf(ProxyError)
    expect(err).toBeInstanceOf(Error)
    expect(err.code).toBe(code)
    expect(err.status).toBe(refusalCodes[code].status)
    expect(err.retried).toBe(refusalCodes[code].retried)
    expect(err.message).toBe(refusalCodes[code].meaning)
    expect(err.hint).toBeUndefined()
    const pascal = code.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())
    expect(err.name).toBe(pascal)
    expect(err.constructor.name).toBe(pascal)
  })

  it('a subclass matches only errors with its code', () => {
    const lost = createProxyError('upstream_response_lost', { message: 'gone', hint: 'do not resend' })
    expect(lost).toBeInstanceOf(UpstreamResponseLost)
    expect(lost).not.toBeInstanceOf(UpstreamTimeout)
    expect(lost.message).toBe('gone')
    expect(lost.hint).toBe('do not resend')
    expect(new ProxyError('agent_required')).toBeInstanceOf(AgentRequired)
    expect(new RateLimited()).toBeInstanceOf(ProxyError)
    expect(new RateLimited().code).toBe('rate_limited')
    expect(new Error('x')).not.toBeInstanceOf(ProxyError)
    expect({ code: 'rate_limited' }).not.toBeInstanceOf(RateLimited)
  })

  it('keeps status and cause when given, and serialises to plain data', () => {
    const cause = new Error('sdk')
    const err = createProxyError('agent_unknown', { status: 418, cause, hint: 'enroll it' })
    expect(err.status).toBe(418)
    expect(err.cause).toBe(cause)
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: 'AgentUnknown',
      code: 'agent_unknown',
      status: 418,
      message: refusalCodes.agent_unknown.meaning,
      hint: 'enroll it',
    })
  })

  it('instanceof and isProxyError hold across two copies of the module', async () => {
    vi.resetModules()
    const other = await import('../../../src/gateway/proxy-error.js?copy=2' as string) as typeof import('../../../src/gateway/proxy-error.js')
    expect(other.ProxyError).not.toBe(ProxyError)
    const foreign = other.createProxyError('definition_unknown')
    expect(foreign).toBeInstanceOf(ProxyError)
    expect(foreign).toBeInstanceOf(DefinitionUnknown)
    expect(foreign).not.toBeInstanceOf(AgentUnknown)
    expect(isProxyError(foreign)).toBe(true)
    expect(createProxyError('rate_limited')).toBeInstanceOf(other.RateLimited)
  })

  it('rejects unknown codes', () => {
    expect(() => createProxyError('nope' as RefusalCode)).toThrow(RangeError)
    expect(() => new ProxyError('nope' as RefusalCode)).toThrow(/unknown refusal code "nope"/)
  })
})

describe('refusal()', () => {
  it('makes the typed error with message and hint', () => {
    const err = refusal('upstream_timeout', { message: 'slow', hint: 'wait' })
    expect(err).toBeInstanceOf(UpstreamTimeout)
    expect(err).toMatchObject({ code: 'upstream_timeout', status: 504, message: 'slow', hint: 'wait' })
  })

  it('names the bad code and lists the valid ones', () => {
    expect(() => refusal('upstream_gone' as RefusalCode)).toThrow(RangeError)
    expect(() => refusal('upstream_gone' as RefusalCode)).toThrow(/\[agent-doubles\] refusal\(\): unknown refusal code "upstream_gone"; valid codes: agent_required, .*upstream_timeout/)
  })

  it('rejects bad arguments with a TypeError', () => {
    expect(() => refusal(42 as unknown as RefusalCode)).toThrow(/refusal\(\): code must be a refusal code string, got 42/)
    expect(() => refusal('rate_limited', { message: 3 } as never)).toThrow(/option message must be a string, got 3/)
    expect(() => refusal('rate_limited', { mesage: 'x' } as never)).toThrow(/unknown option "mesage"/)
  })
})

describe('isProxyError', () => {
  it('is false for look-alikes', () => {
    expect(isProxyError(createProxyError('policy_denied'))).toBe(true)
    expect(isProxyError({ code: 'policy_denied', status: 403 })).toBe(false)
    expect(isProxyError(null)).toBe(false)
    expect(isProxyError('policy_denied')).toBe(false)
  })
})
