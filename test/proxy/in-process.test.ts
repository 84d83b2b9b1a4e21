/**
 * `proxy.fetch` (SPEC §16): the real openai, Anthropic and AI SDK clients take it as their
 * `fetch` and get every answer with no socket — JSON, streams, aborts, faults — while the
 * proxy records and matches as over HTTP.
 */
import Anthropic from '@anthropic-ai/sdk'
import { createOpenAI } from '@ai-sdk/openai'
import { createAnthropic } from '@ai-sdk/anthropic'
import { generateText, streamText } from 'ai'
import OpenAI from 'openai'
import { describe, expect, test } from 'vitest'
import { FakeProxy, scriptedLLM, toolCall } from '../../src/index.js'
import { isHandedOver } from '../../src/llm/helpers.js'
import '../matchers/setup-expect.js'

// The Anthropic provider warns about the made-up model id on every call.
;(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false

const user = (content: string) => ({ role: 'user' as const, content })

function unstarted(script: Parameters<typeof scriptedLLM>[0], options?: Parameters<typeof scriptedLLM>[1]) {
  const llm = scriptedLLM(script, options)
  const proxy = new FakeProxy({ llm })
  return { proxy, llm, openai: new OpenAI({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch, maxRetries: 0 }) }
}

describe('proxy.fetch with the openai SDK', () => {
  test('answers a JSON call without start(), recorded as over HTTP', async () => {
    const { proxy, openai } = unstarted({ weather: 'Sunny in Paris.' })
    const completion = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('weather in Paris?')] })
    expect(completion.choices[0].message.content).toBe('Sunny in Paris.')
    expect(() => proxy.url).toThrow(/not running/)
    expect(proxy).toHaveReceivedRequests(1)
    expect(proxy).toHaveReceivedRequest({ method: 'POST', path: '/v1/chat/completions', dialect: 'openai-chat', model: 'gpt-5' })
    expect(proxy.requests[0].headers['x-stainless-lang']).toBe('js')
  })

  test('streams, with tool calls the matchers read', async () => {
    const { proxy, openai } = unstarted([[toolCall('get_weather', { city: 'Paris' })], 'It is sunny in Paris today.'])
    const first = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('weather?')], stream: true })
    const calls: string[] = []
    for await (const chunk of first) for (const call of chunk.choices[0]?.delta.tool_calls ?? []) if (call.function?.name) calls.push(call.function.name)
    expect(calls).toEqual(['get_weather'])
    const second = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('and now?')], stream: true })
    let text = ''
    for await (const chunk of second) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe('It is sunny in Paris today.')
    expect(proxy).toHaveRequestedTool('get_weather', { city: 'Paris' })
    expect(proxy.requests.map((r) => r.stream)).toEqual([true, true])
  })

  test('the Responses API, JSON and streamed', async () => {
    const { openai } = unstarted({ hello: 'hi there' })
    const response = await openai.responses.create({ model: 'gpt-5', input: 'hello' })
    expect(response.output_text).toBe('hi there')
    const stream = await openai.responses.create({ model: 'gpt-5', input: 'hello', stream: true })
    const types: string[] = []
    for await (const event of stream) types.push(event.type)
    expect(types.at(0)).toBe('response.created')
    expect(types.at(-1)).toBe('response.completed')
  })

  test('aborting mid-stream ends the answer on both sides', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')
    const { proxy, openai } = unstarted({ hello: long }, { latency: { chunkMs: 1 } })
    const controller = new AbortController()
    const stream = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('hello')], stream: true }, { signal: controller.signal })
    let chunks = 0
    const error = await (async () => {
      for await (const _ of stream) if (++chunks === 3) controller.abort()
    })().catch((e: unknown) => e)
    // The openai SDK ends an aborted stream quietly or with its APIUserAbortError.
    if (error !== undefined) expect((error as Error).name).toMatch(/Abort/)
    expect(chunks).toBeLessThan(10)
    // The proxy saw the request, and its answer never finished.
    expect(proxy).toHaveReceivedRequests(1)
    expect(proxy.requests[0].response).toBeUndefined()
  })

  test('refusals, replies and faults apply as over HTTP', async () => {
    const { proxy, openai } = unstarted({ hello: 'hi there' })
    proxy.refuse('rate_limited')
    const refused = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('hello')] }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError)
    expect(proxy).toHaveRefusedWith('rate_limited')

    proxy.fail({ kind: 'disconnect', afterChunks: 2 })
    const stream = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('hello')], stream: true })
    const seen: unknown[] = []
    const cut = await (async () => {
      for await (const chunk of stream) seen.push(chunk)
    })().catch((e: unknown) => e)
    expect(cut).toBeInstanceOf(Error)
    expect(seen).toHaveLength(2)

    proxy.fail({ kind: 'disconnect', afterChunks: 0 })
    const lost = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('hello')] }).catch((e: unknown) => e)
    expect(lost).toBeInstanceOf(OpenAI.APIConnectionError)
  })

  test('answers a route it does not serve with a 404 in the dialect shape', async () => {
    const proxy = new FakeProxy()
    const answer = await proxy.fetch('http://fake/v1/nowhere', { method: 'POST', body: '{}' })
    expect(answer.status).toBe(404)
    expect(await answer.json()).toMatchObject({ error: { message: expect.stringContaining('/v1/nowhere') } })
  })

  test('takes a Request object, and a body the platform must read (a stream)', async () => {
    const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi there' }) })
    const body = JSON.stringify({ model: 'gpt-5', messages: [user('hello')] })
    const fromRequest = await proxy.fetch(new Request('http://fake/v1/chat/completions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }))
    expect(((await fromRequest.json()) as OpenAI.ChatCompletion).choices[0].message.content).toBe('hi there')
    const streamed = new Blob([body]).stream()
    const fromStream = await proxy.fetch('http://fake/v1/chat/completions', { method: 'POST', body: streamed, duplex: 'half' } as RequestInit)
    expect(((await fromStream.json()) as OpenAI.ChatCompletion).choices[0].message.content).toBe('hi there')
    expect(proxy.requests.map((r) => [r.path, r.headers['content-type']])).toEqual([['/v1/chat/completions', 'application/json'], ['/v1/chat/completions', undefined]])
  })

  test('an aborted signal rejects at once with its reason', async () => {
    const proxy = new FakeProxy()
    const reason = new Error('gave up')
    const error = await proxy.fetch('http://fake/v1/models', { signal: AbortSignal.abort(reason) }).catch((e: unknown) => e)
    expect(error).toBe(reason)
    expect(proxy).toHaveReceivedRequests(0)
  })
})

