/**
 * `proxy.fetch`: a `fetch`-compatible function that serves a FakeProxy's routes with no socket.
 * It is an adapter, not a second server: each call becomes a minimal request/response pair that
 * the proxy's own `handleRequest` serves, so records, checks, faults and streaming are the same
 * as over HTTP. It uses web APIs only (no `node:` module, `Buffer` or `process`), so it also runs
 * where no server can: a browser (Vitest browser mode) or an edge runtime.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { concatBytes, utf8Bytes } from '../internal/bytes.js'
import { Emitter } from '../internal/emitter.js'
import { nextTick } from '../internal/scheduling.js'
import type { RequestHandler } from './server.js'

type FetchInput = Parameters<typeof globalThis.fetch>[0]
type HeadersInput = NonNullable<RequestInit['headers']>

/** A `fetch` serving one handler in process, and the means to end what it is still serving. */
export interface InProcessTransport {
  readonly fetch: typeof globalThis.fetch
  /** Ends every answer still in flight (streams included), as closing a server does. */
  close(): void
}

/** Bytes a streamed answer may hold for a slow reader before the writer waits for `drain`. */
const HIGH_WATER_MARK = 64 * 1024

/**
 * A transport serving `handler` in process. A failure of the handler itself is answered by
 * `onCrash`, as the server answers it.
 */
export function inProcessTransport(
  handler: RequestHandler,
  onCrash: (res: ServerResponse, error: unknown) => void,
): InProcessTransport {
  const live = new Set<InProcessResponse>()
  const fetch = async (input: FetchInput, init?: RequestInit): Promise<Response> => {
    const call = await readCall(input, init)
    call.signal?.throwIfAborted()
    const req = new InProcessRequest(call)
    const res = new InProcessResponse()
    live.add(res)
    res.once('close', () => live.delete(res))
    const onAbort = (): void => void res.destroy(call.signal?.reason)
    call.signal?.addEventListener('abort', onAbort, { once: true })
    res.once('close', () => call.signal?.removeEventListener('abort', onAbort))
    const answer = res.answered()
    handler(req as unknown as IncomingMessage, res as unknown as ServerResponse).catch((error: unknown) =>
      onCrash(res as unknown as ServerResponse, error),
    )
    return answer
  }
  return {
    fetch: fetch as typeof globalThis.fetch,
    close() {
      for (const res of live) res.destroy()
    },
  }
}

/** What one `fetch` call asks for, read from either of its forms. */
interface Call {
  method: string
  url: URL
  headers: Record<string, string>
  body: Uint8Array | undefined
  signal: AbortSignal | undefined
}

async function readCall(input: FetchInput, init: RequestInit | undefined): Promise<Call> {
  if (input instanceof Request || !isPlainBody(init?.body)) {
    // Anything but a string or bytes body: let the platform read it as fetch would.
    const request = new Request(input, init)
    const bytes = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined
    return { method: request.method, url: new URL(request.url), headers: headersOf(request.headers), body: bytes, signal: init?.signal ?? request.signal }
  }
  const body = init?.body
  return {
    method: (init?.method ?? 'GET').toUpperCase(),
    url: new URL(input instanceof URL ? input.href : String(input)),
    headers: headersOf(init?.headers),
    body: body === undefined || body === null ? undefined : typeof body === 'string' ? utf8Bytes(body) : (body as Uint8Array).slice(),
    signal: init?.signal ?? undefined,
  }
}

function isPlainBody(body: unknown): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array
}

/**
 * Header names lower-cased, as `IncomingMessage.headers` has them. Takes a plain object, pairs,
 * or any `Headers` (also another copy's, such as the `undici` package's).
 */
function headersOf(headers: HeadersInput | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!headers) return out
  if (Array.isArray(headers)) {
    for (const [name, value] of headers as Array<[string, string]>) out[name.toLowerCase()] = value
  } else if (typeof (headers as Headers).forEach === 'function') {
    ;(headers as Headers).forEach((value, name) => (out[name.toLowerCase()] = value))
  } else {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = String(value)
  }
  return out
}

