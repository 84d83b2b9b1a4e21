import { describe, expect, test } from 'vitest'
import { createProxyError } from '../../src/gateway/proxy-error.js'
import { fakeAgent, fakeProxy, fakeRequest, userRequest } from './fakes.js'
import { failureOf, plain } from './setup-expect.js'

const fromResearcher = fakeRequest(userRequest('hi'), { agent: 'researcher' })
const fromCritic = fakeRequest(userRequest('hi'), { agent: 'critic', path: '/v1/messages' })
const proxy = fakeProxy(
  [],
  [
    { code: 'rate_limited', status: 429, request: fromResearcher },
    { code: 'rate_limited', status: 429, request: fromCritic },
    { code: 'agent_unknown', status: 403, request: fromCritic },
  ],
)

/** What the openai client throws for a refusal: status, Headers with the mark, the error body. */
function sdkError(code: string, status: number) {
  const error = new Error(`${status} refused`) as Error & Record<string, unknown>
  error.status = status
  error.headers = new Headers({ 'x-viper-error': code })
  error.error = { message: 'slow down', type: 'proxy_error', code, param: null, hint: 'wait a moment' }
  return error
}

describe('toHaveRefusedWith on a FakeProxy', () => {
  test('passes when a refusal has the code, with times and agent', () => {
    expect(proxy).toHaveRefusedWith('rate_limited')
    expect(proxy).toHaveRefusedWith('rate_limited', { times: 2 })
    expect(proxy).toHaveRefusedWith('rate_limited', { agent: 'critic', times: 1 })
    expect(proxy).toHaveRefusedWith('agent_unknown', { agent: 'critic' })
    expect(proxy).not.toHaveRefusedWith('agent_unknown', { agent: 'researcher' })
    expect(proxy).not.toHaveRefusedWith('rate_limited', { times: 1 })
    expect(proxy).not.toHaveRefusedWith('policy_denied')
    expect(proxy).toHaveRefusedWith(expect.stringMatching(/^agent_/))
    expect(fakeProxy()).toHaveRefusedWith('rate_limited', { times: 0 })
  })

  test('the failure lists the recorded refusal codes', () => {
    const message = plain(failureOf(() => expect(proxy).toHaveRefusedWith('rate_limited', { times: 3 })))
    expect(message).toContain('Expected: refused with "rate_limited" exactly 3 times')
    expect(message).toContain('Matching refusals: 2')
    expect(message).toContain('→ 1st refusal: "rate_limited" (429) POST /v1/chat/completions, model "mock", agent "researcher"')
    expect(message).toContain('  3rd refusal: "agent_unknown" (403) POST /v1/messages, model "mock", agent "critic"')
    expect(message).toContain('Number of refusals: 3')
  })

  test('bad codes and options throw TypeErrors that say what is valid', () => {
    expect(() => expect(proxy).toHaveRefusedWith('rate-limited' as 'rate_limited')).toThrow(
      /code must be one of the refusal codes \(agent_required, .*upstream_timeout\), got "rate-limited"/,
    )
    expect(() => expect(proxy).toHaveRefusedWith('rate_limited', { times: -1 })).toThrow(/option times must be a non-negative integer/)
    expect(() => expect(proxy).toHaveRefusedWith('rate_limited', { agnet: 'x' } as object)).toThrow(/unknown option "agnet"/)
  })

  test('rejects what is neither a proxy nor an error', () => {
    expect(() => expect(fakeAgent('a', [])).toHaveRefusedWith('rate_limited')).toThrow(
      /must be a FakeProxy or an error thrown by a model client, got a MockAgent/,
    )
  })
})

describe('toHaveRefusedWith on an error', () => {
  test('reads the proxy mark of a client error', async () => {
    expect(sdkError('rate_limited', 429)).toHaveRefusedWith('rate_limited')
    expect(sdkError('rate_limited', 429)).not.toHaveRefusedWith('agent_unknown')
    expect(createProxyError('policy_denied')).toHaveRefusedWith('policy_denied')
    await expect(Promise.reject(sdkError('upstream_timeout', 504))).rejects.toHaveRefusedWith('upstream_timeout')
  })

  test('an error without the mark fails and says so', () => {
    expect(new Error('ECONNREFUSED')).not.toHaveRefusedWith('rate_limited')
    const message = plain(failureOf(() => expect(new Error('ECONNREFUSED')).toHaveRefusedWith('rate_limited')))
    expect(message).toContain("an error without the proxy's mark (no x-viper-error header)")
    expect(message).toContain('Error: ECONNREFUSED')
  })

  test('the failure shows the code, status, message and hint it carried', () => {
    const message = plain(failureOf(() => expect(sdkError('rate_limited', 429)).toHaveRefusedWith('agent_unknown')))
    expect(message).toContain('Received: a proxy refusal "rate_limited" (429): slow down')
    expect(message).toContain('Hint: wait a moment')
  })

  test('times and agent are for a proxy only', () => {
    expect(() => expect(sdkError('rate_limited', 429)).toHaveRefusedWith('rate_limited', { times: 1 })).toThrow(
      /options times and agent apply to a FakeProxy/,
    )
  })
})
