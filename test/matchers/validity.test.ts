/** `toHaveSentValidRequests()` over a real FakeProxy: passes with no rejection, else lists each one. */
import { describe, expect, test } from 'vitest'
import { MockAgent } from '../../src/agent/mock-agent.js'
import { openaiFor, postJson, startProxy } from '../proxy/helpers.js'
import { failureOf, plain } from './setup-expect.js'

describe('toHaveSentValidRequests', () => {
  test('passes when no request was rejected, and .not fails then', async () => {
    const proxy = await startProxy()
    await openaiFor(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(proxy).toHaveSentValidRequests()
    expect(plain(failureOf(() => expect(proxy).not.toHaveSentValidRequests()))).toContain('Expected: some request rejected by validation')
  })

  test('fails listing each rejected request with its reason and param', async () => {
    const proxy = await startProxy()
    await openaiFor(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'ok' }] })
    await postJson(`${proxy.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'wizard', content: 'hi' }] })
    await postJson(`${proxy.url}/v1/messages`, { model: 'c', messages: [{ role: 'user', content: 'hi' }] }, { 'x-viper-agent': 'researcher' })
    const message = plain(failureOf(() => expect(proxy).toHaveSentValidRequests()))
    expect(message).toContain('expect(received).toHaveSentValidRequests()')
    expect(message).toContain('Expected: every request valid, but validation rejected 2 requests')
    expect(message).toContain('2nd request: POST /v1/chat/completions, model "m"')
    expect(message).toContain(`400 Invalid value: 'wizard'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'. (param "messages[0].role")`)
    expect(message).toContain('3rd request: POST /v1/messages, model "c", agent "researcher"')
    expect(message).toContain('400 max_tokens: Field required (param "max_tokens")')
    expect(message).toContain('Number of requests: 3')
    expect(proxy).not.toHaveSentValidRequests()
  })

  test('anything but a FakeProxy is a TypeError', () => {
    expect(() => expect(new MockAgent('a')).toHaveSentValidRequests()).toThrow(TypeError)
  })
})