/**
 * The part of `IncomingMessage` the proxy reads: method, url, headers, and the body as the events
 * of a readable stream (`data`, `end`, `close`), which flow on the next tick once a `data`
 * listener or `resume()` asks for them.
 */
class InProcessRequest extends Emitter {
  readonly method: string
  readonly url: string
  readonly headers: Record<string, string>
  complete = false
  #body: Uint8Array | undefined
  #flowing = false

  constructor(call: Call) {
    super()
    this.method = call.method
    this.url = call.url.pathname + call.url.search
    this.headers = { host: call.url.host, ...call.headers }
    if (call.body) this.headers['content-length'] = String(call.body.length)
    this.#body = call.body
  }

  override on(name: string | symbol, listener: (...args: never[]) => void): this {
    super.on(name, listener)
    if (name === 'data') this.resume()
    return this
  }

  resume(): this {
    if (this.#flowing) return this
    this.#flowing = true
    nextTick(() => this.#flow())
    return this
  }

  #flow(): void {
    const body = this.#body
    this.#body = undefined
    if (body && body.length > 0) this.emit('data', body)
    this.complete = true
    this.emit('end')
    this.emit('close')
  }
}

/**
 * The part of `ServerResponse` the proxy writes to. The `fetch` promise settles when the head
 * is sent: with the whole body when `end()` comes in the same tick (a JSON answer, or a stream the
 * brain made at once), else — at the end of the tick the head was flushed in, as a server's
 * packet would leave — with a body stream the writes feed, which waits for `drain` when the
 * reader falls behind.
 */
class InProcessResponse extends Emitter {
  statusCode = 200
  headersSent = false
  destroyed = false
  closed = false
  writableEnded = false
  writableNeedDrain = false
  /** Cutting "the socket" is cutting this answer (a `disconnect` fault). */
  readonly socket = { destroy: () => this.destroy() }
  #headers: Record<string, string> = {}
  #settle!: { resolve: (response: Response) => void; reject: (error: unknown) => void }
  #settled = false
  #stream: ReadableStreamDefaultController<Uint8Array> | undefined
  /** What was written before the body stream opened. */
  #early: Uint8Array[] = []
  #earlyBytes = 0
  /** An error waiting for the reader to take what was sent before it. */
  #failure: { error: unknown } | undefined
  #opening = false

