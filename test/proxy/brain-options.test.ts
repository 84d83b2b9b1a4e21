/**
 * What a brain's `stream(request, options)` is given by the proxy: `onAccepted` sends the
 * headers, and `signal` (made when first read) aborts when the client leaves — also when a
 * brain passes the options on to another by spreading them, as a wrapping brain does.
 */
import { describe, expect, test, vi } from 'vitest'
import { scriptedLLM } from '../../src/index.js'
import type { LLM, StreamOptions } from '../../src/llm/types.js'
import { openaiFor, startProxy } from './helpers.js'

const chat = { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'hello' }] }

describe('the options a brain streams with', () => {
  test('pass on the client leaving when a wrapping brain spreads them into the brain it wraps', async () => {
    // The inner brain accepts the call (headers go out), then waits a minute for its first chunk.
    const inner = scriptedLLM({ hello: 'hi there' }, { latency: { firstChunkMs: 60_000 } })
    const given: StreamOptions[] = []
    const ended: string[] = []
    const wrapper: LLM = {
      generate: (request) => inner.generate(request),
      async *stream(request, options = {}) {
        given.push(options)
        try {
          yield* inner.stream(request, { ...options })
        } catch (error) {
          ended.push((error as Error).name)
          throw error
        }
      },
    }
    const proxy = await startProxy({ llm: wrapper })
    const controller = new AbortController()
    // Resolves with the headers, which onAccepted (spread along with the signal) sent.
    await openaiFor(proxy).chat.completions.create({ ...chat, stream: true }, { signal: controller.signal })
    controller.abort()
    // The inner brain's wait ends at once: the spread carried a live signal, not a copy of none.
    await vi.waitFor(() => expect(ended).toEqual(['AbortError']), { timeout: 5_000 })
    expect(Object.keys(given[0]!).sort()).toEqual(['onAccepted', 'signal'])
  })
})
