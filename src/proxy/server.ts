/**
 * The HTTP machinery under a FakeProxy: a `node:http` server on 127.0.0.1 that tracks every
 * socket so `close()` ends them all (in-flight and stalled streams included), and a body
 * reader with a size limit.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** The largest request body the proxy reads (32 MiB); larger ones are answered with 413. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024

/** Handles one request; a rejection is answered with a bare 500 (the handler should not reject). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/** A listening server. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Stops listening and destroys every open connection; resolves once the server is closed. */
  close(): Promise<void>
}

/** Listens on `port` of 127.0.0.1 (0, the default, takes a free port). */
export async function startServer(handler: RequestHandler, port = 0): Promise<RunningServer> {
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => answerCrash(res, error))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  // A client that sends garbage must not take the server down.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
    else socket.destroy()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
        server.closeAllConnections()
      }),
  }
}

/** Answers a request whose handler rejected: a 500 if nothing was sent yet, else a cut connection. */
export function answerCrash(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const message = `[agent-doubles] FakeProxy crashed on this request: ${error instanceof Error ? error.message : String(error)}`
  res.writeHead(500, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ error: { message, type: 'server_error', param: null, code: 'internal_error' } }))
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
