/**
 * `llm.stream(req, { signal, onAccepted })`: an abort ends a latency wait at once and fails the
 * stream with the signal's reason; `onAccepted` comes after the script answered and before the
 * wait for the first event. Ordering is asserted, never durations.
 */
import { generateText, streamText } from 'ai'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { scriptedLLM, type ModelRequest, type StreamEvent } from '../../src/index.js'

const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], stream: true }
// Fake setTimeout/clearTimeout count exactly the timers the stream arms; the process's own list
// also holds the runner's, which come and go on their own schedule.
const timers = (): number => vi.getTimerCount()

describe('ScriptedLLM stream options', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  test('onAccepted comes before the first-chunk wait; an abort during it clears the timer and rejects with the reason', async () => {
    const llm = scriptedLLM({ hello: 'hi there' }, { latency: { firstChunkMs: 60_000 } })
    const controller = new AbortController()
    const before = timers()
    const order: string[] = []
    const iterator = llm.stream(request, { signal: controller.signal, onAccepted: () => order.push('accepted') })[Symbol.asyncIterator]()
    const first = iterator.next().then(
      () => order.push('event'),
      (error: unknown) => order.push(`rejected ${(error as Error).name}`),
    )
    // The script answered and the wait began: accepted, no event yet, one timer armed.
    await expect.poll(() => order).toEqual(['accepted'])
    expect(timers()).toBe(before + 1)
    controller.abort()
    await first
    expect(order).toEqual(['accepted', 'rejected AbortError'])
    expect(timers()).toBe(before)
    // The call was answered and recorded before the client left.
    expect(llm.responses[0]?.content).toEqual([{ type: 'text', text: 'hi there' }])
  })

  test('a call that fails is never accepted', async () => {
    const llm = scriptedLLM([new Error('boom')])
    let accepted = false
    const events: StreamEvent[] = []
    const failure = await (async () => {
      for await (const event of llm.stream(request, { onAccepted: () => (accepted = true) })) events.push(event)
    })().catch((e: unknown) => e)
    expect((failure as Error).message).toBe('boom')
    expect(accepted).toBe(false)
    expect(events).toEqual([])
  })

  test('an already aborted signal ends the stream before any event', async () => {
    const llm = scriptedLLM({ hello: 'hi there' })
    const reason = new Error('left')
    const failure = await (async () => {
      for await (const _ of llm.stream(request, { signal: AbortSignal.abort(reason) })) void _
    })().catch((e: unknown) => e)
    expect(failure).toBe(reason)
  })

  test('languageModel() hands the AI SDK abortSignal to the stream: streamText stops during a chunk wait', async () => {
    const llm = scriptedLLM({ hello: 'one two three' }, { latency: { chunkMs: 60_000 } })
    const controller = new AbortController()
    const before = timers()
    const chunks: string[] = []
    const result = streamText({ model: llm.languageModel(), prompt: 'hello', abortSignal: controller.signal, onError: () => {} })
    const reading = (async () => {
      for await (const text of result.textStream) {
        chunks.push(text)
        controller.abort()
      }
    })().catch((e: unknown) => e)
    await reading
    expect(chunks).toEqual(['one '])
    expect(timers()).toBe(before)
  })

  test('languageModel() without delays takes the events at once, yet stops at an abort between them and frees its slot', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`)
    const llm = scriptedLLM([words.join(' '), 'again'], { slots: 1 })
    const controller = new AbortController()
    const chunks: string[] = []
    const result = streamText({ model: llm.languageModel(), prompt: 'hello', abortSignal: controller.signal, onError: () => {} })
    await (async () => {
      for await (const text of result.textStream) {
        chunks.push(text)
        controller.abort()
      }
    })().catch((e: unknown) => e)
    // ai 7 reads a few parts ahead of its reader (ai 6 none): the stream stops within them.
    expect(chunks.length).toBeGreaterThan(0)
    expect(chunks.length).toBeLessThan(20)
    expect(chunks[0]).toBe('w0 ')
    // With one slot, the next call would wait forever had the aborted stream kept it.
    const next = await generateText({ model: llm.languageModel(), prompt: 'hi' })
    expect(next.text).toBe('again')
  })
})
