/**
 * `proxy.fetch` where no server can run (SPEC §16): in a real headless Chromium (Vitest browser
 * mode), a FakeProxy that is never started serves the real openai, Anthropic and AI SDK clients
 * through `agent-doubles/in-process`, streams included, and the proxy's matchers read its records.
 */
import Anthropic from '@anthropic-ai/sdk'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, streamText } from 'ai'
import OpenAI from 'openai'
import { describe, expect, test } from 'vitest'
import { FakeProxy, MockAgent, scriptedLLM, toolCall } from '../../src/in-process.js'
import '../matchers/setup-expect.js'

const user = (content: string) => ({ role: 'user' as const, content })

function browserClients(proxy: FakeProxy) {
  return {
    openai: new OpenAI({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch, maxRetries: 0, dangerouslyAllowBrowser: true }),
    anthropic: new Anthropic({ apiKey: 'k', baseURL: 'http://fake', fetch: proxy.fetch, maxRetries: 0, dangerouslyAllowBrowser: true }),
  }
}

test('this is a browser: no Node globals', () => {
  expect((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent).toMatch(/Chrome/)
  expect((globalThis as { Buffer?: unknown }).Buffer).toBeUndefined()
  expect((globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node).toBeUndefined()
})

describe('the openai SDK', () => {
  test('a JSON chat completion, recorded and matched', async () => {
    const proxy = new FakeProxy({ llm: scriptedLLM({ weather: 'Sunny in Paris.' }) })
    const { openai } = browserClients(proxy)
    const completion = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('weather in Paris?')] })
    expect(completion.choices[0].message.content).toBe('Sunny in Paris.')
    expect(completion.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/)
    expect(proxy).toHaveReceivedRequests(1)
    expect(proxy).toHaveReceivedRequest({ method: 'POST', path: '/v1/chat/completions', dialect: 'openai-chat', model: 'gpt-5' })
    expect(proxy.requests[0].headers['x-stainless-lang']).toBe('js')
  })

  test('streamed chat completions with a tool call', async () => {
    const proxy = new FakeProxy({ llm: scriptedLLM([[toolCall('get_weather', { city: 'Paris' })], 'It is sunny in Paris today.']) })
    const { openai } = browserClients(proxy)
    const first = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('weather?')], stream: true })
    const calls: string[] = []
    for await (const chunk of first) for (const call of chunk.choices[0]?.delta.tool_calls ?? []) if (call.function?.name) calls.push(call.function.name)
    expect(calls).toEqual(['get_weather'])
    const second = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('and now?')], stream: true })
    let text = ''
    let chunks = 0
    for await (const chunk of second) {
      text += chunk.choices[0]?.delta.content ?? ''
      chunks++
    }
    expect(text).toBe('It is sunny in Paris today.')
    expect(chunks).toBeGreaterThan(2)
    expect(proxy).toHaveRequestedTool('get_weather', { city: 'Paris' })
    expect(proxy.requests.map((r) => r.stream)).toEqual([true, true])
  })

  test('the Responses API, streamed', async () => {
    const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi there' }) })
    const { openai } = browserClients(proxy)
    const stream = await openai.responses.create({ model: 'gpt-5', input: 'hello', stream: true })
    const types: string[] = []
    for await (const event of stream) types.push(event.type)
    expect(types.at(0)).toBe('response.created')
    expect(types).toContain('response.output_text.delta')
    expect(types.at(-1)).toBe('response.completed')
    expect(proxy).toHaveReceivedRequest({ dialect: 'openai-responses', stream: true })
  })

  test('refusals and faults reach the client as over HTTP', async () => {
    const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi there' }) })
    const { openai } = browserClients(proxy)
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
  })

  test('aborting mid-stream ends the answer on both sides', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')
    const proxy = new FakeProxy({ llm: scriptedLLM({ hello: long }, { latency: { chunkMs: 1 } }) })
    const { openai } = browserClients(proxy)
    const controller = new AbortController()
    const stream = await openai.chat.completions.create({ model: 'gpt-5', messages: [user('hello')], stream: true }, { signal: controller.signal })
    let chunks = 0
    await (async () => {
      for await (const _ of stream) if (++chunks === 3) controller.abort()
    })().catch(() => undefined)
    expect(chunks).toBeLessThan(10)
    expect(proxy).toHaveReceivedRequests(1)
    expect(proxy.requests[0].response).toBeUndefined()
  })
})

describe('the Anthropic SDK', () => {
  test('JSON and streamed messages', async () => {
    const llm = scriptedLLM({ hello: 'hi there' })
    const proxy = new FakeProxy({ llm })
    const { anthropic } = browserClients(proxy)
    const message = await anthropic.messages.create({ model: 'claude-x', max_tokens: 64, messages: [user('hello')] })
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'hi there' })])
    expect(message.id).toMatch(/^msg_01[1-9A-HJ-NP-Za-km-z]{22}$/)
    const streamed = await anthropic.messages.stream({ model: 'claude-x', max_tokens: 64, messages: [user('hello')] }).finalMessage()
    expect(streamed.content).toEqual([expect.objectContaining({ type: 'text', text: 'hi there' })])
    expect(proxy).toHaveReceivedRequest({ dialect: 'anthropic-messages', stream: true })
    expect(llm).toHaveReceivedRequests(2)
  })
})

describe('the AI SDK', () => {
  test('generateText and streamText through @ai-sdk/openai and @ai-sdk/anthropic', async () => {
    const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi there' }) })
    const openai = createOpenAI({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch })
    const anthropic = createAnthropic({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch })
    expect((await generateText({ model: openai('gpt-5'), prompt: 'hello' })).text).toBe('hi there')
    expect((await generateText({ model: anthropic('claude-x'), prompt: 'hello' })).text).toBe('hi there')
    const streamed = streamText({ model: anthropic('claude-x'), prompt: 'hello' })
    expect(await streamed.text).toBe('hi there')
    expect(proxy.requests.map((r) => [r.dialect, r.stream])).toEqual([
      ['openai-responses', false],
      ['anthropic-messages', false],
      ['anthropic-messages', true],
    ])
  })
})

describe('what needs Node', () => {
  test('start() says this runtime cannot serve HTTP and points to proxy.fetch', async () => {
    const proxy = new FakeProxy()
    await expect(proxy.start()).rejects.toThrow(/start\(\) needs Node's node:http.*proxy\.fetch/)
    expect(() => proxy.url).toThrow(/not running/)
  })
})

test('MockAgent runs here too', async () => {
  const researcher = new MockAgent({ weather: 'sunny', '*': 'no data' }, { name: 'researcher' })
  expect((await researcher('weather today')).text()).toBe('sunny')
  expect(researcher).toHaveBeenCalledWithTask('weather today')
})
