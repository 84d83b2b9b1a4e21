/**
 * The HTTP machinery under a FakeProxy: a `node:http` server on 127.0.0.1 that tracks every
 * socket so `close()` ends them all (in-flight and stalled streams included), and a body
 * reader with a size limit.
 * @module
 */
import { STATUS_CODES, createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttp2Server } from 'node:http2'
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { routeByPreface } from './h2c.js'
import { answerCrash, openaiShape, type ErrorBodyFor } from './crash-answer.js'
import { DEFAULT_REQUEST_TIMEOUT_MS, guardStalls } from './stall-guard.js'
import { guardHttp2Stalls } from './h2-deadline.js'

export { answerCrash, type ErrorBodyFor } from './crash-answer.js'
export { MAX_BODY_BYTES, readBody, type BodyResult } from './read-body.js'

/** Handles one request; a rejection is answered with a JSON 500 (the handler should not reject). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/** What the server needs besides the handler. */
export interface ServerOptions {
  /** The port on 127.0.0.1; 0 takes a free one. @default 0 */
  port?: number
  /** Builds the body of the answers the server writes by itself. @default OpenAI's error shape */
  errorBody?: ErrorBodyFor
  /** How long a request's headers and body may take to arrive before a 408 (SPEC §24). @default 60000 */
  requestTimeoutMs?: number
  /** Serves an HTTP upgrade (WebSocket, SPEC §18); without it upgrades reach `handler` like any request. */
  onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void
}

/** A listening server. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Stops listening and destroys every open connection; resolves once the server is closed. */
  close(): Promise<void>
}

/** Listens on a port of 127.0.0.1 (a free one unless `options.port` names one). */
export async function startServer(handler: RequestHandler, options: ServerOptions = {}): Promise<RunningServer> {
  const { port = 0, errorBody = openaiShape, onUpgrade, requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS } = options
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => answerCrash(req, res, error, errorBody))
  })
  // HTTP/2 clients (the AWS SDK's Bedrock client) get the same handler through the compatibility API.
  const http2 = createHttp2Server((req, res) => {
    const [request, response] = [req as unknown as IncomingMessage, res as unknown as ServerResponse]
    handler(request, response).catch((error: unknown) => answerCrash(request, response, error, errorBody))
  })
  const stalls = guardStalls(server, requestTimeoutMs, errorBody)
  guardHttp2Stalls(http2, requestTimeoutMs, errorBody)
  const front = createNetServer({ noDelay: true }, (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    stalls.watch(socket)
    // HTTP/2 sessions get their deadlines from guardHttp2Stalls, per stream and per idle session.
    routeByPreface(socket, server, http2, () => stalls.release(socket))
  })
  // A client that sends garbage must not take the server down, and gets JSON it can read.
  if (onUpgrade) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // An upgraded connection is a WebSocket now, no longer a request that must arrive in time.
      stalls.release(socket as Socket)
      onUpgrade(req, socket, head)
    })
  }
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => answerClientError(error, socket, errorBody))
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject)
    front.listen(port, '127.0.0.1', () => {
      front.off('error', reject)
      resolve()
    })
  })
  const address = front.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        front.close(() => resolve())
        for (const socket of sockets) socket.destroy()
        server.closeAllConnections()
        http2.close()
      }),
  }
}

/** Node's parser errors, as the HTTP status and the words a client reads. */
const clientFaults: Readonly<Record<string, [status: number, message: string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'request headers are too large (more than 16 KiB) or too many'],
  HPE_INVALID_METHOD: [400, 'the request method is not a valid HTTP method token'],
  HPE_INVALID_CHUNK_SIZE: [400, 'a chunk size of the chunked request body is invalid'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'the request has both Content-Length and Transfer-Encoding, or conflicting lengths'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'the Content-Length header is invalid or given twice with different values'],
  HPE_INVALID_TRANSFER_ENCODING: [400, 'the Transfer-Encoding header is invalid'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request took too long to arrive'],
}

function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex, errorBody: ErrorBodyFor): void {
  // A reset, or a socket already answered: nothing can be written.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const [status, what] = clientFaults[error.code ?? ''] ?? [400, 'the request is not valid HTTP/1.1']
  const head = error.rawPacket ? error.rawPacket.subarray(0, 8192).toString('latin1') : ''
  const text = JSON.stringify(errorBody(status, `[agent-doubles] FakeProxy: ${what} (${error.code ?? error.message})`, head))
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
      `x-should-retry: false\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  )
}
