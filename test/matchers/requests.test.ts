import { describe, expect, test } from 'vitest'
import { fakeAgent, fakeLLM, fakeProxy, fakeRequest, userRequest } from './fakes.js'
import { failureOf, plain } from './setup-expect.js'

const proxy = fakeProxy([
  fakeRequest(userRequest('hi', { model: 'gpt-5' }), { agent: 'researcher' }),
  fakeRequest(userRequest('bye', { model: 'claude' }), { path: '/v1/messages', dialect: 'anthropic-messages' }),
])
const llm = fakeLLM([userRequest('hello', { temperature: 0.2 })])

describe('toHaveReceivedRequest', () => {
  test('matches a FakeRequest as an object subset, at any depth', () => {
    expect(proxy).toHaveReceivedRequest({ agent: 'researcher', model: 'gpt-5' })
    expect(proxy).toHaveReceivedRequest({ dialect: 'anthropic-messages', request: { model: 'claude' } })
    expect(proxy).toHaveReceivedRequest({ path: expect.stringContaining('messages') })
    expect(proxy).not.toHaveReceivedRequest({ agent: 'researcher', model: 'claude' })
  })

  test('matches a ScriptedLLM’s ModelRequest', () => {
    expect(llm).toHaveReceivedRequest({ temperature: 0.2 })
    expect(llm).toHaveReceivedRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] })
    expect(llm).toHaveReceivedRequest({ messages: [expect.objectContaining({ role: 'user' })] })
    expect(llm).not.toHaveReceivedRequest({ messages: [] })
  })

  test('the failure lists each request with its path, model and task', () => {
    const message = plain(failureOf(() => expect(proxy).toHaveReceivedRequest({ agent: 'critic' })))
    expect(message).toContain('Expected: a request matching {"agent": "critic"}')
    expect(message).toContain('1st request: POST /v1/chat/completions, model "gpt-5", agent "researcher", task "hi"')
    expect(message).toContain('2nd request: POST /v1/messages, model "claude", task "bye"')
    expect(message).toContain('Number of requests: 2')
  })

  test('with one request the failure diffs only the fields asked about', () => {
    const message = plain(failureOf(() => expect(llm).toHaveReceivedRequest({ temperature: 0.7 })))
    expect(message).toContain('-   "temperature": 0.7')
    expect(message).toContain('+   "temperature": 0.2')
    expect(message).not.toContain('"messages"')
  })

  test('rejects a MockAgent', () => {
    expect(() => expect(fakeAgent('a', [])).toHaveReceivedRequest({})).toThrow(
      /toHaveReceivedRequest: expect\(received\) must be a FakeProxy or a ScriptedLLM, got a MockAgent/,
    )
  })
})

describe('toHaveReceivedRequests', () => {
  test('counts exactly', () => {
    expect(proxy).toHaveReceivedRequests(2)
    expect(llm).toHaveReceivedRequests(1)
    expect(fakeProxy()).toHaveReceivedRequests(0)
    expect(proxy).not.toHaveReceivedRequests(1)
  })

  test('the failure shows both counts and the requests', () => {
    const message = plain(failureOf(() => expect(proxy).toHaveReceivedRequests(3)))
    expect(message).toContain('Expected number of requests: 3')
    expect(message).toContain('Received number of requests: 2')
    expect(message).toContain('1st request: POST /v1/chat/completions')
  })

  test('a bad count throws', () => {
    expect(() => expect(proxy).toHaveReceivedRequests(-1)).toThrow(/n must be a non-negative integer/)
    expect(() => expect(proxy).toHaveReceivedRequests('2' as unknown as number)).toThrow(TypeError)
  })
})
