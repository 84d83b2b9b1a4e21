/**
 * The simulated prompt cache (SPEC §20), per provider, through the real SDKs: Anthropic
 * `cache_control` breakpoints (writes, reads, TTLs on the test's fake timers, the model's
 * minimum, the 20-block lookback, its 400s), OpenAI automatic prefix caching (1024 tokens,
 * 128-token steps, `prompt_cache_key`), Gemini implicit caching and Bedrock `cachePoint` — each
 * reported in the provider's own usage fields, in JSON and streams, per lane.
 */
import Anthropic from '@anthropic-ai/sdk'
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime'
import { GoogleGenAI } from '@google/genai'
import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest'
import { scriptedLLM } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { anthropicFor, openaiFor, startProxy } from '../proxy/helpers.js'
import { longText } from './helpers.js'

afterEach(() => {
  vi.useRealTimers()
})

const model = 'claude-sonnet-4-5'
const stable = longText(2000)
/** A system prompt marked cacheable: 2,000 estimated tokens. */
const cachedSystem = (text = stable, ttl?: '5m' | '1h'): Anthropic.TextBlockParam[] => [{ type: 'text', text, cache_control: { type: 'ephemeral', ...(ttl ? { ttl } : {}) } }]

function ask(proxy: FakeProxy, system: Anthropic.TextBlockParam[], question = 'hi'): Promise<Anthropic.Message> {
  return anthropicFor(proxy).messages.create({ model, max_tokens: 10, system, messages: [{ role: 'user', content: question }] })
}

