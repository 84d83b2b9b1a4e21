/**
 * Tiny node:http servers for the record-mode tests, on 127.0.0.1 and closed when the test ends.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { onTestFinished } from 'vitest'

/** A running server: its URL, and `close()` (also called when the test finishes). */
export interface TinyServer {
  url: string
  close(): Promise<void>
}

/** Serves `handler` on a free port of 127.0.0.1; every socket is destroyed on close. */
export async function serve(handler: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<TinyServer> {
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`test server failed: ${String(error)}`)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  let closed: Promise<void> | undefined
  const close = (): Promise<void> =>
    (closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      for (const socket of sockets) socket.destroy()
    }))
  onTestFinished(close)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close }
}

/** The whole body of a request. */
export async function readAll(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return new Uint8Array(Buffer.concat(chunks))
}

/** A URL on 127.0.0.1 where nothing listens (a port that was just freed). */
export async function deadOrigin(): Promise<string> {
  const server = await serve(() => undefined)
  await server.close()
  return server.url
}

/** A promise with its resolver, for stepping a server through an answer. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}
