/**
 * What every WebSocket session does whatever API it speaks: reads each client message as one
 * JSON event (refusing binary or invalid frames with the API's error), keeps the raw events in
 * the session's record, sends events with bounded buffering, and forgets itself when closed.
 * @module
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { RawData, WebSocket } from 'ws'
import type { ProxyState } from '../handle-request.js'
import { forwardableHeaders, readIdentity } from '../../gateway/identity.js'
import type { Identity } from '../types.js'
import { HIGH_WATER_BYTES, MAX_BUFFERED_BYTES } from './bounds.js'
import { tooManyValuesMessage, valuesOver } from '../body-values.js'
import { loopShare, type Deferred } from './loop-share.js'
import type { SessionBook, WebSocketSession, WebSocketTransport } from './session-book.js'

/** What a session is opened with. */
export interface SessionContext {
  readonly ws: WebSocket
  /** The lane (or proxy) serving it. */
  readonly state: ProxyState
  readonly book: SessionBook
  readonly req: IncomingMessage
  /** The upgrade path, lane prefix stripped, without the query. */
  readonly path: string
  readonly query: URLSearchParams
}

/** The words of a client fault, for the API's own `error` event. */
export interface ClientFault {
  code: string
  message: string
  param?: string | null
  /** The client event's own id, when it had one (Realtime echoes it). */
  eventId?: string | null
}

/** `OPEN` of `ws` (its constants are on the class, which this module does not load). */
const OPEN = 1

