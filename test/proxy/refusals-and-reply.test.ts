import { describe, expect, test } from 'vitest'
import { createProxyError } from '../../src/gateway/proxy-error.js'
import type { LLM } from '../../src/llm/types.js'
import { FakeProxy } from '../../src/server/fake-proxy.js'
import { anthropicFor, listLLM, openaiFor, postJson, startProxy, text } from './helpers.js'

const chat = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] }

function throwingLLM(error: unknown): LLM {
  return {
    async generate() {
      throw error
    },
    // eslint-disable-next-line require-yield
    async *stream() {
      throw error
    },
  }
}

describe('proxy.refuse()', () => {
  test('a retried code is retried by the openai client until it gets through', async () => {
    const proxy = await startProxy()
    proxy.refuse('rate_limited', { times: 2 })
    const completion = await openaiFor(proxy, { maxRetries: 2 }).chat.completions.create(chat)
    expect(completion.choices[0].message.content).toBeTruthy()
    expect(proxy.refusals.map((r) => [r.code, r.status])).toEqual([
      ['rate_limited', 429],
      ['rate_limited', 429],
    ])
    expect(proxy.requests).toHaveLength(1)
    expect(proxy.requests[0].headers['x-stainless-retry-count']).toBe('2')
  })

  test('a code that is not retried surfaces at once with the mark, message and hint', async () => {
    const proxy = await startProxy()
    proxy.refuse('policy_denied', { message: 'no secrets', hint: 'ask nicely' })
    const error = (await openaiFor(proxy, { maxRetries: 2 }).chat.completions.create(chat).catch((e: unknown) => e)) as {
      status: number
      code: string
      error: { hint: string; type: string }
      headers: Headers
    }
    expect(error).toMatchObject({ status: 403, code: 'policy_denied', error: { hint: 'ask nicely', type: 'proxy_error' } })
    expect(error.headers.get('x-viper-error')).toBe('policy_denied')
    expect(error.headers.get('x-should-retry')).toBe('false')
    expect(proxy.refusals).toHaveLength(1)
    expect(proxy.refusals[0].request).toMatchObject({ dialect: 'openai-chat', path: '/v1/chat/completions' })
    expect(proxy.requests).toHaveLength(0)
  })

  test('Anthropic routes refuse in the Anthropic shape', async () => {
    const proxy = await startProxy()
    proxy.refuse('upstream_timeout')
    const error = (await anthropicFor(proxy)
      .messages.create({ model: 'claude-sonnet-4-6', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)) as { status: number; error: unknown }
    expect(error.status).toBe(504)
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'timeout_error', code: 'upstream_timeout' } })
  })

  test('the checks run first: a strict proxy refuses anonymous requests; identity is recorded and stripped', async () => {
    const proxy = await startProxy({ strict: true, agents: ['researcher'] })
    const anonymous = await postJson(`${proxy.url}/v1/chat/completions`, chat)
    expect(anonymous.status).toBe(400)
    expect(anonymous.headers.get('x-viper-error')).toBe('agent_required')
    const unknown = await postJson(`${proxy.url}/v1/chat/completions`, chat, { 'x-viper-agent': 'stranger' })
    expect(unknown.status).toBe(403)
    const ok = await postJson(`${proxy.url}/v1/chat/completions`, chat, { 'x-viper-agent': 'researcher', 'x-viper-subagent': 'critic/fact-checker' })
    expect(ok.status).toBe(200)
    expect(proxy.requests[0]).toMatchObject({ agent: 'researcher', subagent: 'critic/fact-checker', definitionCid: undefined })
    expect(Object.keys(proxy.requests[0].headers).some((h) => h.startsWith('x-viper-'))).toBe(false)
    expect(proxy.refusals.map((r) => r.code)).toEqual(['agent_required', 'agent_unknown'])
  })

  test('refuse() rejects unknown codes and bad times', () => {
    const proxy = new FakeProxy()
    expect(() => proxy.refuse('nope' as 'rate_limited')).toThrow(RangeError)
    expect(() => proxy.refuse('rate_limited', { times: 0 })).toThrow(RangeError)
    expect(() => proxy.refuse('rate_limited', { times: 1.5 })).toThrow(RangeError)
    expect(() => proxy.refuse('rate_limited', { times: '2' as unknown as number })).toThrow(TypeError)
    expect(() => proxy.refuse('rate_limited', { colour: 'red' } as never)).toThrow(/unknown option "colour"/)
  })
})