describe('Anthropic cache_control', () => {
  test('the first request writes the marked prefix, the next reads it; input_tokens is the uncached rest', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b']) })
    const first = await ask(proxy, cachedSystem())
    expect(first.usage).toMatchObject({ cache_creation_input_tokens: 2000, cache_read_input_tokens: 0, input_tokens: 1, cache_creation: { ephemeral_5m_input_tokens: 2000, ephemeral_1h_input_tokens: 0 } })
    const second = await ask(proxy, cachedSystem(), 'hello')
    expect(second.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 2000, input_tokens: 2 })
    expect(proxy.requests[1]!.promptCache).toEqual({ inputTokens: 2002, readTokens: 2000, writeTokens: 0, write1hTokens: 0 })
  })

  test('streams report the same counts in message_start and message_delta', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'streamed']) })
    await ask(proxy, cachedSystem())
    const stream = anthropicFor(proxy).messages.stream({ model, max_tokens: 10, system: cachedSystem(), messages: [{ role: 'user', content: 'hi' }] })
    const starts: Anthropic.Usage[] = []
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') starts.push(event.message.usage)
    })
    const final = await stream.finalMessage()
    expect(starts[0]).toMatchObject({ cache_read_input_tokens: 2000, input_tokens: 1 })
    expect(final.usage).toMatchObject({ cache_read_input_tokens: 2000, cache_creation_input_tokens: 0, input_tokens: 1 })
  })

  test('a 5-minute entry expires on the test’s fake clock; a read refreshes it; 1h lasts the hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b', 'c', 'd', 'e', 'f']) })
    await ask(proxy, cachedSystem())
    vi.advanceTimersByTime(4 * 60_000)
    expect((await ask(proxy, cachedSystem())).usage.cache_read_input_tokens).toBe(2000)
    // Refreshed by that read: 4 more minutes are still within 5 of it.
    vi.advanceTimersByTime(4 * 60_000)
    expect((await ask(proxy, cachedSystem())).usage.cache_read_input_tokens).toBe(2000)
    vi.advanceTimersByTime(5 * 60_000 + 1)
    const expired = await ask(proxy, cachedSystem())
    expect(expired.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 2000 })
    expect(proxy.requests[3]!.promptCache!.miss).toMatchObject({ reason: 'expired', ttlMs: 300_000 })
    const hour = cachedSystem(longText(2000, 'hour'), '1h')
    expect((await ask(proxy, hour)).usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2000 })
    vi.advanceTimersByTime(59 * 60_000)
    expect((await ask(proxy, hour)).usage.cache_read_input_tokens).toBe(2000)
  })

  test('a prefix below the model’s minimum is not cached (Haiku 4.5: 4096; Sonnet 4.5: 1024)', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b']) })
    const body = { max_tokens: 10, system: cachedSystem(), messages: [{ role: 'user' as const, content: 'hi' }] }
    await anthropicFor(proxy).messages.create({ ...body, model: 'claude-haiku-4-5' })
    const again = await anthropicFor(proxy).messages.create({ ...body, model: 'claude-haiku-4-5' })
    expect(again.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0, input_tokens: 2001 })
    expect(proxy.requests[1]!.promptCache!.miss).toEqual({ reason: 'below-minimum', tokens: 2000, minimum: 4096 })
  })

  test('tools → system → messages: a breakpoint on the last message caches the whole conversation, read back through the 20-block lookback', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b', 'c']) })
    const tools: Anthropic.Tool[] = [{ name: 'search', description: stable, input_schema: { type: 'object', properties: {} }, cache_control: { type: 'ephemeral' } }]
    const turns: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'first question', cache_control: { type: 'ephemeral' } }] }]
    const first = await anthropicFor(proxy).messages.create({ model, max_tokens: 10, tools, system: 'plain system', messages: turns })
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(2000)
    // The next turn moves the breakpoint forward by two blocks: the old entry is found by lookback.
    const next: Anthropic.MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'first question' }] },
      { role: 'assistant', content: 'an answer' },
      { role: 'user', content: [{ type: 'text', text: 'second question', cache_control: { type: 'ephemeral' } }] },
    ]
    const second = await anthropicFor(proxy).messages.create({ model, max_tokens: 10, tools, system: 'plain system', messages: next })
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens)
    expect(second.usage.cache_creation_input_tokens).toBe(estimate('an answer') + estimate('second question'))
  })

  test('more than 4 breakpoints, one on an empty text block, an unknown ttl: Anthropic’s 400s, recorded', async () => {
    const proxy = await startProxy()
    const client = anthropicFor(proxy)
    const five = Array.from({ length: 5 }, (_, i) => ({ type: 'text' as const, text: `part ${i}`, cache_control: { type: 'ephemeral' as const } }))
    const tooMany = await client.messages.create({ model, max_tokens: 5, system: five, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)
    expect(tooMany).toBeInstanceOf(Anthropic.BadRequestError)
    expect((tooMany as { error: unknown }).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.' } })
    const empty = await client.messages.create({ model, max_tokens: 5, system: [{ type: 'text', text: '', cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)
    expect((empty as Error).message).toMatch(/system\.0\.text: cache_control cannot be set for empty text blocks/)
    const ttl = await client.messages.create({ model, max_tokens: 5, system: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '2h' as '1h' } }], messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)
    expect((ttl as Error).message).toMatch(/system\.0\.cache_control\.ephemeral\.ttl: Input should be '5m' or '1h'/)
    // count_tokens reads the same rules.
    await expect(client.messages.countTokens({ model, system: five, messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(Anthropic.BadRequestError)
    expect(proxy.requests.map((request) => request.status)).toEqual([400, 400, 400, 400])
  })

  test('each lane has its own cache, emptied by its reset()', async () => {
    const proxy = await startProxy()
    const one = proxy.lane('one')
    const two = proxy.lane('two')
    await ask(one, cachedSystem())
    expect((await ask(two, cachedSystem())).usage.cache_read_input_tokens).toBe(0)
    expect((await ask(one, cachedSystem())).usage.cache_read_input_tokens).toBe(2000)
    one.reset()
    expect((await ask(one, cachedSystem())).usage.cache_read_input_tokens).toBe(0)
  })
})

describe('OpenAI automatic prefix caching', () => {
  const system = longText(3000)
  const chat = (proxy: FakeProxy, question: string, extra: Record<string, unknown> = {}) =>
    openaiFor(proxy).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'system', content: system }, { role: 'user', content: question }], ...extra })

  test('a repeated prefix of 1024+ tokens is read in 128-token steps, reported as cached_tokens', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b']) })
    const first = await chat(proxy, 'first')
    expect(first.usage?.prompt_tokens_details?.cached_tokens).toBe(0)
    const second = await chat(proxy, 'second')
    const cached = second.usage!.prompt_tokens_details!.cached_tokens!
    expect(cached).toBeGreaterThanOrEqual(1024)
    expect((cached - 1024) % 128).toBe(0)
    expect(cached).toBeLessThanOrEqual(second.usage!.prompt_tokens)
    expect(second.usage!.prompt_tokens - cached).toBeLessThan(128 + 20)
  })

  test('prompts under 1024 tokens are never cached', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b']) })
    const short = [{ role: 'user' as const, content: 'a short question' }]
    await openaiFor(proxy).chat.completions.create({ model: 'gpt-4o', messages: short })
    const again = await openaiFor(proxy).chat.completions.create({ model: 'gpt-4o', messages: short })
    expect(again.usage?.prompt_tokens_details?.cached_tokens).toBe(0)
    expect(proxy.requests[1]!.promptCache!.miss).toMatchObject({ reason: 'below-minimum', minimum: 1024 })
  })

  test('prompt_cache_key separates entries; Responses reports input_tokens_details.cached_tokens, streamed too', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b', 'c', 'd']) })
    await chat(proxy, 'q', { prompt_cache_key: 'tenant-a' })
    expect((await chat(proxy, 'q', { prompt_cache_key: 'tenant-b' })).usage?.prompt_tokens_details?.cached_tokens).toBe(0)
    const responses = openaiFor(proxy).responses
    await responses.create({ model: 'gpt-5', instructions: system, input: 'one' })
    const streamed = await responses.stream({ model: 'gpt-5', instructions: system, input: 'two' }).finalResponse()
    expect(streamed.usage?.input_tokens_details.cached_tokens).toBeGreaterThanOrEqual(1024)
  })
})

