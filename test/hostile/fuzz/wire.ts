/**
 * Sending one fuzz body over a real socket with exactly the headers chosen (fetch would add a
 * content type of its own), and judging what came back: JSON, no 5xx, and an error body shaped
 * like the route's own.
 */
import { Agent, request } from 'node:http'
import type { FuzzBody } from './mutate.js'

/** What came back for one body. */
export interface Reply {
  readonly status: number
  readonly type: string
  readonly text: string
  readonly headers: Record<string, string | string[] | undefined>
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** Ends the kept-alive socket, so the servers close without waiting for it. */
export function dropSockets(): void {
  agent.destroy()
}

/** Sends `body` with `method` to `url`; `extra` headers are added as given. */
export function send(url: string, method: string, body: FuzzBody | undefined, extra: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const bytes = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body.text) ? body.text : Buffer.from(body.text)
    const headers: Record<string, string> = { ...extra }
    if (body !== undefined) headers['content-length'] = String(bytes.length)
    if (body?.contentType !== undefined) headers['content-type'] = body.contentType
    const req = request(url, { method, headers, agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('no answer in 30 s')))
    req.on('error', reject)
    req.end(bytes)
  })
}

/** The shape of a JSON value: its keys and the kinds of its leaves (a string and `null` alike). */
function kind(value: unknown): string {
  if (value === null || typeof value === 'string') return 'string|null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/**
 * Where `actual` lacks a key `expected` has, or holds another kind of value there; `[]` when
 * it is the same shape. Keys `actual` has beyond `expected`'s are allowed at depth, not at the top.
 */
export function shapeDifferences(expected: unknown, actual: unknown, at = '', top = true): string[] {
  if (kind(expected) !== kind(actual)) return [`${at || '(body)'}: ${kind(actual)} where ${kind(expected)} belongs`]
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return []
  const got = actual as Record<string, unknown>
  const wanted = expected as Record<string, unknown>
  const out: string[] = []
  for (const key of Object.keys(wanted)) {
    if (!Object.hasOwn(got, key)) out.push(`${at}${key}: missing`)
    else out.push(...shapeDifferences(wanted[key], got[key], `${at}${key}.`, false))
  }
  if (top) for (const key of Object.keys(got)) if (!Object.hasOwn(wanted, key) && key !== 'request_id') out.push(`${at}${key}: not in the route's error shape`)
  return out
}

/** The answer's body as JSON, or why it is not. */
export function parseReply(reply: Reply): { json: unknown } | { problem: string } {
  if (reply.text === '' && (reply.status === 202 || reply.status === 204)) return { json: undefined }
  try {
    return { json: JSON.parse(reply.text) }
  } catch {
    return { problem: `not JSON (${reply.type}): ${reply.text.slice(0, 120)}` }
  }
}

/** Whether the answer is a stream in one of the framings the dialects use (judged as a success). */
export function isStream(reply: Reply): boolean {
  return /^(text\/event-stream|application\/x-ndjson|application\/vnd\.amazon\.eventstream)/.test(reply.type)
}
