/**
 * Requests whose headers or body never finish (SPEC §24): a client that opens a connection and
 * then sends nothing, or half a header, or half a body, once held its socket (and its memory)
 * until the proxy closed. `node:http`'s own `headersTimeout`/`requestTimeout` do not apply
 * here: its server never listens itself (a front socket server hands it each connection, so
 * HTTP/2 can share the port), and Node checks those timeouts only for servers that listen.
 * So each connection gets a deadline of its own: armed when the connection opens and again
 * after each answer, cleared when a request's body has fully arrived. A connection still
 * waiting when it passes is answered 408 in JSON (or, mid-answer, destroyed).
 * @module
 */
import { STATUS_CODES, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { ErrorBodyFor } from './crash-answer.js'

/** How long a request may take to arrive, headers and body, by default: 60 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000

/** The deadline of one connection. */
interface Deadline {
  /** Made once per connection and refreshed after each answer, rather than a new timer per request. */
  timer: ReturnType<typeof setTimeout> | undefined
  /** Whether the connection is waiting for a request to arrive: when not, the timer's firing does nothing. */
  waiting: boolean
  /** The request in progress on this connection and its answer, if a request arrived. */
  req: IncomingMessage | undefined
  res: ServerResponse | undefined
}

/**
 * Gives each connection `http1` serves a deadline of `timeoutMs` for each request to arrive.
 * Returns what the front server calls for each new socket; the deadline ends with the socket.
 * Per request it costs two listeners shared by every request and a flag: no timer is made or
 * cleared (the connection's one timer is refreshed after each answer).
 */
export function guardStalls(http1: HttpServer, timeoutMs: number, errorBody: ErrorBodyFor): { watch(socket: Socket): void; release(socket: Socket): void } {
  const deadlines = new WeakMap<Socket, Deadline>()

  const arm = (socket: Socket, deadline: Deadline): void => {
    deadline.waiting = true
    if (deadline.timer) {
      deadline.timer.refresh()
      return
    }
    deadline.timer = setTimeout(expire, timeoutMs, socket, deadline)
    // The socket, not this timer, is what keeps a server's process alive.
    deadline.timer.unref?.()
  }
  const expire = (socket: Socket, deadline: Deadline): void => {
    // A request arrived in full since the timer was set: it is being answered.
    if (!deadline.waiting) return
    deadline.waiting = false
    // Arrived in full, though nobody read it to its end (a handler need not read a GET's body).
    if (socket.destroyed || deadline.req?.complete) return
    if (deadline.res?.headersSent || !socket.writable) {
      socket.destroy()
      return
    }
    const text = JSON.stringify(errorBody(408, `[agent-doubles] the request did not arrive within ${timeoutMs} ms (requestTimeoutMs)`, ''))
    socket.end(
      `HTTP/1.1 408 ${STATUS_CODES[408]}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
        `x-should-retry: false\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    )
    // A client that does not read the answer does not hold the socket either.
    socket.destroySoon?.()
  }
  // One listener of each kind for every request (`this` is the request or its answer), rather than two closures per request.
  function arrived(this: IncomingMessage): void {
    const deadline = deadlines.get(this.socket as Socket)
    if (deadline?.req === this) deadline.waiting = false
  }
  function answered(this: ServerResponse): void {
    const req = this.req
    const socket = req.socket as Socket
    const deadline = deadlines.get(socket)
    if (deadline?.res !== this) return
    deadline.req = deadline.res = undefined
    // The connection may carry another request: it gets a deadline of its own.
    if (!socket.destroyed) arm(socket, deadline)
  }

  http1.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const deadline = deadlines.get(req.socket as Socket)
    if (!deadline) return
    deadline.req = req
    deadline.res = res
    if (req.complete) deadline.waiting = false
    else req.on('end', arrived)
    res.on('finish', answered)
  })

  return {
    watch(socket) {
      const deadline: Deadline = { timer: undefined, waiting: true, req: undefined, res: undefined }
      deadlines.set(socket, deadline)
      arm(socket, deadline)
      socket.once('close', () => clearTimeout(deadline.timer))
    },
    release(socket) {
      const deadline = deadlines.get(socket)
      if (deadline) clearTimeout(deadline.timer)
      deadlines.delete(socket)
    },
  }
}