/** A session of one WebSocket transport. */
export abstract class Session {
  readonly record: WebSocketSession
  readonly identity: Identity
  protected readonly state: ProxyState
  protected readonly ws: WebSocket
  /** The book of the proxy or lane serving it (records, planned transcripts). */
  protected readonly sessionBook: SessionBook
  #closed = false
  /** The bytes of the client message being handled (see {@link eventBytes}). */
  #bytes: Buffer | undefined
  /** Client messages put off to a later turn of the event loop (see loop-share.ts), oldest first. */
  #inbox: Array<{ data: RawData; isBinary: boolean }> | undefined
  /** Handles the oldest message of the inbox; `true` once it is empty (the socket is read again). */
  readonly #nextInInbox: Deferred = () => {
    const inbox = this.#inbox
    const message = inbox?.shift()
    if (message && !this.#closed) this.#receive(message.data, message.isBinary)
    if (inbox && inbox.length > 0 && !this.#closed) return false
    this.#inbox = undefined
    if (!this.#closed) this.ws.resume()
    return true
  }
  /** The connection's socket, corked while a burst of events is being sent (see {@link send}). */
  readonly #socket: Duplex | undefined
  #corked = false
  readonly #uncork = (): void => {
    this.#corked = false
    this.#socket!.uncork()
  }

  constructor(
    context: SessionContext,
    readonly transport: WebSocketTransport,
  ) {
    const { ws, state, book, req } = context
    this.ws = ws
    // `ws` keeps its socket here (no public accessor); without it events are sent one write each.
    this.#socket = (ws as unknown as { _socket?: Duplex })._socket
    this.state = state
    this.sessionBook = book
    this.identity = readIdentity(req.headers)
    this.record = {
      id: book.nextId(),
      transport,
      lane: state.lane,
      path: context.path,
      model: context.query.get('model') ?? undefined,
      headers: withoutHandshake(forwardableHeaders(req.headers)),
      events: [],
      droppedEvents: 0,
      open: true,
      closeCode: undefined,
    }
    book.records.push(this.record)
    book.live.add(this)
    ws.on('message', (data, isBinary) => this.#arrive(data, isBinary))
    ws.on('close', (code) => this.#ended(code))
    // A socket error is followed by `close`; it must not become an unhandled 'error' event.
    ws.on('error', () => {})
  }

  /** Whether the connection is over (closed by either side, or dropped). */
  get closed(): boolean {
    return this.#closed
  }

  /**
   * The bytes of the client event being handled, as a copy of their own (the message may be a
   * view into a larger read): a record's body, so that it need not be serialised again.
   */
  protected eventBytes(): Uint8Array | undefined {
    const bytes = this.#bytes
    if (!bytes) return undefined
    return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes)
  }

  /** Handles one parsed client event. */
  protected abstract onEvent(event: Record<string, unknown>): void

  /** Sends the API's error event for a client fault. */
  protected abstract sendFault(fault: ClientFault): void

  /** Called once when the connection is over: stop answering, let go of what is held. */
  protected abstract onClosed(): void

  /** Whether binary frames carry JSON events too (Gemini Live's do). */
  protected acceptsBinary(): boolean {
    return false
  }

  /**
   * Sends one event (an object, or its JSON text). Returns a promise when the client has fallen
   * behind (more than {@link HIGH_WATER_BYTES} waiting): the caller waits for it before sending
   * more. A client that lets {@link MAX_BUFFERED_BYTES} pile up is dropped.
   */
  send(event: string | object): Promise<void> | undefined {
    if (this.#closed || this.ws.readyState !== OPEN) return undefined
    const text = typeof event === 'string' ? event : JSON.stringify(event)
    // The events sent in one turn of the event loop (an answer's burst) leave in one write, as
    // Node's HTTP server corks a response's head and body, rather than one system call each.
    if (!this.#corked && this.#socket) {
      this.#corked = true
      this.#socket.cork()
      process.nextTick(this.#uncork)
    }
    if (this.ws.bufferedAmount <= HIGH_WATER_BYTES) {
      this.ws.send(text)
      if (this.ws.bufferedAmount <= HIGH_WATER_BYTES) return undefined
    } else if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.drop()
      return undefined
    }
    // Resolved once this frame is written out (or the socket ends): no timer is involved.
    return new Promise<void>((resolve) => this.ws.send(text, () => resolve()))
  }

  /** Ends the session with a close frame. */
  close(code: number, reason: string): void {
    if (this.#closed) return
    // A close frame's reason is at most 123 bytes.
    if (this.ws.readyState === OPEN) this.ws.close(code, Buffer.from(reason).subarray(0, 123).toString('utf8').replace(/\uFFFD$/, ''))
    else this.ws.terminate()
    // Wait for nothing: the socket is ended or destroyed by the server's close.
    this.#ended(code)
  }

  /** Cuts the connection at once (a client that reads nothing). */
  drop(): void {
    // What this turn sent goes out before the connection is cut (a fault's last frame).
    if (this.#corked) this.#uncork()
    this.ws.terminate()
    this.#ended(1006)
  }

  /**
   * A client message: handled now while this turn of the event loop has room, else kept (the
   * socket paused, so no more is read) until a later turn, behind the messages already kept.
   */
  #arrive(data: RawData, isBinary: boolean): void {
    if (this.#closed) return
    if (this.#inbox) {
      this.#inbox.push({ data, isBinary })
      return
    }
    if (loopShare.admit()) return this.#receive(data, isBinary)
    this.#inbox = [{ data, isBinary }]
    this.ws.pause()
    loopShare.defer(this.#nextInInbox)
  }

  #receive(data: RawData, isBinary: boolean): void {
    if (this.#closed) return
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)
    if (isBinary && !this.acceptsBinary()) {
      this.sessionBook.keep(this.record, { invalid: `<binary frame of ${bytes.length} bytes>` })
      return this.sendFault({ code: 'invalid_json', message: 'The server failed to parse the event: binary frames are not accepted; send each event as a JSON text frame.' })
    }
    // An event of more JSON values than a request body may hold is refused before it is parsed
    // and decoded, as the HTTP routes refuse such a body (SPEC §24).
    const values = valuesOver(bytes, this.state.maxBodyValues)
    if (values !== undefined) {
      this.sessionBook.keep(this.record, { invalid: `<event of ${values} JSON values>` })
      return this.sendFault({ code: 'invalid_value', message: `The server refused the event: ${tooManyValuesMessage(values, this.state.maxBodyValues).replace('request body', 'it')}` })
    }
    const text = bytes.toString('utf8')
    let event: unknown
    try {
      event = JSON.parse(text)
    } catch (error) {
      this.sessionBook.keep(this.record, { invalid: text.slice(0, 1024) })
      return this.sendFault({ code: 'invalid_json', message: `The server failed to parse the event: ${error instanceof Error ? error.message : String(error)}` })
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      this.sessionBook.keep(this.record, { invalid: text.slice(0, 1024) })
      return this.sendFault({ code: 'invalid_json', message: 'The server failed to parse the event: an event must be a JSON object.' })
    }
    this.sessionBook.keep(this.record, event as Record<string, unknown>)
    this.#bytes = bytes
    try {
      this.onEvent(event as Record<string, unknown>)
    } catch (error) {
      // A bug of the fake itself: the client hears it in the API's words, and the session lives on.
      this.sendFault({ code: 'server_error', message: `[agent-doubles] FakeProxy failed on this event (a bug of agent-doubles): ${error instanceof Error ? error.message : String(error)}` })
    } finally {
      this.#bytes = undefined
    }
  }

  #ended(code: number): void {
    if (this.#closed) return
    this.#closed = true
    if (this.#inbox) {
      loopShare.forget(this.#nextInInbox)
      this.#inbox = undefined
    }
    this.record.open = false
    this.record.closeCode = code
    this.sessionBook.live.delete(this)
    this.onClosed()
  }
}

/** Headers of the handshake itself, which say nothing about the caller. */
function withoutHandshake(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (!name.startsWith('sec-websocket-') && name !== 'upgrade' && name !== 'connection') kept[name] = value
  }
  return kept
}
