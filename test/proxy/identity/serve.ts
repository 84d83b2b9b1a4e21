/** A tiny node:http server on 127.0.0.1 for these tests; `close()` drops every connection. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TestServer {
  url: string
  close(): Promise<void>
}

export interface Answer {
  status: number
  headers?: Record<string, string>
  body: unknown
}

/** Reads the whole body of a request as text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Writes `answer` as JSON. */
export function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
  res.end(JSON.stringify(answer.body))
}

export async function serve(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void): Promise<TestServer> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      res.writeHead(599).end(String(err))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
