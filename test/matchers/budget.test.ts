import { afterEach, describe, expect, test } from 'vitest'
import { configure } from '../../src/config.js'
import { Envelope, Metadata } from '../../src/agent/envelope.js'
import { KIND } from '../../src/kinds.js'
import type { ModelResponse } from '../../src/llm/types.js'
import { fakeLLM, fakeProxy, fakeRequest, userRequest } from './fakes.js'
import { failureOf, plain } from './setup-expect.js'

const used = (inputTokens: number, outputTokens: number): ModelResponse => ({ content: [{ type: 'text', text: 'ok' }], finishReason: 'stop', usage: { inputTokens, outputTokens } })

// Two gpt-5 calls (100+50, 300+150) and one claude call (1000+500); one gpt-5 call failed.
const proxy = fakeProxy([
  fakeRequest(userRequest('a', { model: 'gpt-5' }), { response: used(100, 50) }),
  fakeRequest(userRequest('b', { model: 'gpt-5' }), { response: used(300, 150) }),
  fakeRequest(userRequest('c', { model: 'claude' }), { response: used(1000, 500) }),
  fakeRequest(userRequest('d', { model: 'gpt-5' })),
])

let restore: (() => void) | undefined
afterEach(() => {
  restore?.()
  restore = undefined
})

