import { describe, expect, test } from 'vitest'
import { Envelope } from '../../src/agent/envelope.js'
import { ErrorInfo } from '../../src/agent/error-info.js'
import { fakeAgent } from './fakes.js'
import { failureOf, plain } from './setup-expect.js'

const sunny = new Envelope({ task: 'weather today', payload: 'sunny', metadata: { inputTokens: 50, outputTokens: 30, nestedInputTokens: 10 } })
const failed = Envelope.fromError(new ErrorInfo({ type: 'RateLimit', message: 'slow down', retryable: true }))

describe('toHaveText', () => {
  test('compares text(), with .not and asymmetric matchers', () => {
    expect(sunny).toHaveText('sunny')
    expect(sunny).not.toHaveText('rainy')
    expect(sunny).toHaveText(expect.stringContaining('sun'))
    expect(new Envelope({ payload: { a: 1 } })).toHaveText('{"a":1}')
    expect([sunny]).toEqual([expect.toHaveText('sunny')])
  })

  test('the failure shows both texts, a diff and the task', () => {
    const message = plain(failureOf(() => expect(sunny).toHaveText('rainy')))
    expect(message).toContain('Expected text: "rainy"')
    expect(message).toContain('Received text: "sunny"')
    expect(message).toContain('Task: "weather today"')
    expect(message).toMatch(/- rainy\n\+ sunny/)
  })

  test('rejects what is not an Envelope, naming it', () => {
    expect(() => expect(fakeAgent('researcher', [])).toHaveText('x')).toThrow(
      '[agent-doubles] toHaveText: expect(received) must be an Envelope (what a MockAgent returns), got a MockAgent ("researcher")',
    )
    expect(() => expect({ payload: 'sunny', text: () => 'sunny' }).toHaveText('sunny')).toThrow(TypeError)
  })
})

describe('toBeErrorEnvelope', () => {
  test('passes on an error envelope, matching a partial as a subset', () => {
    expect(failed).toBeErrorEnvelope()
    expect(failed).toBeErrorEnvelope({ type: 'RateLimit' })
    expect(failed).toBeErrorEnvelope({ message: expect.stringMatching(/slow/), retryable: true })
    expect(failed).not.toBeErrorEnvelope({ type: 'Timeout' })
    expect(sunny).not.toBeErrorEnvelope()
  })

  test('the failure shows the error or the payload', () => {
    expect(plain(failureOf(() => expect(sunny).toBeErrorEnvelope()))).toContain('Received payload: "sunny"')
    const message = plain(failureOf(() => expect(failed).toBeErrorEnvelope({ type: 'Timeout' })))
    expect(message).toContain('an error envelope matching {"type": "Timeout"}')
    expect(message).toContain('Received error: {"type": "RateLimit", "message": "slow down", "retryable": true}')
    expect(message).toMatch(/- +"type": "Timeout"/)
  })
})

describe('toHaveUsage', () => {
  test('matches metadata.totals() (direct + nested) as a subset', () => {
    expect(sunny).toHaveUsage({ inputTokens: 60, outputTokens: 30 })
    expect(sunny).toHaveUsage({ costUsd: 0 })
    expect(sunny).toHaveUsage({ inputTokens: expect.any(Number) })
    expect(sunny).not.toHaveUsage({ inputTokens: 50 })
  })

  test('the failure prints the totals', () => {
    const message = plain(failureOf(() => expect(sunny).toHaveUsage({ inputTokens: 50 })))
    expect(message).toContain('Received totals: {"inputTokens": 60, "outputTokens": 30, "costUsd": 0}')
  })
})
