/**
 * Back-pressure in every body written piece by piece: a client that stops reading for a while
 * fills the socket, the server waits for room (`drainedOrClosed`), and the client still gets
 * every byte once it reads again. Each test checks that some write did find the buffer full, so
 * the waiting path ran. Covered: NDJSON (Ollama), the AWS event stream
 * (Bedrock), a JSON answer written in pieces (embeddings) and a forwarded upstream stream
 * (record mode); SSE has its own figures in stream-resources.test.ts.
 */
import { ServerResponse } from 'node:http'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { FakeProxy, scriptedLLM } from '../../src/index.js'
import { decodeMessages } from '../../src/wire/eventstream.js'
import { tempDir } from './record/mount.js'

/** A reply of `length` characters, streamed one character per event. */
const longReply = (length: number): string => 'abcdefghij'.repeat(length / 10)

const started: FakeProxy[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((proxy) => proxy.close()))
})

/**
 * The servers (by port) one of whose answers found its buffer full (`write` said `false`), so
 * each test knows the server it tests did have to wait, rather than finding room all along.
 */
const waited = new Set<number>()
const write = ServerResponse.prototype.write
beforeEach(() => {
  waited.clear()
  ServerResponse.prototype.write = function (this: ServerResponse, ...args: Parameters<typeof write>) {
    const room = write.apply(this, args)
    if (!room && this.socket) waited.add(this.socket.localPort!)
    return room
  } as typeof write
})
afterEach(() => {
  ServerResponse.prototype.write = write
})

async function startProxy(reply: string, options: ConstructorParameters<typeof FakeProxy>[0] = {}): Promise<FakeProxy> {
  const proxy = await new FakeProxy({ llm: scriptedLLM([reply], { chunking: 'chars' }), ...options }).start()
  started.push(proxy)
  return proxy
}

const portOf = (proxy: FakeProxy): number => Number(new URL(proxy.url).port)

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** `received` is `reply`, checked without printing megabytes when it is not. */
function expectWhole(received: string, reply: string): void {
  expect(received.length).toBe(reply.length)
  expect(received === reply, 'the text arrived whole and in order').toBe(true)
}

/** POSTs `json`, waits `ms` before reading a byte, then reads the whole body. */
async function readSlowly(url: string, json: unknown, ms = 300): Promise<{ status: number; bytes: Uint8Array }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) })
  await pause(ms)
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) }
}

describe('a client that stops reading gets the whole body once it reads again', () => {
  test('NDJSON (Ollama /api/chat): every line, the last one done', { timeout: 30_000 }, async () => {
    const reply = longReply(40_000)
    const proxy = await startProxy(reply)
    const { status, bytes } = await readSlowly(`${proxy.url}/api/chat`, { model: 'llama3', messages: [{ role: 'user', content: 'hi' }] })
    expect(status).toBe(200)
    const lines = new TextDecoder().decode(bytes).trim().split('\n').map((line) => JSON.parse(line) as { message?: { content?: string }; done: boolean })
    expect(waited).toContain(portOf(proxy))
    expectWhole(lines.map((line) => line.message?.content ?? '').join(''), reply)
    expect(lines.at(-1)?.done).toBe(true)
  })

  test('the AWS event stream (Bedrock ConverseStream): every message, whole and in order', { timeout: 30_000 }, async () => {
    const reply = longReply(40_000)
    const proxy = await startProxy(reply)
    const { status, bytes } = await readSlowly(`${proxy.url}/model/m/converse-stream`, { messages: [{ role: 'user', content: [{ text: 'hi' }] }] })
    expect(status).toBe(200)
    expect(waited).toContain(portOf(proxy))
    const events = decodeMessages(bytes).map((message) => ({ type: message.headers[':event-type'], payload: JSON.parse(new TextDecoder().decode(message.payload)) as { delta?: { text?: string } } }))
    expectWhole(events.filter((event) => event.type === 'contentBlockDelta').map((event) => event.payload.delta?.text).join(''), reply)
    expect(events.at(-1)?.type).toBe('metadata')
  })

  test('a JSON answer written in pieces (embeddings, through the openai client)', { timeout: 30_000 }, async () => {
    const proxy = await startProxy('unused')
    const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const input = Array.from({ length: 100 }, (_, i) => `text ${i}`)
    const response = await client.embeddings.create({ model: 'text-embedding-3-large', input, encoding_format: 'float', dimensions: 3072 }).asResponse()
    await pause(300)
    const text = await response.text()
    expect(waited).toContain(portOf(proxy))
    const answer = JSON.parse(text) as { data: Array<{ index: number; embedding: number[] }> }
    expect(answer.data.map((item) => item.index)).toEqual(input.map((_, i) => i))
    expect(answer.data.every((item) => item.embedding.length === 3072)).toBe(true)
  })

  test('a forwarded upstream stream (record mode, through the openai client)', { timeout: 30_000 }, async () => {
    const reply = longReply(40_000)
    const upstream = await startProxy(reply)
    const front = await startProxy('unused', { upstream: { openai: upstream.url }, record: join(await tempDir(), 'turns.jsonl') })
    const client = new OpenAI({ apiKey: 'k', baseURL: `${front.url}/v1`, maxRetries: 0 })
    const stream = await client.chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] })
    let text = ''
    let first = true
    for await (const chunk of stream) {
      if (first) await pause(300)
      first = false
      text += chunk.choices[0]?.delta.content ?? ''
    }
    expectWhole(text, reply)
    expect(waited).toContain(portOf(front))
    expect(front.requests).toHaveLength(1)
  })
})