  answered(): Promise<Response> {
    return new Promise((resolve, reject) => (this.#settle = { resolve, reject }))
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    if (!this.headersSent) this.#headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    return this
  }

  getHeader(name: string): string | undefined {
    return this.#headers[name.toLowerCase()]
  }

  getHeaderNames(): string[] {
    return Object.keys(this.#headers)
  }

  removeHeader(name: string): void {
    if (!this.headersSent) delete this.#headers[name.toLowerCase()]
  }

  writeHead(status: number, headers: Record<string, string | number | readonly string[]> | readonly string[] = {}): this {
    this.statusCode = status
    if (isNameValueList(headers)) {
      for (let i = 0; i < headers.length; i += 2) this.#headers[headers[i].toLowerCase()] = headers[i + 1]
    } else {
      for (const [name, value] of Object.entries(headers)) this.#headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    }
    this.headersSent = true
    return this
  }

  flushHeaders(): void {
    if (!this.headersSent) this.writeHead(this.statusCode)
    if (this.#opening) return
    this.#opening = true
    nextTick(() => this.#open())
  }

  cork(): void {}
  uncork(): void {}

  write(chunk: string | Uint8Array, callback?: () => void): boolean {
    if (this.destroyed || this.writableEnded) return false
    this.flushHeaders()
    const bytes = typeof chunk === 'string' ? utf8Bytes(chunk) : chunk
    if (callback) nextTick(callback)
    if (!this.#stream) {
      this.#early.push(bytes)
      this.#earlyBytes += bytes.byteLength
      if (this.#earlyBytes < HIGH_WATER_MARK) return true
      // A long answer made at once: stream it now, with back-pressure, rather than hold it all.
      this.#open()
      this.writableNeedDrain = (this.#stream!.desiredSize ?? 1) <= 0
      return !this.writableNeedDrain
    }
    const controller = this.#stream
    controller.enqueue(bytes)
    this.writableNeedDrain = (controller.desiredSize ?? 1) <= 0
    return !this.writableNeedDrain
  }

  end(chunk?: string | Uint8Array): this {
    if (this.destroyed || this.writableEnded) return this
    if (!this.headersSent) this.writeHead(this.statusCode)
    this.writableEnded = true
    if (!this.#settled) {
      // The whole answer at once: no stream needed.
      this.#settled = true
      if (chunk !== undefined) this.#early.push(typeof chunk === 'string' ? utf8Bytes(chunk) : chunk)
      const body = this.#early.length === 1 ? this.#early[0] : this.#early.length > 1 ? concatBytes(this.#early) : null
      this.#early = []
      this.#settle.resolve(new Response(bodyless(this.statusCode) ? null : body, { status: this.statusCode, headers: this.#headers }))
    } else {
      if (chunk !== undefined) this.#stream?.enqueue(typeof chunk === 'string' ? utf8Bytes(chunk) : chunk)
      this.#stream?.close()
    }
    this.#finish()
    return this
  }

  /** Ends the answer abruptly: the `fetch` rejects, or its body stream errors, as a cut socket makes it. */
  destroy(reason?: unknown): this {
    if (this.destroyed) return this
    this.destroyed = true
    // Once the head was flushed the client has it, and the bytes sent before the cut.
    if (this.#opening) this.#open()
    const error = reason ?? new TypeError(this.#settled ? 'terminated' : 'fetch failed', { cause: new Error('other side closed') })
    if (!this.#settled) {
      this.#settled = true
      this.#settle.reject(error)
    } else if (!this.writableEnded) this.#fail(error)
    this.#finish()
    return this
  }

  /** Errors the body once what was already sent has been read, as a cut connection does. */
  #fail(error: unknown): void {
    const controller = this.#stream
    if (!controller) return
    if ((controller.desiredSize ?? HIGH_WATER_MARK) >= HIGH_WATER_MARK) controller.error(error)
    else this.#failure = { error }
  }

  /** Settles `fetch` with a streamed body, once. */
  #open(): void {
    if (this.#settled) return
    this.#settled = true
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#stream = controller
          for (const bytes of this.#early) controller.enqueue(bytes)
          this.#early = []
        },
        pull: (controller) => {
          if (this.#failure && (controller.desiredSize ?? 0) >= HIGH_WATER_MARK) return controller.error(this.#failure.error)
          if (!this.writableNeedDrain) return
          this.writableNeedDrain = false
          this.emit('drain')
        },
        // The reader gave up (the client aborted, or stopped reading): the connection is gone.
        cancel: () => void this.destroy(),
      },
      // ByteLengthQueuingStrategy's measure, spelled out: edge runtimes may lack the class.
      { highWaterMark: HIGH_WATER_MARK, size: (chunk: Uint8Array) => chunk.byteLength },
    )
    this.#settle.resolve(new Response(body, { status: this.statusCode, headers: this.#headers }))
  }

  #finish(): void {
    if (this.closed) return
    this.closed = true
    this.emit('close')
  }
}

/** Statuses whose answers carry no body. */
function bodyless(status: number): boolean {
  return status === 204 || status === 205 || status === 304
}

/** Whether `writeHead` was given names and values in turn (as the proxy writes them) rather than an object. */
function isNameValueList(headers: object): headers is readonly string[] {
  return Array.isArray(headers)
}
