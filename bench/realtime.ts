/**
 * The Realtime figure of SPEC §23: a scripted text response over the OpenAI Realtime WebSocket
 * (the FakeProxy's session, brain and encoder, one record a response) against a bare `ws` server
 * that sends the same frames, captured from the fake in its steady state, for the same client
 * events. Both answer one `ws` client on one open connection: `conversation.item.create` then an
 * out-of-band `response.create`, until `response.done`.
 *
 * The fake sends the events of one burst in one write (its socket corked for the turn of the
 * event loop); the bare server, as written with `ws`'s API, makes one write a frame. A second
 * bare server that corks its burst the same way is measured beside them, so the fake's own cost
 * over the same writes is printed too.
 */
import { FakeProxy, scriptedLLM } from 'agent-doubles'
import { WebSocket, WebSocketServer } from 'ws'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { BenchGroup } from './run.js'

const ANSWER = 'Sure, here is a short scripted answer spoken over the realtime socket, word by word.'
const ITEM = JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello there' }] } })
// Out of band: the conversation does not grow from one turn to the next.
const CREATE = JSON.stringify({ type: 'response.create', response: { conversation: 'none', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello there' }] }] } })

/** One client on an open connection: sends a turn, resolves at `response.done`. */
class Client {
  readonly #ws: WebSocket
  #done: (() => void) | undefined

  constructor(ws: WebSocket) {
    this.#ws = ws
    ws.on('message', (data) => {
      // Only the last event of a turn needs reading whole.
      if (String(data).startsWith('{"type":"response.done"')) this.#done?.()
    })
  }

  static async open(url: string): Promise<Client> {
    const ws = new WebSocket(url, { perMessageDeflate: false })
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    return new Client(ws)
  }

  send(event: string): void {
    this.#ws.send(event)
  }

  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.#done = resolve
      this.#ws.send(ITEM)
      this.#ws.send(CREATE)
    })
  }

  close(): void {
    this.#ws.terminate()
  }
}

const TEXT_ONLY = JSON.stringify({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } })

let proxy: FakeProxy
let bare: { server: Server; wss: WebSocketServer; url: string }
let corked: { server: Server; wss: WebSocketServer; url: string }
let fakeClient: Client
let bareClient: Client
let corkedClient: Client
let turns = 0

/**
 * The frames the fake sends for one text turn in its steady state (the second turn of a session,
 * whose items follow earlier ones): those answering the item, and those answering the response.
 */
async function captureFrames(url: string): Promise<{ item: string[]; response: string[] }> {
  const ws = new WebSocket(url)
  let frames: string[] = []
  ws.on('message', (data) => frames.push(String(data)))
  await new Promise<void>((resolve) => ws.once('open', () => resolve()))
  ws.send(TEXT_ONLY)
  for (let turn = 0; turn < 2; turn++) {
    frames = []
    ws.send(ITEM)
    ws.send(CREATE)
    await new Promise<void>((resolve) => ws.on('message', (data) => String(data).startsWith('{"type":"response.done"') && resolve()))
  }
  ws.terminate()
  const first = frames.findIndex((frame) => frame.startsWith('{"type":"conversation.item.added"'))
  const split = frames.findIndex((frame) => frame.startsWith('{"type":"response.created"'))
  return { item: frames.slice(first, split), response: frames.slice(split) }
}

/** A bare `ws` server answering each client event with its captured frames; `corked`: one write a burst. */
async function bareServer(frames: { item: string[]; response: string[] }, corked: boolean): Promise<{ server: Server; wss: WebSocketServer; url: string }> {
  const server = createServer()
  const wss = new WebSocketServer({ server, perMessageDeflate: false })
  wss.on('connection', (ws) => {
    const socket = (ws as unknown as { _socket: Duplex })._socket
    ws.on('message', (data) => {
      const text = String(data)
      const answer = text.includes('"conversation.item.create"') ? frames.item : text.includes('"response.create"') ? frames.response : []
      if (corked) {
        socket.cork()
        process.nextTick(() => socket.uncork())
      }
      for (const frame of answer) ws.send(frame)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return { server, wss, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

async function closeBare(bare: { server: Server; wss: WebSocketServer }): Promise<void> {
  bare.wss.close()
  bare.server.closeAllConnections()
  await new Promise<void>((resolve) => bare.server.close(() => resolve()))
}

export const groups: BenchGroup[] = [
  {
    title: 'Realtime: a scripted text response over the WebSocket (baseline: a bare ws server sending the same frames)',
    setup: async () => {
      proxy = await new FakeProxy({ llm: scriptedLLM({ hello: ANSWER }) }).start()
      const url = `${proxy.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`
      const frames = await captureFrames(url)
      bare = await bareServer(frames, false)
      corked = await bareServer(frames, true)
      bareClient = await Client.open(bare.url)
      corkedClient = await Client.open(corked.url)
      fakeClient = await Client.open(url)
      fakeClient.send(TEXT_ONLY)
    },
    teardown: async () => {
      fakeClient.close()
      bareClient.close()
      corkedClient.close()
      await closeBare(bare)
      await closeBare(corked)
      await proxy.close()
    },
    cases: [
      { name: 'bare ws server, the same frames', fn: () => bareClient.turn() },
      { name: 'bare ws server, the same frames, one write a burst', fn: () => corkedClient.turn() },
      {
        name: 'FakeProxy Realtime (scriptedLLM)',
        target: 1.2,
        fn: async () => {
          await fakeClient.turn()
          // Records are kept as a test keeps them; a long run drops them now and then.
          if (++turns % 1000 === 0) proxy.reset()
        },
      },
    ],
    // The fake's own cost over the same writes: no SPEC target, printed for the record.
    comparisons: [{ name: 'FakeProxy Realtime (scriptedLLM)', against: 'bare ws server, the same frames, one write a burst' }],
  },
]
