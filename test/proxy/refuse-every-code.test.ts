/**
 * Every refusal code of SPEC §5.4, planned with `proxy.refuse()`: its status, body, mark and
 * retry headers on the wire, and — counted in attempts — that the openai and Anthropic SDKs
 * retry exactly the codes marked retried.
 */
import { describe, expect, test } from 'vitest'
import { proxyError, refusalCodes, type FakeProxy, type RefusalCode } from '../../src/index.js'
import { anthropicFor, openaiFor, startProxy } from './helpers.js'

const codes = Object.entries(refusalCodes) as [RefusalCode, (typeof refusalCodes)[RefusalCode]][]
const chat = { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'hi' }] }
const message = { model: 'claude', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hi' }] }

describe.each(codes)('refuse(%s)', (code, { status, retried }) => {
  test(`answers ${status} with the mark, the retry headers and both dialect bodies`, async () => {
    const proxy = await startProxy()
    proxy.refuse(code, { times: 2, hint: 'a hint' })

    const openai = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chat),
    })
    expect(openai.status).toBe(status)
    expect(openai.headers.get('x-viper-error')).toBe(code)
    expect(openai.headers.get('x-should-retry')).toBe(String(retried))
    expect(openai.headers.get('retry-after-ms')).toBe(retried ? '1' : null)
    expect(await openai.json()).toEqual({
      error: { message: expect.any(String), type: 'proxy_error', code, param: null, hint: 'a hint' },
    })

    const anthropic = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
    })
    expect(anthropic.status).toBe(status)
    expect(anthropic.headers.get('x-viper-error')).toBe(code)
    // Like every Anthropic error body, a refusal carries the request id of the request-id header (SPEC §21).
    expect(await anthropic.json()).toEqual({
      type: 'error',
      error: { type: expect.any(String), message: expect.any(String), code, hint: 'a hint' },
      request_id: anthropic.headers.get('request-id'),
    })
    expect(proxy.refusals.map((refusal) => [refusal.code, refusal.status])).toEqual([
      [code, status],
      [code, status],
    ])
  })

  const clients = [
    {
      sdk: 'openai',
      answer: { object: 'chat.completion' },
      call: (proxy: FakeProxy): Promise<unknown> => openaiFor(proxy, { maxRetries: 2 }).chat.completions.create(chat),
    },
    {
      sdk: 'Anthropic',
      answer: { type: 'message' },
      call: (proxy: FakeProxy): Promise<unknown> => anthropicFor(proxy, { maxRetries: 2 }).messages.create(message),
    },
  ]
  test.each(clients)(`the $sdk SDK ${retried ? 'retries it once and gets through' : 'does not retry it'}`, async ({ call, answer }) => {
    const proxy = await startProxy()
    proxy.refuse(code)
    const attempt = call(proxy)

    if (retried) {
      await expect(attempt).resolves.toMatchObject(answer)
      expect(proxy.requests).toHaveLength(1)
    } else {
      const error = await attempt.catch((caught: unknown) => caught)
      expect(proxyError(error)).toMatchObject({ code, status })
      expect(proxy.requests).toHaveLength(0)
    }
    // Attempts = refusals + requests that got through.
    expect(proxy.refusals).toHaveLength(1)
  })
})