describe('proxy.fetch with the Anthropic SDK', () => {
  test('JSON and streamed messages', async () => {
    const llm = scriptedLLM({ hello: 'hi there' })
    const proxy = new FakeProxy({ llm })
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: 'http://fake', fetch: proxy.fetch, maxRetries: 0 })
    const message = await anthropic.messages.create({ model: 'claude-x', max_tokens: 64, messages: [user('hello')] })
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'hi there' })])
    const streamed = await anthropic.messages.stream({ model: 'claude-x', max_tokens: 64, messages: [user('hello')] }).finalMessage()
    expect(streamed.content).toEqual([expect.objectContaining({ type: 'text', text: 'hi there' })])
    expect(proxy).toHaveReceivedRequest({ dialect: 'anthropic-messages', stream: true })
    expect(llm).toHaveReceivedRequests(2)
  })
})

describe('proxy.fetch with the AI SDK', () => {
  test('generateText and streamText through @ai-sdk/openai and @ai-sdk/anthropic', async () => {
    const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi there' }) })
    const openai = createOpenAI({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch })
    const anthropic = createAnthropic({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch })
    expect((await generateText({ model: openai('gpt-5'), prompt: 'hello' })).text).toBe('hi there')
    expect((await generateText({ model: anthropic('claude-x'), prompt: 'hello' })).text).toBe('hi there')
    const streamed = streamText({ model: openai.chat('gpt-5'), prompt: 'hello' })
    expect(await streamed.text).toBe('hi there')
    expect(proxy.requests.map((r) => r.dialect)).toEqual(['openai-responses', 'anthropic-messages', 'openai-chat'])
  })
})

describe('close()', () => {
  test('ends an in-process stream still waiting for its first chunk, leaving no timer', async () => {
    const { proxy, openai } = unstarted({ hello: 'hi there' }, { latency: { firstChunkMs: 60_000 } })
    const stream = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('hello')], stream: true })
    const reading = (async () => {
      for await (const _ of stream) void _
    })().catch((e: unknown) => e)
    await proxy.close()
    expect(await reading).toBeInstanceOf(Error)
    // proxy.fetch keeps serving after close(), as a restarted proxy would.
    proxy.use(scriptedLLM({ hello: 'again' }))
    const completion = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('hello')] })
    expect(completion.choices[0].message.content).toBe('again')
  })
})

describe('records of a model double behind the proxy', () => {
  test('are the requests the proxy decoded, not copies, and proxy.reset() clears them but keeps the script\'s place', async () => {
    const llm = scriptedLLM(['one', 'two'])
    const proxy = new FakeProxy({ llm })
    const openai = new OpenAI({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch, maxRetries: 0 })
    await openai.chat.completions.create({ model: 'gpt-5', messages: [user('first')] })
    // Handed over by the proxy: recorded as is. A direct call's request is copied instead.
    expect(isHandedOver(llm.requests[0])).toBe(true)
    const direct = { model: 'm', messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'direct' }] }], stream: false }
    const other = scriptedLLM(['x'])
    await other.generate(direct)
    expect(other.requests[0]).not.toBe(direct)
    expect(other.requests[0]).toEqual(direct)

    proxy.reset()
    expect(llm.callCount).toBe(0)
    expect(llm.responses).toEqual([])
    const second = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('second')] })
    expect(second.choices[0].message.content).toBe('two')
    expect(llm).toHaveReceivedRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: 'second' }] }] })
  })
})

describe('proxy.fetch input forms', () => {
  test('reads headers given as pairs, a plain object, or another copy\'s Headers (undici\'s)', async () => {
    const { Headers: UndiciHeaders } = await import('undici')
    const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi there' }) })
    const body = JSON.stringify({ model: 'gpt-5', messages: [user('hello')] })
    const forms = [
      [['Content-Type', 'application/json'], ['X-Trace', 'pairs']],
      { 'Content-Type': 'application/json', 'X-Trace': 'object' },
      new UndiciHeaders({ 'Content-Type': 'application/json', 'X-Trace': 'undici' }),
    ] as RequestInit['headers'][]
    for (const headers of forms) {
      const answer = await proxy.fetch('http://fake/v1/chat/completions', { method: 'POST', headers, body })
      expect(answer.status).toBe(200)
    }
    expect(proxy.requests.map((r) => r.headers['x-trace'])).toEqual(['pairs', 'object', 'undici'])
  })
})
