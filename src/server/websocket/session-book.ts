/**
 * What a proxy (or lane) keeps of its WebSocket sessions: the record of each (the client's raw
 * events, for `proxy.sessions`), the sessions still open (closed with the lane), and the
 * transcripts the test said the next input audio carries (`proxy.realtime.hear`).
 * One book per proxy state, held beside it rather than in it, so the HTTP hot path is unchanged.
 * @module
 */
import { MAX_KEPT_EVENTS } from './bounds.js'

/** The WebSocket transports a FakeProxy serves (SPEC §18). */
export type WebSocketTransport = 'openai-realtime' | 'openai-responses' | 'gemini-live'

/** One WebSocket session, as `proxy.sessions` lists it. */
export interface WebSocketSession {
  /** Unique within the proxy or lane that served it (`ws_000001`, …). */
  id: string
  /** Which API the session spoke. */
  transport: WebSocketTransport
  /** The name of the lane that served it; `undefined` when the proxy itself did. */
  lane: string | undefined
  /** The path of the upgrade request, without the query (and without the lane prefix). */
  path: string
  /** The model the session was opened for (the `model` query, or Gemini's `setup.model`), once known. */
  model: string | undefined
  /** The upgrade request's headers as HTTP records keep them (names lower-cased, `x-viper-*` removed), without the handshake's own. */
  headers: Record<string, string>
  /**
   * The client's events in the order they arrived, each as parsed JSON (a frame that was not a
   * JSON object is kept as `{ invalid: '<its first KiB>' }`); the first 10,000 of a session.
   */
  events: Array<Record<string, unknown>>
  /** Events that arrived after the first 10,000, counted but not kept. */
  droppedEvents: number
  /** Whether the connection is still open. */
  open: boolean
  /** The close code, once closed (1000 normal, 1001 the proxy or lane closed, 1006 cut, 1009 message too big). */
  closeCode: number | undefined
}

/** Something the book can close: a live session. */
export interface ClosableSession {
  /** Ends the session with `code` (1001: the proxy or lane is going away). */
  close(code: number, reason: string): void
}

/** A proxy's (or lane's) sessions and planned transcripts. */
export class SessionBook {
  /** Every session since the last reset, oldest first. */
  readonly records: WebSocketSession[] = []
  /** The sessions open now. */
  readonly live = new Set<ClosableSession>()
  /** Transcripts of the next committed input audio turns, in order (`proxy.realtime.hear`). */
  readonly heard: string[] = []
  #next = 0

  /** A fresh session id, never reused by this book. */
  nextId(): string {
    return `ws_${(++this.#next).toString().padStart(6, '0')}`
  }

  /** Notes one client event of `session`, within {@link MAX_KEPT_EVENTS}. */
  keep(session: WebSocketSession, event: Record<string, unknown>): void {
    if (session.events.length < MAX_KEPT_EVENTS) session.events.push(event)
    else session.droppedEvents++
  }

  /** The transcript of the next committed audio turn, or `undefined` when the test planned none. */
  takeHeard(): string | undefined {
    return this.heard.shift()
  }

  /** Forgets the records and planned transcripts; open sessions stay open. */
  reset(): void {
    this.records.length = 0
    this.heard.length = 0
  }

  /** Closes every open session (the lane or proxy is closing). */
  closeAll(): void {
    for (const session of [...this.live]) session.close(1001, 'the FakeProxy (or its lane) closed')
    this.live.clear()
  }
}

const books = new WeakMap<object, SessionBook>()

/** The book of the proxy state `owner`, made on first use. */
export function sessionBookOf(owner: object): SessionBook {
  let book = books.get(owner)
  if (!book) books.set(owner, (book = new SessionBook()))
  return book
}

/** The book of `owner` if one was made: a lane that never spoke WebSocket has nothing to reset or close. */
export function existingSessionBook(owner: object): SessionBook | undefined {
  return books.get(owner)
}