describe('toHaveUsedAtMost', () => {
  test('requests and tokens of a model double, from its replies’ usage', () => {
    expect(proxy).toHaveUsedAtMost({ requests: 4, inputTokens: 1400, outputTokens: 700, totalTokens: 2100 })
    expect(proxy).not.toHaveUsedAtMost({ requests: 3 })
    expect(proxy).not.toHaveUsedAtMost({ totalTokens: 2099 })
    const llm = fakeLLM([userRequest('a'), userRequest('b')], [used(10, 5), undefined])
    expect(llm).toHaveUsedAtMost({ requests: 2, totalTokens: 15 })
    expect(llm).not.toHaveUsedAtMost({ inputTokens: 9 })
  })

  test('cost from configure({ prices }), per model', () => {
    restore = configure({ prices: { 'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 }, claude: { inputPerMTok: 3, outputPerMTok: 15 } } })
    // gpt-5: 400 in, 200 out → 0.0005 + 0.002; claude: 1000 in, 500 out → 0.003 + 0.0075.
    expect(proxy).toHaveUsedAtMost({ costUsd: 0.013 })
    expect(proxy).not.toHaveUsedAtMost({ costUsd: 0.0129 })
  })

  test('the failure shows the overrun and the usage per model', () => {
    restore = configure({ prices: { 'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 }, claude: { inputPerMTok: 3, outputPerMTok: 15 } } })
    const message = plain(failureOf(() => expect(proxy).toHaveUsedAtMost({ requests: 3, totalTokens: 2000, costUsd: 0.01 })))
    expect(message).toContain('expect(received).toHaveUsedAtMost(limits)')
    expect(message).toContain('Expected: usage within {"requests": 3, "totalTokens": 2000, "costUsd": 0.01}')
    expect(message).toContain(
      [
        'Over budget:',
        '  requests: 4 (limit 3, over by 1)',
        '  totalTokens: 2100 (limit 2000, over by 100)',
        '  costUsd: $0.013 (limit $0.01, over by $0.003)',
      ].join('\n'),
    )
    expect(message).toContain(
      [
        'Usage per model:',
        '  gpt-5: 3 requests, 400 input + 200 output = 600 tokens, $0.0025',
        '  claude: 1 request, 1000 input + 500 output = 1500 tokens, $0.0105',
      ].join('\n'),
    )
    expect(message).toContain('Total: 4 requests, 1400 input + 700 output = 2100 tokens, $0.013')
    const not = plain(failureOf(() => expect(proxy).not.toHaveUsedAtMost({ requests: 10 })))
    expect(not).toContain('Expected: usage over at least one of {"requests": 10}')
    expect(not).toContain('Within every limit.')
  })

  test('a cost bound with no price for a model used fails naming the model', () => {
    restore = configure({ prices: { 'gpt-5': { inputPerMTok: 1, outputPerMTok: 1 } } })
    expect(() => expect(proxy).toHaveUsedAtMost({ costUsd: 1 })).toThrow(
      '[agent-doubles] toHaveUsedAtMost: no price for model "claude", so costUsd cannot be checked; set one with configure({ prices: { "claude": { inputPerMTok, outputPerMTok } } })',
    )
    // .not must not turn the missing price into a pass.
    expect(() => expect(proxy).not.toHaveUsedAtMost({ costUsd: 1 })).toThrow(/no price for model "claude"/)
    // Without a cost bound, no price is needed.
    expect(proxy).toHaveUsedAtMost({ requests: 4 })
  })

  test('a MockAgent: its calls, its envelopes’ totals (nested included) and their cost', () => {
    const child = new Envelope({ metadata: new Metadata({ inputTokens: 5, outputTokens: 5, costUsd: 0.5, model: 'small' }) })
    const parent = Envelope.rollUp(new Envelope({ metadata: { inputTokens: 10, outputTokens: 20, costUsd: 1, model: 'big' } }), [child])
    const agent = { [KIND]: 'MockAgent', name: 'orchestrator', calls: [{ task: 'a', output: parent }, { task: 'b', output: child }, { task: 'c' }] }
    expect(agent).toHaveUsedAtMost({ requests: 3, inputTokens: 20, outputTokens: 30, costUsd: 2 })
    expect(agent).not.toHaveUsedAtMost({ costUsd: 1.99 })
    const message = plain(failureOf(() => expect(agent).toHaveUsedAtMost({ requests: 2 })))
    expect(message).toContain('  big: 1 request, 15 input + 25 output = 40 tokens, $1.5')
    expect(message).toContain('  small: 1 request, 5 input + 5 output = 10 tokens, $0.5')
    expect(message).toContain('  (no envelope): 1 request, 0 input + 0 output = 0 tokens, $0')
  })

  test('bad limits are clear errors', () => {
    expect(() => expect(proxy).toHaveUsedAtMost({ tokens: 5 } as object)).toThrow(/unknown option "tokens"; expected one of requests, inputTokens/)
    expect(() => expect(proxy).toHaveUsedAtMost({ requests: '3' } as unknown as object)).toThrow(/option requests must be a non-negative number, got "3"/)
    expect(() => expect(proxy).toHaveUsedAtMost({})).toThrow(/limits must be \{ requests\?, .* \} with at least one bound, got \{\}/)
    expect(() => expect('x').toHaveUsedAtMost({ requests: 1 })).toThrow(/must be a FakeProxy, a ScriptedLLM or a MockAgent/)
  })
})

describe('configure', () => {
  test('merges prices, replaces normalize, and gives a function that puts the settings back', async () => {
    const { currentConfig } = await import('../../src/config.js')
    const undoFirst = configure({ prices: { a: { inputPerMTok: 1, outputPerMTok: 2 } } })
    const undoSecond = configure({ prices: { b: { inputPerMTok: 0, outputPerMTok: 0 } }, normalize: (text) => text.toUpperCase() })
    expect(Object.keys(currentConfig().prices)).toEqual(['a', 'b'])
    expect(currentConfig().normalize?.('x')).toBe('X')
    undoSecond()
    expect(Object.keys(currentConfig().prices)).toEqual(['a'])
    expect(currentConfig().normalize).toBeUndefined()
    undoFirst()
    expect(currentConfig().prices).toEqual({})
  })

  test('lives on the shared registry slot, which resets leave alone', async () => {
    const { resetAll } = await import('../../src/registry.js')
    restore = configure({ prices: { a: { inputPerMTok: 1, outputPerMTok: 1 } } })
    resetAll()
    const slot = (globalThis as unknown as Record<symbol, { config?: { prices: object } }>)[Symbol.for('agent-doubles')]
    expect(Object.keys(slot.config!.prices)).toEqual(['a'])
  })

  test('prices that are not numbers, and other bad settings, are TypeErrors', () => {
    expect(() => configure({ prices: { 'gpt-5': { inputPerMTok: '1.25', outputPerMTok: 10 } } } as never)).toThrow(
      new TypeError('[agent-doubles] configure: prices["gpt-5"].inputPerMTok must be a non-negative number (US dollars per million tokens), got "1.25"'),
    )
    expect(() => configure({ prices: { x: { inputPerMTok: 1, outputPerMTok: Number.NaN } } })).toThrow(/prices\["x"\]\.outputPerMTok must be a non-negative number/)
    expect(() => configure({ prices: { x: 3 } } as never)).toThrow(/prices\["x"\] must be \{ inputPerMTok, outputPerMTok, cacheReadPerMTok\?/)
    expect(() => configure({ prices: { x: { inputPerMTok: 1, outputPerMTok: 1, cached: 1 } } } as never)).toThrow(/unknown key "cached"/)
    expect(() => configure({ normalize: 'dates' } as never)).toThrow(/option normalize must be a function/)
    expect(() => configure({ price: {} } as never)).toThrow(/unknown option "price"/)
    expect(() => configure(undefined as never)).toThrow(TypeError)
  })
})