describe('a brain that throws', () => {
  test('a ProxyError from the brain is answered as that refusal and recorded in refusals', async () => {
    const proxy = await startProxy({ llm: throwingLLM(createProxyError('upstream_response_lost')) })
    const error = await openaiFor(proxy, { maxRetries: 2 }).chat.completions.create(chat).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_lost' })
    expect(proxy.refusals.map((r) => r.code)).toEqual(['upstream_response_lost'])
    expect(proxy.requests).toHaveLength(0)
  })

  test('a ProxyError at the start of a stream is an HTTP refusal, not a broken stream', async () => {
    const proxy = await startProxy({ llm: throwingLLM(createProxyError('agent_unknown', { message: 'who?' })) })
    const error = await openaiFor(proxy).chat.completions.create({ ...chat, stream: true }).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 403, code: 'agent_unknown', message: '403 who?' })
  })

  test('any other error is a 500 in the dialect that names it', async () => {
    const proxy = await startProxy({ llm: throwingLLM(new Error('script exhausted at turn 3')) })
    const answer = await postJson(`${proxy.url}/v1/messages`, { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
    expect(answer.status).toBe(500)
    expect(answer.body).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('script exhausted at turn 3') } })
  })

  test('a brain error is not retried: the SDK gives up after one attempt', async () => {
    const proxy = await startProxy({ llm: throwingLLM(new Error('scripted: script exhausted at turn 1')) })
    const attempt = openaiFor(proxy, { maxRetries: 2 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
    await expect(attempt).rejects.toMatchObject({ status: 500, message: expect.stringContaining('script exhausted') })
    expect(proxy.requests).toHaveLength(1)
  })

  test('an error after a stream started becomes the dialect error event', async () => {
    const llm: LLM = {
      generate: async () => text('x'),
      async *stream() {
        yield { type: 'text-delta', text: 'partial' }
        throw new Error('boom mid-stream')
      },
    }
    const proxy = await startProxy({ llm })
    const answer = await postJson(`${proxy.url}/v1/messages`, { model: 'm', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'x' }] })
    expect(answer.text).toContain('event: error\ndata: {"type":"error","error":{"type":"api_error","message":"')
    expect(answer.text).toContain('boom mid-stream')
    expect(answer.text.endsWith('\n\n')).toBe(true)

    // Responses numbers its events: the error continues the sequence.
    const responses = await postJson(`${proxy.url}/v1/responses`, { model: 'm', stream: true, input: 'x' })
    const numbers = [...responses.text.matchAll(/"sequence_number":(\d+)/g)].map((match) => Number(match[1]))
    expect(responses.text).toContain('event: error')
    expect(numbers).toEqual(numbers.map((_, i) => i))
  })
})

describe('proxy.reply()', () => {
  test('a JSON body with a status answers every model request, streamed ones as JSON', async () => {
    const proxy = await startProxy()
    proxy.reply({ custom: true }, { status: 202 })
    const first = await postJson(`${proxy.url}/v1/chat/completions`, chat)
    const streamed = await postJson(`${proxy.url}/v1/messages`, { model: 'm', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'x' }] })
    expect([first.status, first.body]).toEqual([202, { custom: true }])
    expect([streamed.status, streamed.body]).toEqual([202, { custom: true }])
    expect(streamed.headers.get('content-type')).toMatch(/^application\/json/)
    expect(proxy.requests).toHaveLength(2)
    expect(proxy.requests[0].response).toBeUndefined()
  })

  test('a function of the request', async () => {
    const proxy = await startProxy()
    proxy.reply((req) => ({ echoed: req.request.messages[0].content[0], agent: req.agent ?? null }))
    const answer = await postJson(`${proxy.url}/v1/chat/completions`, chat, { 'x-viper-agent': 'bob' })
    expect(answer.body).toEqual({ echoed: { type: 'text', text: 'hi' }, agent: 'bob' })
  })

  test('a throwing function, or a body JSON cannot carry, is a 500 naming the error', async () => {
    const proxy = await startProxy()
    proxy.reply(() => {
      throw new Error('reply exploded')
    })
    const thrown = await postJson(`${proxy.url}/v1/chat/completions`, chat)
    expect(thrown.status).toBe(500)
    expect(thrown.body).toMatchObject({ error: { type: 'server_error', message: expect.stringContaining('reply exploded') } })
    proxy.reply(() => ({ big: 1n }))
    const bigint = await postJson(`${proxy.url}/v1/chat/completions`, chat)
    expect(bigint.status).toBe(500)
    expect(bigint.body).toMatchObject({ error: { message: expect.stringContaining('BigInt') } })
    proxy.reply(() => undefined)
    expect((await postJson(`${proxy.url}/v1/chat/completions`, chat)).status).toBe(500)
  })

  test('a status outside 200–599 throws', () => {
    const proxy = new FakeProxy()
    expect(() => proxy.reply({}, { status: 199 })).toThrow(RangeError)
    expect(() => proxy.reply({}, { status: 600 })).toThrow(RangeError)
  })

  test('use() swaps the brain and validates it', async () => {
    const proxy = await startProxy()
    proxy.use(listLLM(text('swapped')))
    const completion = await openaiFor(proxy).chat.completions.create(chat)
    expect(completion.choices[0].message.content).toBe('swapped')
    expect(() => proxy.use({ generate: () => {} } as never)).toThrow(/FakeProxy use\(\): llm must be an LLM/)
  })

  test('an LLM with session() gets one session per agent/subagent identity', async () => {
    const keys: string[] = []
    const base = listLLM(text('x'))
    const proxy = await startProxy({ llm: { ...base, session: (key: string) => (keys.push(key), base) } })
    await postJson(`${proxy.url}/v1/chat/completions`, chat, { 'x-viper-agent': 'a', 'x-viper-subagent': 'b/c' })
    await postJson(`${proxy.url}/v1/chat/completions`, chat)
    expect(keys).toEqual(['a/b/c', '/'])
  })
})
