import { describe, expect, test } from 'vitest'
import { anthropicFor, listLLM, openaiFor, raw, startProxy, text } from './helpers.js'
import { FakeProxy } from '../../src/server/fake-proxy.js'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'

const chat = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] }

describe('proxy.fail()', () => {
  test('a disconnect before any answer does not use up a scripted turn: the retry gets it', async () => {
    const proxy = await startProxy({ llm: new ScriptedLLM(['the answer']) })
    proxy.fail({ kind: 'disconnect', afterChunks: 0, times: 2 })
    const completion = await openaiFor(proxy, { maxRetries: 2 }).chat.completions.create(chat)
    expect(completion.choices[0].message.content).toBe('the answer')
    const streamed = new ScriptedLLM(['streamed answer'])
    proxy.use(streamed)
    proxy.fail({ kind: 'disconnect', afterChunks: 0 })
    const message = await anthropicFor(proxy, { maxRetries: 1 }).messages.stream({ model: 'c', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }).finalMessage()
    expect(message.content).toEqual([expect.objectContaining({ text: 'streamed answer' })])
    expect(streamed.callCount).toBe(1)
  })

  test('disconnect cuts a stream after afterChunks events', async () => {
    const proxy = await startProxy({ llm: listLLM(text('one two three four five six')) })
    proxy.fail({ kind: 'disconnect', afterChunks: 3 })
    const stream = await openaiFor(proxy).chat.completions.create({ ...chat, stream: true })
    const seen: string[] = []
    const error = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '')
    })().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(seen).toHaveLength(3)
    expect(proxy.requests).toHaveLength(1)
  })

  test('a stream cut short by a fault gives back its ScriptedLLM slot: the next call is answered', async () => {
    const proxy = await startProxy({ llm: new ScriptedLLM(['one two three four five six', 'next answer'], { slots: 1 }) })
    proxy.fail({ kind: 'malformed', afterChunks: 2 })
    // The SDK logs the SSE data it cannot parse ("Could not parse message into JSON") before
    // throwing: expected here, so the client's logger is off and a passing run prints nothing.
    const stream = await openaiFor(proxy, { logLevel: 'off' }).chat.completions.create({ ...chat, stream: true })
    const error = await (async () => {
      for await (const _ of stream) void _
    })().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    // One slot: had the cut stream kept it, this call would wait for ever.
    const completion = await openaiFor(proxy).chat.completions.create(chat)
    expect(completion.choices[0].message.content).toBe('next answer')
  })

  test('disconnect cuts a JSON answer mid-body: the client fails and does not retry', async () => {
    const proxy = await startProxy()
    proxy.fail({ kind: 'disconnect' })
    const error = await openaiFor(proxy, { maxRetries: 2 }).chat.completions.create(chat).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(proxy.requests).toHaveLength(1)
  })

  test('disconnect with afterChunks: 0 is a connection error; with times: 2 the client retries through', async () => {
    const proxy = await startProxy()
    proxy.fail({ kind: 'disconnect', afterChunks: 0, times: 2 })
    const completion = await openaiFor(proxy, { maxRetries: 2 }).chat.completions.create({ ...chat, stream: false })
    expect(completion.choices[0].message.content).toBeTruthy()
    expect(proxy.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2'])
  })

  test('malformed gives a JSON body the client cannot parse', async () => {
    const proxy = await startProxy()
    proxy.fail({ kind: 'malformed' })
    const error = await openaiFor(proxy).chat.completions.create(chat).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    const answer = await raw(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chat) })
    expect(answer.status).toBe(200)
    expect(typeof answer.body).toBe('object')
  })

  test('malformed breaks the SSE data of a stream (Anthropic SDK)', async () => {
    const proxy = await startProxy()
    proxy.fail({ kind: 'malformed', afterChunks: 2 })
    // As above: the SDK would log the unparsable SSE data it is about to throw for.
    const error = await anthropicFor(proxy, { logLevel: 'off' })
      .messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    // The fault is used up: the next stream is whole.
    const message = await anthropicFor(proxy).messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).finalMessage()
    expect(message.stop_reason).toBe('end_turn')
  })

  test('stall keeps a stream open without sending; when the client leaves, the brain stream is closed', async () => {
    let brainClosed = false
    const llm = listLLM(text('a b c d e f'))
    const stream = llm.stream.bind(llm)
    llm.stream = async function* (req) {
      try {
        yield* stream(req)
      } finally {
        brainClosed = true
      }
    }
    const proxy = await startProxy({ llm })
    proxy.fail({ kind: 'stall', afterChunks: 1 })
    const controller = new AbortController()
    const chunks = await openaiFor(proxy).chat.completions.create({ ...chat, stream: true }, { signal: controller.signal })
    const seen: unknown[] = []
    for await (const chunk of chunks) {
      seen.push(chunk)
      controller.abort()
    }
    expect(seen).toHaveLength(1)
    await waitFor(() => brainClosed)
    expect(brainClosed).toBe(true)
    // The proxy is still healthy afterwards.
    expect((await openaiFor(proxy).chat.completions.create(chat)).choices[0].message.content).toBeTruthy()
  })

  test('stall on a JSON answer holds the body until close() ends it', async () => {
    const proxy = await startProxy()
    proxy.fail({ kind: 'stall' })
    const pending = openaiFor(proxy).chat.completions.create(chat).catch((e: unknown) => e)
    await waitFor(() => proxy.requests.length === 1)
    await proxy.close()
    expect(await pending).toBeInstanceOf(Error)
  })

  test('bad fail() options throw TypeErrors naming the option', () => {
    const proxy = new FakeProxy()
    expect(() => proxy.fail({ kind: 'explode' as 'stall' })).toThrow(/kind/)
    expect(() => proxy.fail({ kind: 'stall', times: 0 })).toThrow(TypeError)
    expect(() => proxy.fail({ kind: 'stall', afterChunks: -1 })).toThrow(/afterChunks/)
    expect(() => proxy.fail(undefined as never)).toThrow(TypeError)
  })
})

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}
