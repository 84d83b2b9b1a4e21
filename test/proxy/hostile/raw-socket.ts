/** Raw-socket helpers for the hostile-input tests: bytes no HTTP client would send. */
import { connect } from 'node:net'

/** A raw HTTP answer split into its parts. */
export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Writes `bytes` to the proxy on a fresh connection and reads until the server closes it. */
export function sendRaw(url: string, bytes: string | Buffer): Promise<RawAnswer> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes))
    socket.on('data', (chunk) => chunks.push(chunk))
    // The server may close before reading everything we wrote: that is its answer, not a failure.
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)))
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks).toString('utf8'))))
  })
}

function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n')
  const [statusLine = '', ...lines] = text.slice(0, end === -1 ? text.length : end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: end === -1 ? '' : text.slice(end + 4) }
}
