/**
 * Back-pressure in every body written piece by piece: a client that stops reading for a while
 * fills the socket, the server waits for room (`drainedOrClosed`), and the client still gets
 * every byte once it reads again. The client reads nothing until the server under test has
 * found its buffer full (so the waiting path runs however slow the machine); each body is about
 * 10 MB, more than the socket buffers hold. Covered: NDJSON (Ollama), the AWS event stream
 * (Bedrock), a JSON answer written in pieces (embeddings) and a forwarded upstream stream
 * (record mode); SSE has its own figures in stream-resources.test.ts.
 */
import { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { FakeProxy, scriptedLLM } from '../../src/index.js'
import { decodeMessages } from '../../src/wire/bedrock/eventstream.js'
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

/**
 * Waits, reading nothing, until the server on `port` has found its buffer full: the client reads
 * again only once the server has had to wait, however slow the machine is.
 */
async function untilServerWaits(port: number, limitMs = 20_000): Promise<void> {
  for (const end = Date.now() + limitMs; !waited.has(port); await delay(5)) {
    if (Date.now() > end) throw new Error(`the server on port ${port} never found its buffer full in ${limitMs} ms: the body fits in the socket buffers`)
  }
}

/** `received` is `reply`, checked without printing megabytes when it is not. */
function expectWhole(received: string, reply: string): void {
  expect(received.length).toBe(reply.length)
  expect(received === reply, 'the text arrived whole and in order').toBe(true)
}

/** POSTs `json` to `proxy`, reads nothing until the server has had to wait, then reads the whole body. */
async function readSlowly(proxy: FakeProxy, path: string, json: unknown): Promise<{ status: number; bytes: Uint8Array }> {
  const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) })
  await untilServerWaits(portOf(proxy))
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) }
}

describe('a client that stops reading gets the whole body once it reads again', () => {
  test('NDJSON (Ollama /api/chat): every line, the last one done', { timeout: 30_000 }, async () => {
    const reply = longReply(80_000)
    const proxy = await startProxy(reply)
    const { status, bytes } = await readSlowly(proxy, '/api/chat', { model: 'llama3', messages: [{ role: 'user', content: 'hi' }] })
    expect(status).toBe(200)
    const lines = new TextDecoder().decode(bytes).trim().split('\n').map((line) => JSON.parse(line) as { message?: { content?: string }; done: boolean })
    expectWhole(lines.map((line) => line.message?.content ?? '').join(''), reply)
    expect(lines.at(-1)?.done).toBe(true)
  })

  test('the AWS event stream (Bedrock ConverseStream): every message, whole and in order', { timeout: 30_000 }, async () => {
    const reply = longReply(60_000)
    const proxy = await startProxy(reply)
    const { status, bytes } = await readSlowly(proxy, '/model/m/converse-stream', { messages: [{ role: 'user', content: [{ text: 'hi' }] }] })
    expect(status).toBe(200)
    const events = decodeMessages(bytes).map((message) => ({ type: message.headers[':event-type'], payload: JSON.parse(new TextDecoder().decode(message.payload)) as { delta?: { text?: string } } }))
    expectWhole(events.filter((event) => event.type === 'contentBlockDelta').map((event) => event.payload.delta?.text).join(''), reply)
    expect(events.at(-1)?.type).toBe('metadata')
  })

  test('a JSON answer written in pieces (embeddings, through the openai client)', { timeout: 30_000 }, async () => {
    const proxy = await startProxy('unused')
    const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const input = Array.from({ length: 200 }, (_, i) => `text ${i}`)
    const response = await client.embeddings.create({ model: 'text-embedding-3-large', input, encoding_format: 'float', dimensions: 3072 }).asResponse()
    await untilServerWaits(portOf(proxy))
    const text = await response.text()
    const answer = JSON.parse(text) as { data: Array<{ index: number; embedding: number[] }> }
    expect(answer.data.map((item) => item.index)).toEqual(input.map((_, i) => i))
    expect(answer.data.every((item) => item.embedding.length === 3072)).toBe(true)
  })

  test('a forwarded upstream stream (record mode, through the openai client)', { timeout: 30_000 }, async () => {
    const reply = longReply(60_000)
    const upstream = await startProxy(reply)
    const front = await startProxy('unused', { upstream: { openai: upstream.url }, record: join(await tempDir(), 'turns.jsonl') })
    const client = new OpenAI({ apiKey: 'k', baseURL: `${front.url}/v1`, maxRetries: 0 })
    const stream = await client.chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] })
    let text = ''
    let first = true
    for await (const chunk of stream) {
      if (first) await untilServerWaits(portOf(front))
      first = false
      text += chunk.choices[0]?.delta.content ?? ''
    }
    expectWhole(text, reply)
    expect(front.requests).toHaveLength(1)
  })
})
