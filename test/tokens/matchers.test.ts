/**
 * `toHaveHitPromptCache`, `proxy.usage()` and `toHaveUsedAtMost({ costUsd })` with cache prices
 * (SPEC §20), over requests made through the real Anthropic SDK.
 */
import Anthropic from '@anthropic-ai/sdk'
import { afterEach, describe, expect, test } from 'vitest'
import { configure, scriptedLLM } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { anthropicFor, startProxy } from '../proxy/helpers.js'
import { longText } from './helpers.js'
import '../matchers/setup-expect.js'

let restore: (() => void) | undefined
afterEach(() => {
  restore?.()
  restore = undefined
})

const model = 'claude-sonnet-4-5'
const text = longText(2000)

function send(proxy: FakeProxy, system: Anthropic.TextBlockParam[], question = 'hi'): Promise<Anthropic.Message> {
  return anthropicFor(proxy).messages.create({ model, max_tokens: 10, system, messages: [{ role: 'user', content: question }] })
}
const marked = (value = text): Anthropic.TextBlockParam[] => [{ type: 'text', text: value, cache_control: { type: 'ephemeral' } }]

function failure(assertion: () => void): string {
  try {
    assertion()
  } catch (error) {
    return (error as Error).message.replace(/\u001b\[[0-9;]*m/g, '')
  }
  throw new Error('the assertion passed')
}

describe('toHaveHitPromptCache', () => {
  test('passes when every request from the 2nd read the cache; .not fails then', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b', 'c']) })
    for (const question of ['one', 'two', 'three']) await send(proxy, marked(), question)
    expect(proxy).toHaveHitPromptCache()
    expect(proxy).toHaveHitPromptCache({ from: 2, minReadRatio: 0.99 })
    expect(failure(() => expect(proxy).not.toHaveHitPromptCache())).toMatch(/Expected: not requests from the 2nd on[\s\S]*Every one of 2 requests did\./)
  })

  test('names the reason of each miss: no breakpoint, below the minimum, nothing cached before', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b', 'c', 'd']) })
    await send(proxy, [{ type: 'text', text }])
    await send(proxy, [{ type: 'text', text }])
    await send(proxy, marked('short and marked'))
    const message = failure(() => expect(proxy).toHaveHitPromptCache())
    expect(message).toContain('2nd request read 0 of 2001 input tokens (0%): no cache breakpoint: mark the end of the stable prefix with cache_control (Anthropic) or a cachePoint (Bedrock)')
    expect(message).toContain("3rd request read 0 of 5 input tokens (0%): the cacheable prefix is 4 tokens, below the model's minimum of 1024")
    expect(failure(() => expect(proxy).toHaveHitPromptCache({ from: 1 }))).toContain('1st request read 0 of 2001 input tokens (0%): no cache breakpoint')
    const fresh = await startProxy({ llm: scriptedLLM(['a', 'b']) })
    await send(fresh, marked())
    await send(fresh, marked(longText(2000, 'other')))
    expect(failure(() => expect(fresh).toHaveHitPromptCache())).toMatch(/2nd request read 0 of 2001 input tokens \(0%\): the prompt differs from the cached prefix at system\[0\], character 0:\n {6}cached: "rule 0: answer[^"]*"\n {6}now: {4}"other 0: answer/)
  })

  test('fails when no request from the from-th on went through a cache, and on a lane of its own', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a']) })
    await send(proxy, marked())
    expect(failure(() => expect(proxy).toHaveHitPromptCache())).toContain('Received: 1 request through a simulated prompt cache, so none from the 2nd on')
    const lane = proxy.lane('cached')
    lane.use(scriptedLLM(['a', 'b']))
    await send(lane, marked())
    await send(lane, marked())
    expect(lane).toHaveHitPromptCache()
  })

  test('options of the wrong type, or a received value that is not a FakeProxy, are TypeErrors', async () => {
    const proxy = await startProxy()
    expect(() => expect(proxy).toHaveHitPromptCache({ from: '2' } as never)).toThrow(new TypeError('[agent-doubles] toHaveHitPromptCache: option from must be a positive integer (the 1-based request number), got "2"'))
    expect(() => expect(proxy).toHaveHitPromptCache({ minReadRatio: 2 })).toThrow(/option minReadRatio must be a number from 0 to 1, got 2/)
    expect(() => expect(proxy).toHaveHitPromptCache({ ratio: 1 } as never)).toThrow(/unknown option "ratio"/)
    expect(() => expect(proxy).toHaveHitPromptCache(5 as never)).toThrow(TypeError)
    expect(() => expect({}).toHaveHitPromptCache()).toThrow(/expect\(received\) must be a FakeProxy/)
  })
})

describe('proxy.usage() and the cost of cache reads and writes', () => {
  test('per request and in total: input, cache read, cache write, output, cost at the built-in price', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b']) })
    await send(proxy, marked())
    await send(proxy, marked())
    const { requests, total } = proxy.usage()
    expect(requests).toEqual([
      { model, path: '/v1/messages', inputTokens: 2001, cacheReadTokens: 0, cacheWriteTokens: 2000, outputTokens: 1, costUsd: expect.any(Number) },
      { model, path: '/v1/messages', inputTokens: 2001, cacheReadTokens: 2000, cacheWriteTokens: 0, outputTokens: 1, costUsd: expect.any(Number) },
    ])
    // Sonnet 4.5: input $3, output $15, 5-minute writes $3.75, reads $0.30 per million tokens.
    expect(requests[0]!.costUsd).toBeCloseTo((1 * 3 + 2000 * 3.75 + 1 * 15) / 1e6, 12)
    expect(requests[1]!.costUsd).toBeCloseTo((1 * 3 + 2000 * 0.3 + 1 * 15) / 1e6, 12)
    expect(total).toEqual({ inputTokens: 4002, cacheReadTokens: 2000, cacheWriteTokens: 2000, outputTokens: 2, costUsd: requests[0]!.costUsd! + requests[1]!.costUsd! })
    expect(proxy).toHaveUsedAtMost({ costUsd: total.costUsd! })
    expect(proxy).not.toHaveUsedAtMost({ costUsd: total.costUsd! - 1e-6 })
  })

  test('configure({ prices }) overrides the built-in price, cache prices included; a model without one has no cost', async () => {
    restore = configure({ prices: { [model]: { inputPerMTok: 1, outputPerMTok: 1, cacheReadPerMTok: 0, cacheWritePerMTok: 0 } } })
    const proxy = await startProxy({ llm: scriptedLLM(['a', 'b', 'c']) })
    await send(proxy, marked())
    await send(proxy, marked())
    // Each: 1 uncached input and 1 output token at $1; the cache free.
    expect(proxy.usage().total.costUsd).toBeCloseTo((2 + 2) / 1e6, 12)
    await anthropicFor(proxy).messages.create({ model: 'my-model', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
    expect(proxy.usage().total.costUsd).toBeUndefined()
    expect(() => configure({ prices: { x: { inputPerMTok: 1, outputPerMTok: 1, cacheReadPerMTok: -1 } } })).toThrow(/prices\["x"\]\.cacheReadPerMTok must be a non-negative number/)
  })
})
