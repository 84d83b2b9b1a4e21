import { describe, expect, it, vi } from 'vitest'
import { chunkText, eventsAtOnce, ImmediateStream, responseEvents, streamResponse } from '../../src/llm/stream-events.js'
import type { StreamEvent } from '../../src/llm/types.js'
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

  it("splits words at exactly the white space of a regular expression's \\s, Unicode's included", () => {
    const spaces = [' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff']
    const letters = ['a', 'é', '😀', '\u200b', '\u0085', 'z']
    let seed = 7
    const pick = <T>(list: T[]): T => list[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % list.length]!
    for (let n = 0; n < 300; n++) {
      const text = Array.from({ length: n % 23 }, () => (seed % 3 === 0 ? pick(spaces) : pick(letters))).join('')
      const byRegExp = [...text.matchAll(/\s*\S+\s*/gu)].map(([word]) => word)
      expect(chunkText(text, 'words')).toEqual(text === '' ? [] : byRegExp.length > 0 ? byRegExp : [text])
    }
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

describe('ImmediateStream', () => {
  const events: StreamEvent[] = [
    { type: 'text-delta', text: 'a' },
    { type: 'finish', response: { content: [{ type: 'text', text: 'a' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } } },
  ]

  it('starts on the first read, reads as an async iterator, and runs done once at the end', async () => {
    const done = vi.fn()
    const start = vi.fn(async () => events)
    const stream = new ImmediateStream(start, done, () => undefined)
    expect(start).not.toHaveBeenCalled()
    const read: StreamEvent[] = []
    for await (const event of stream) read.push(event)
    expect(read).toEqual(events)
    expect(start).toHaveBeenCalledTimes(1)
    expect(done).toHaveBeenCalledTimes(1)
  })

  it('hands every event over at once through eventsAtOnce; stopping early runs done', async () => {
    const done = vi.fn()
    const stream = new ImmediateStream(async () => events, done, () => undefined)
    const now = await stream[eventsAtOnce]()
    expect(now.next()).toEqual({ done: false, value: events[0] })
    expect(done).not.toHaveBeenCalled()
    now.return?.()
    expect(done).toHaveBeenCalledTimes(1)
    expect(now.next()).toEqual({ done: true, value: undefined })
    expect(done).toHaveBeenCalledTimes(1)
  })

  it('runs no done when start fails (start cleans up itself) or when stopped before starting', async () => {
    const done = vi.fn()
    const failing = new ImmediateStream(async () => Promise.reject(new Error('refused')), done, () => undefined)
    await expect(failing.next()).rejects.toThrow('refused')
    const unread = new ImmediateStream(async () => events, done, () => undefined)
    await unread.return()
    expect(done).not.toHaveBeenCalled()
  })

  it("fails with the signal's reason once it is aborted, as a stream with delays does", async () => {
    const controller = new AbortController()
    const stream = new ImmediateStream(async () => events, () => {}, () => controller.signal)
    await expect(stream.next()).resolves.toEqual({ done: false, value: events[0] })
    controller.abort(new Error('client left'))
    await expect(stream.next()).rejects.toThrow('client left')
  })
})
