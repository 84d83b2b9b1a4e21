/**
 * SPEC §19 timing: paced streams measured through the `openai` client (the first delta after
 * ttftMs ± 20 %, the token rate ± 20 % over a second), fake timers that do not stall them, the
 * opt-in test clock that advancing releases, and rate limits by requests and tokens.
 */
import { setTimeout as realSleep } from 'node:timers/promises'
import OpenAI from 'openai'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { scriptedLLM } from '../../src/index.js'
import { openaiFor, startProxy } from '../proxy/helpers.js'

const FORTY_WORDS = Array.from({ length: 41 }, (_, i) => `w${i % 10}`).join(' ')
const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] }

afterEach(() => {
  vi.useRealTimers()
})

describe('latency: paced streams', () => {
  test('the first delta after ttftMs (± 20 %), the rest at tokensPerSecond (± 20 %) over a second', async () => {
    const proxy = await startProxy({ llm: scriptedLLM((req) => (req.messages.length > 1 ? 'warm' : FORTY_WORDS)), latency: { ttftMs: 1_000, tokensPerSecond: 40 } })
    const client = openaiFor(proxy)
    // A first call warms the client and the connection up.
    await client.chat.completions.create({ ...ask, messages: [...ask.messages, { role: 'user', content: 'warm up' }] })
    // The headers go out when the call is accepted, before the wait: TTFT runs from them.
    const { data: stream } = await client.chat.completions.create({ ...ask, stream: true }).withResponse()
    const started = performance.now()
    const arrivals: number[] = []
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) arrivals.push(performance.now())
    }
    expect(arrivals).toHaveLength(41)
    const ttft = arrivals[0] - started
    expect(ttft).toBeGreaterThanOrEqual(1_000 * 0.8)
    expect(ttft).toBeLessThanOrEqual(1_000 * 1.2)
    // 40 one-token deltas after the first: a second at 40 tokens per second.
    const rate = (40 * 1000) / (arrivals[40] - arrivals[0])
    expect(rate).toBeGreaterThanOrEqual(40 * 0.8)
    expect(rate).toBeLessThanOrEqual(40 * 1.2)
  })

  test('a jittered stream still carries the whole text; the options are checked', async () => {
    await expect(startProxy({ latency: { ttftMs: -1 } })).rejects.toThrow(/latency.*ttftMs must be a non-negative number/)
    await expect(startProxy({ latency: { jitter: 2 } })).rejects.toThrow(/jitter must be a number from 0 to 1/)
    await expect(startProxy({ latency: { clock: 'fake' as never } })).rejects.toThrow(/clock must be 'real' or 'test'/)
    const proxy = await startProxy({ llm: scriptedLLM(['a b c']), latency: { ttftMs: 20, tokensPerSecond: 200, jitter: 0.5, seed: 3 } })
    let text = ''
    for await (const chunk of await openaiFor(proxy).chat.completions.create({ ...ask, stream: true })) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe('a b c')
  })

  test("a test's fake timers do not stall a paced stream on the real clock", async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three']), latency: { ttftMs: 30, tokensPerSecond: 100 } })
    const client = openaiFor(proxy)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    let text = ''
    for await (const chunk of await client.chat.completions.create({ ...ask, stream: true })) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe('one two three')
  })

  test("clock: 'test' waits on the test's timers: advancing them releases the stream", async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three']), latency: { ttftMs: 5_000, tokensPerSecond: 1, clock: 'test' } })
    const client = openaiFor(proxy)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const deltas: string[] = []
    const reading = (async () => {
      for await (const chunk of await client.chat.completions.create({ ...ask, stream: true })) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content)
    })()
    // Real time passes; the test's clock does not: nothing arrives.
    await realSleep(300)
    expect(deltas).toEqual([])
    for (let i = 0; i < 20 && deltas.length < 3; i++) {
      await vi.advanceTimersByTimeAsync(5_000)
      await realSleep(20)
    }
    await reading
    expect(deltas.join('')).toBe('one two three')
  })
})

describe('rateLimit', () => {
  test('past requestsPerMinute: the rate_limit error with retry-after, until the minute has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const proxy = await startProxy({ rateLimit: { requestsPerMinute: 2 } })
    const client = openaiFor(proxy)
    await client.chat.completions.create(ask)
    await client.chat.completions.create(ask)
    const error = await client.chat.completions.create(ask).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(OpenAI.RateLimitError)
    expect(Number((error as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after'))).toBeGreaterThan(0)
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('x-ratelimit-remaining-requests')).toBe('0')
    vi.setSystemTime(Date.now() + 61_000)
    expect((await client.chat.completions.create(ask)).choices[0].finish_reason).toBe('stop')
  })

  test('past tokensPerMinute; each lane has its own window; bad options are TypeErrors', async () => {
    await expect(startProxy({ rateLimit: { requestsPerMinute: 0 } })).rejects.toThrow(/rateLimit.*requestsPerMinute must be a positive integer/)
    const proxy = await startProxy({ rateLimit: { tokensPerMinute: 50 } })
    const long = { ...ask, messages: [{ role: 'user' as const, content: 'x'.repeat(120) }] }
    const lane = proxy.lane('a')
    const ofLane = new OpenAI({ apiKey: 'k', baseURL: `${lane.url}/v1`, maxRetries: 0 })
    await ofLane.chat.completions.create(long)
    await expect(ofLane.chat.completions.create(long)).rejects.toBeInstanceOf(OpenAI.RateLimitError)
    const other = proxy.lane('b')
    await new OpenAI({ apiKey: 'k', baseURL: `${other.url}/v1`, maxRetries: 0 }).chat.completions.create(long)
  })
})