describe('Gemini implicit caching and Bedrock cachePoint', () => {
  test('Gemini reports cachedContentTokenCount for a repeated long prefix', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b', 'c']) })
    const genai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: proxy.url } })
    const config = { systemInstruction: stable }
    const first = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'one', config })
    expect(first.usageMetadata?.cachedContentTokenCount).toBeUndefined()
    const second = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'two', config })
    expect(second.usageMetadata).toMatchObject({ cachedContentTokenCount: 2000, promptTokenCount: 2001 })
    let last
    for await (const chunk of await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'six', config })) last = chunk
    expect(last?.usageMetadata?.cachedContentTokenCount).toBe(2000)
  })

  test('Bedrock Converse: a cachePoint caches what precedes it; cacheWriteInputTokens then cacheReadInputTokens, streamed too', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b', 'c']) })
    const client = new BedrockRuntimeClient({ endpoint: proxy.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 1 })
    onTestFinished(() => client.destroy())
    const modelId = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'
    const input = { modelId, system: [{ text: stable }, { cachePoint: { type: 'default' as const } }], messages: [{ role: 'user' as const, content: [{ text: 'hi' }] }] }
    const first = await client.send(new ConverseCommand(input))
    expect(first.usage).toMatchObject({ cacheWriteInputTokens: 2000, inputTokens: 1 })
    const second = await client.send(new ConverseCommand(input))
    expect(second.usage).toMatchObject({ cacheReadInputTokens: 2000, inputTokens: 1, totalTokens: 2001 + second.usage!.outputTokens! })
    const stream = await client.send(new ConverseStreamCommand(input))
    let usage
    for await (const event of stream.stream!) if (event.metadata) usage = event.metadata.usage
    expect(usage).toMatchObject({ cacheReadInputTokens: 2000 })
  })
})

describe('turned off', () => {
  test('promptCache: false reports no cache fields; tokens: "estimate" with it leaves usage to the brain', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b']), promptCache: false })
    await ask(proxy, cachedSystem())
    expect((await ask(proxy, cachedSystem())).usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0, input_tokens: 2001 })
    expect(proxy.requests[1]!.promptCache).toBeUndefined()
    const off = await startProxy({ llm: scriptedLLM([{ text: 'x', usage: { inputTokens: 3, outputTokens: 1 } }]), tokens: 'estimate', promptCache: false })
    expect((await ask(off, cachedSystem())).usage.input_tokens).toBe(3)
    expect(() => new (proxy.constructor as typeof FakeProxy)({ tokens: 'bpe' as 'estimate' })).toThrow(TypeError)
  })
})

function estimate(text: string): number {
  return Math.ceil(text.length / 4)
}
