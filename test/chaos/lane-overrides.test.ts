/**
 * SPEC §19 per-lane timing and chaos: `proxy.lane(name, { latency, rateLimit, chaos })` override
 * the proxy's for that lane only (`false` turns the proxy's off), other lanes keep the proxy's,
 * and bad values fail at `lane()` naming the option.
 */
import OpenAI from 'openai'
import { describe, expect, test } from 'vitest'
import { scriptedLLM } from '../../src/index.js'
import type { ProxyLane } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] }
const clientOf = (lane: ProxyLane): OpenAI => new OpenAI({ apiKey: 'k', baseURL: `${lane.url}/v1`, maxRetries: 0 })

/** The time from the response's headers to the first content delta on `lane`. */
async function firstDeltaMs(lane: ProxyLane): Promise<number> {
  const { data: stream } = await clientOf(lane).chat.completions.create({ ...ask, stream: true }).withResponse()
  const started = performance.now()
  let ms = Number.NaN
  for await (const chunk of stream) if (chunk.choices[0]?.delta.content && Number.isNaN(ms)) ms = performance.now() - started
  return ms
}

describe('proxy.lane(name, { latency, rateLimit, chaos })', () => {
  test("latency: a lane's own ttftMs (± 20 %) replaces the proxy's; false unpaces it; a plain lane keeps the proxy's", async () => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'one two'), latency: { ttftMs: 600 }, tokens: 'estimate' })
    const own = proxy.lane('own', { latency: { ttftMs: 200 } })
    const off = proxy.lane('off', { latency: false })
    const plain = proxy.lane('plain')
    await firstDeltaMs(off) // warms the connection and the proxy up
    const ownMs = await firstDeltaMs(own)
    expect(ownMs).toBeGreaterThanOrEqual(200 * 0.8)
    expect(ownMs).toBeLessThanOrEqual(200 * 1.2)
    expect(await firstDeltaMs(off)).toBeLessThan(200 * 0.8)
    const plainMs = await firstDeltaMs(plain)
    expect(plainMs).toBeGreaterThanOrEqual(600 * 0.8)
    expect(plainMs).toBeLessThanOrEqual(600 * 1.2)
  })

  test("rateLimit: a lane's own limit applies to it alone; false lifts the proxy's", async () => {
    const proxy = await startProxy({ rateLimit: { requestsPerMinute: 1 } })
    const strict = proxy.lane('strict', { rateLimit: { requestsPerMinute: 2 } })
    const free = proxy.lane('free', { rateLimit: false })
    const plain = proxy.lane('plain')
    await clientOf(strict).chat.completions.create(ask)
    await clientOf(strict).chat.completions.create(ask)
    await expect(clientOf(strict).chat.completions.create(ask)).rejects.toBeInstanceOf(OpenAI.RateLimitError)
    for (let i = 0; i < 3; i++) await clientOf(free).chat.completions.create(ask)
    await clientOf(plain).chat.completions.create(ask)
    await expect(clientOf(plain).chat.completions.create(ask)).rejects.toBeInstanceOf(OpenAI.RateLimitError)
  })

  test("chaos: a lane's own replaces the proxy's (records carry its seed); false turns it off for the lane", async () => {
    const proxy = await startProxy({ chaos: { seed: 1, rate: 1, kinds: ['rate_limit'] } })
    const own = proxy.lane('own', { chaos: { seed: 9, rate: 1, kinds: ['empty'] } })
    const calm = proxy.lane('calm', { chaos: false })
    const plain = proxy.lane('plain')
    const answer = await clientOf(own).chat.completions.create(ask)
    expect(answer.choices[0].message.content ?? '').toBe('')
    expect(own.requests[0].fault).toMatchObject({ kind: 'empty', source: 'chaos', seed: 9, request: 1 })
    expect((await clientOf(calm).chat.completions.create(ask)).choices[0].message.content).not.toBe('')
    expect(calm.requests[0].fault).toBeUndefined()
    await expect(clientOf(plain).chat.completions.create(ask)).rejects.toBeInstanceOf(OpenAI.RateLimitError)
    expect(plain.requests[0].fault).toMatchObject({ kind: 'rate_limit', seed: 1 })
  })

  test('bad values fail at lane() with a TypeError naming the option', async () => {
    const proxy = await startProxy()
    expect(() => proxy.lane('a', { latency: { ttftMs: -1 } })).toThrow(/FakeProxy lane\(\) option latency: option ttftMs must be a non-negative number|lane\(\).*ttftMs must be a non-negative number/)
    expect(() => proxy.lane('a', { rateLimit: { requestsPerMinute: 0 } })).toThrow(/lane\(\).*requestsPerMinute must be a positive integer/)
    expect(() => proxy.lane('a', { chaos: { rate: 2 } })).toThrow(/lane\(\) option chaos.*rate must be a number from 0 to 1/)
    expect(() => proxy.lane('a', { chaos: { rate: 0.5, kinds: ['nope' as never] } })).toThrow(/unknown kind "nope"; valid kinds: /)
    expect(() => proxy.lane('a', { latency: 'slow' as never })).toThrow(/lane\(\): option latency must be \{ ttftMs\?, tokensPerSecond\?, jitter\?, seed\?, clock\? \} or false/)
    expect(() => proxy.lane('a', { latency: { ttftMs: -1 } })).toThrow(TypeError)
  })
})
