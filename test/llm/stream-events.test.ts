import { describe, expect, it, vi } from 'vitest'
import { chunkText, responseEvents, streamResponse } from '../../src/llm/stream-events.js'
import { estimateInputTokens, estimateTokens, usageFor } from '../../src/llm/usage.js'
import type { ModelRequest } from '../../src/llm/types.js'

describe('chunkText', () => {
  it.each([
    ['words', '  lead and\ttabs\nnew line ', ['  lead ', 'and\t', 'tabs\n', 'new ', 'line ']],
    ['chars', 'héllo 👋', ['h', 'é', 'l', 'l', 'o', ' ', '👋']],
    [3, 'abcdefg', ['abc', 'def', 'g']],
  ] as const)('splits by %s into chunks that join back exactly', (chunking, text, expected) => {
    const chunks = chunkText(text, chunking)
    expect(chunks).toEqual(expected)
    expect(chunks.join('')).toBe(text)
  })

  it('gives no chunks for empty text', () => {
    expect(chunkText('', 'words')).toEqual([])
    expect(chunkText('   ', 'words')).toEqual(['   '])
  })
})

describe('responseEvents', () => {
  it('keeps content order and ends with exactly one finish carrying the whole response', () => {
    const response = {
      content: [
        { type: 'reasoning' as const, text: 'think' },
        { type: 'text' as const, text: 'a b' },
        { type: 'tool-call' as const, id: 'c1', name: 't', args: { x: 1 } },
      ],
      finishReason: 'tool-calls' as const,
      usage: { inputTokens: 1, outputTokens: 1 },
    }
    expect(responseEvents(response, 'words')).toEqual([
      { type: 'reasoning-delta', text: 'think' },
      { type: 'text-delta', text: 'a ' },
      { type: 'text-delta', text: 'b' },
      { type: 'tool-call', id: 'c1', name: 't', args: { x: 1 } },
      { type: 'finish', response },
    ])
  })
})

describe('usage', () => {
  const req: ModelRequest = {
    model: 'm',
    system: 'sys!',
    messages: [{ role: 'tool', content: [{ type: 'tool-result', id: '1', result: { ok: true } }] }],
    stream: false,
  }

  it('estimates one token per four characters, counting the system prompt and JSON of results', () => {
    expect(estimateTokens('')).toBe(0)
    expect(estimateTokens('12345')).toBe(2)
    expect(estimateInputTokens(req)).toBe(estimateTokens('sys!' + '{"ok":true}'))
  })

  it('prefers counts the reply gave, then fixed counts, then the estimate', () => {
    const content = [{ type: 'text' as const, text: '12345678' }]
    expect(usageFor('estimate', req, content, undefined)).toEqual({ inputTokens: 4, outputTokens: 2 })
    expect(usageFor({ inputTokens: 10, outputTokens: 20 }, req, content, { outputTokens: 5 })).toEqual({ inputTokens: 10, outputTokens: 5 })
  })
})

describe('latency', () => {
  it('waits on the global timer, so fake timers control it like MockAgent delayMs', async () => {
    vi.useFakeTimers()
    try {
      const response = { content: [{ type: 'text' as const, text: 'a b' }], finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } }
      const stream = streamResponse(response, 'words', { firstChunkMs: 100, chunkMs: 50 })[Symbol.asyncIterator]()
      const first = stream.next()
      let settled = false
      void first.then(() => (settled = true))
      await vi.advanceTimersByTimeAsync(99)
      expect(settled).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(await first).toEqual({ done: false, value: { type: 'text-delta', text: 'a ' } })
      const second = stream.next()
      await vi.advanceTimersByTimeAsync(50)
      expect(await second).toEqual({ done: false, value: { type: 'text-delta', text: 'b' } })
    } finally {
      vi.useRealTimers()
    }
  })
})
