/**
 * The FakeProxy's HTTP upgrade handling (SPEC §18): one `ws` server (no listener of its own)
 * takes the upgrades of the three WebSocket APIs, on the proxy and on every lane; any other
 * upgrade is answered with a plain HTTP error in the route's shape, and every open session is
 * tracked so `close()` ends them all.
 * @module
 */
import type { IncomingMessage } from 'node:http'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { inputErrorBody } from '../../wire/dialect.js'
import type { ProxyState } from '../handle-request.js'
import { errorStyleFor } from '../../wire/dialects.js'
import { geminiErrorAnswer } from '../../wire/gemini/errors.js'
import { MAX_MESSAGE_BYTES } from './bounds.js'
import { loopShare, type Deferred } from './loop-share.js'
import { turnedAwayRecord } from '../turned-away.js'
import { sessionBookOf, type WebSocketTransport } from './session-book.js'
import type { Session, SessionContext } from './session.js'

/** Makes the session of one transport. */
export type SessionFactory = (context: SessionContext) => Session

/** The transport a WebSocket path is for, or `undefined` when none is served there. */
export function transportForPath(path: string): WebSocketTransport | undefined {
  if (path === '/v1/realtime' || path === '/realtime') return 'openai-realtime'
  if (path === '/v1/responses' || path === '/responses') return 'openai-responses'
  // What `@google/genai` `ai.live.connect` opens (`v1beta` by default; `v1alpha` for ephemeral tokens), and Vertex's.
  if (/^\/ws\/google\.ai\.generativelanguage\.v1(?:alpha|beta)?\.GenerativeService\.BidiGenerateContent(?:Constrained)?$/.test(path)) return 'gemini-live'
  if (/^\/ws\/google\.cloud\.aiplatform\.v1(?:beta1)?\.LlmBidiService\/BidiGenerateContent$/.test(path)) return 'gemini-live'
  return undefined
}

/** The WebSocket side of one FakeProxy server. */
export class WebSocketHub {
  readonly #server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false, clientTracking: false })
  readonly #factories: Readonly<Record<WebSocketTransport, SessionFactory>>
  readonly #live = new Set<Session>()
  /** Upgrades put off to a later turn of the event loop (see loop-share.ts). */
  readonly #deferred = new Map<Deferred, Duplex>()

  constructor(factories: Readonly<Record<WebSocketTransport, SessionFactory>>) {
    this.#factories = factories
  }

  /**
   * Serves the upgrade `req` on `state` (the lane its URL named); `url` is the request URL
   * with the lane prefix stripped.
   */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, state: ProxyState, url: string): void {
    const query = url.indexOf('?')
    // `@google/genai` joins its base URL and path with a slash too many (`//ws/…`).
    const path = (query === -1 ? url : url.slice(0, query)).replace(/\/{2,}/g, '/')
    const transport = transportForPath(path)
    if (!transport) {
      return turnAwayUpgrade(req, socket, state, 404, path, `[agent-doubles] FakeProxy: no WebSocket route for ${path}; WebSockets are served on /v1/realtime, /v1/responses and Gemini Live's BidiGenerateContent`)
    }
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
      return turnAwayUpgrade(req, socket, state, 426, path, `[agent-doubles] FakeProxy: ${path} upgrades to websocket only, not ${JSON.stringify(req.headers.upgrade ?? '')}`)
    }
    if (!loopShare.admit()) {
      // Many at once: the handshake waits for a later turn (a socket gone by then is let go).
      const work: Deferred = () => {
        this.#deferred.delete(work)
        this.#open(req, socket, head, state, transport, path, url, query)
        return true
      }
      this.#deferred.set(work, socket)
      return loopShare.defer(work)
    }
    this.#open(req, socket, head, state, transport, path, url, query)
  }

  #open(req: IncomingMessage, socket: Duplex, head: Buffer, state: ProxyState, transport: WebSocketTransport, path: string, url: string, query: number): void {
    this.#server.handleUpgrade(req, socket, head, (ws) => {
      const book = sessionBookOf(state)
      const context: SessionContext = { ws, state, book, req, path, query: new URLSearchParams(query === -1 ? '' : url.slice(query + 1)) }
      const session = this.#factories[transport](context)
      this.#live.add(session)
      ws.once('close', () => this.#live.delete(session))
    })
  }

  /** Ends every open session at once (the server is closing and destroys the sockets too). */
  close(): void {
    for (const [work, socket] of this.#deferred) {
      loopShare.forget(work)
      socket.destroy()
    }
    this.#deferred.clear()
    for (const session of this.#live) session.drop()
    this.#live.clear()
  }
}

/**
 * Refuses an upgrade ({@link refuseUpgrade}) and records it on `state` (the lane its URL or
 * header named, else the proxy itself) like a turned-away HTTP request (SPEC §17): in
 * `requests`, with its `status` and the message it was answered with.
 */
export function turnAwayUpgrade(req: IncomingMessage, socket: Duplex, state: ProxyState, status: number, path: string, message: string): void {
  state.requests.push(turnedAwayRecord(req, path, { status, message }, { lane: state.lane, dialect: transportForPath(path) }))
  refuseUpgrade(socket, status, path, message)
}

/**
 * Answers an upgrade that is not served with a plain HTTP error in the route's shape, then ends
 * the socket. Written by hand: an upgrade request has no `ServerResponse`.
 */
export function refuseUpgrade(socket: Duplex, status: number, path: string, message: string): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const text = JSON.stringify(upgradeErrorBody(path, status, message))
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
      `x-should-retry: false\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  )
}

/**
 * The body of a refused upgrade in the dialect of the API its path is for: Gemini's
 * `{ error: { code, message, status } }` on Gemini Live's paths (`/ws/google.…`, what
 * `@google/genai` reads), else the route's HTTP error shape (OpenAI's for the Realtime and
 * Responses paths).
 */
export function upgradeErrorBody(path: string, status: number, message: string): unknown {
  if (/^\/*ws\/google\.|BidiGenerateContent/.test(path)) return geminiErrorAnswer(status, message).body
  const style = errorStyleFor(path)
  return inputErrorBody(style === 'local' ? 'openai' : style, status, message)
}
