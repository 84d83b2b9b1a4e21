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
import { routeByPreface } from '../wire/h2c.js'

/** The largest request body the proxy reads (32 MiB); larger ones are answered with 413. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024

/** Handles one request; a rejection is answered with a JSON 500 (the handler should not reject). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/**
 * The JSON body of an answer the server writes by itself (an HTTP-level fault, a handler that
 * rejected). `head` is the start of the raw request when the server has it (a fault) and the
 * request line plus header names otherwise, so the body can take the route's own error shape.
 */
export type ErrorBodyFor = (status: number, message: string, head: string) => unknown

/** What the server needs besides the handler. */
export interface ServerOptions {
  /** The port on 127.0.0.1; 0 takes a free one. @default 0 */
  port?: number
  /** Builds the body of the answers the server writes by itself. @default OpenAI's error shape */
  errorBody?: ErrorBodyFor
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
  const { port = 0, errorBody = openaiShape } = options
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => answerCrash(req, res, error, errorBody))
  })
  // HTTP/2 clients (the AWS SDK's Bedrock client) get the same handler through the compatibility API.
  const http2 = createHttp2Server((req, res) => {
    const [request, response] = [req as unknown as IncomingMessage, res as unknown as ServerResponse]
    handler(request, response).catch((error: unknown) => answerCrash(request, response, error, errorBody))
  })
  const front = createNetServer({ noDelay: true }, (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    routeByPreface(socket, server, http2)
  })
  // A client that sends garbage must not take the server down, and gets JSON it can read.
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

/** The OpenAI error shape: what a fault gets when nothing tells its route. */
function openaiShape(status: number, message: string): unknown {
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } }
}

/**
 * A bug of the fake itself: 500 with `x-should-retry: false`, since sending the same request
 * again meets the same bug (without it the Anthropic SDK resends it three times).
 */
export function answerCrash(req: IncomingMessage, res: ServerResponse, error: unknown, errorBody: ErrorBodyFor): void {
  if (res.headersSent || res.destroyed) {
    res.destroy()
    return
  }
  const message = `[agent-doubles] FakeProxy crashed on this request (a bug of agent-doubles): ${error instanceof Error ? error.message : String(error)}`
  const head = `${req.method ?? 'GET'} ${req.url ?? '/'}\r\n${Object.keys(req.headers).map((name) => `${name}:`).join('\r\n')}`
  const text = JSON.stringify(errorBody(500, message, head))
  res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false', 'content-length': String(Buffer.byteLength(text)) })
  res.end(text)
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

/** What reading a request body gave. */
export type BodyResult =
  | { kind: 'ok'; body: Uint8Array }
  | { kind: 'too-large' }
  | { kind: 'aborted' }

/**
 * Reads the whole body, up to `limit` bytes. Past the limit it stops keeping bytes and answers
 * `too-large` at once; the rest of the upload is drained and dropped, so the connection stays
 * usable and the client reads the 413 instead of a reset.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    req.resume()
    return Promise.resolve({ kind: 'too-large' })
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > limit) {
        req.off('data', onData)
        chunks.length = 0
        req.resume()
        resolve({ kind: 'too-large' })
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => resolve({ kind: 'ok', body: new Uint8Array(Buffer.concat(chunks)) }))
    req.once('aborted', () => resolve({ kind: 'aborted' }))
    req.once('error', () => resolve({ kind: 'aborted' }))
    req.once('close', () => {
      if (!req.complete) resolve({ kind: 'aborted' })
    })
  })
}
