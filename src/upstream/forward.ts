/**
 * Forwarding one request to a real upstream (record mode, SPEC §5.8): the caller's own headers
 * go up, and the upstream's answer comes back to the caller unchanged — status, content type
 * and body bytes, streamed as they arrive — while a copy of the whole body is kept for the
 * transcript.
 * @module
 */
import type { ServerResponse } from 'node:http'
import { concatBytes } from '../internal/bytes.js'
import { PREFIX } from '../internal/describe.js'
import { drainedOrClosed } from '../server/drained.js'
import type { Agent, fetch as undiciFetch } from 'undici'

/** What is sent upstream. */
export interface ForwardInput {
  /** Where the upstream lives, e.g. `https://api.openai.com`; `path` is appended to it. */
  origin: string
  method: string
  /** The request's path as received (a query string included, when there is one). */
  path: string
  /** The caller's headers, names lower-cased; the ones a proxy must not pass on are dropped here. */
  headers: Record<string, string>
  body: Uint8Array
}

/** The upstream's whole answer, once it ended. */
export interface ForwardResult {
  status: number
  contentType: string
  body: Uint8Array
}

/** Options of {@link forwardToUpstream}. */
export interface ForwardOptions {
  /**
   * Runs once the upstream's body ended and before the caller's answer is ended, so whatever
   * it does (writing a transcript line) is done by the time the caller's call returns. Its
   * errors are not the caller's: they reject nothing and are handed to `onError`.
   */
  beforeEnd?(result: ForwardResult): Promise<void> | void
  /** Told about an error of `beforeEnd`. */
  onError?(error: unknown): void
}

/** The upstream could not be reached (refused, reset, DNS…): nothing was written to the caller. */
export class UpstreamUnreachable extends Error {
  constructor(
    /** The URL that was tried. */
    readonly url: string,
    cause: unknown,
  ) {
    super(`${PREFIX} FakeProxy: upstream ${url} is unreachable: ${describeCause(cause)}`, { cause })
    this.name = 'UpstreamUnreachable'
  }
}

/** The upstream broke off its answer after it began (the caller's connection was cut too): no whole turn. */
export class UpstreamBrokeOff extends Error {
  constructor(
    /** The URL that was called. */
    readonly url: string,
    cause: unknown,
  ) {
    super(`${PREFIX} FakeProxy: upstream ${url} broke off its answer: ${describeCause(cause)}`, { cause })
    this.name = 'UpstreamBrokeOff'
  }
}

/**
 * Headers a proxy never passes on: hop-by-hop ones (RFC 9110 §7.6.1), `host` (the upstream's
 * own), `content-length` (recomputed for what is sent) and `accept-encoding` (fetch negotiates
 * and decodes compression itself, so the caller gets plain bytes). `x-viper-*` are the proxy's.
 */
const DROPPED_REQUEST_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'expect',
])

/**
 * Answer headers not passed back: hop-by-hop ones, and those describing the bytes on the
 * upstream's wire (fetch has decoded them; the caller's connection gets its own framing).
 */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'content-encoding',
  'set-cookie',
])

/** The caller's headers as the upstream gets them. */
export function upstreamHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase()
    if (DROPPED_REQUEST_HEADERS.has(key) || key.startsWith('x-viper-')) continue
    kept[key] = value
  }
  return kept
}

/** `origin` and `path` joined, without doubling the slash between them. */
export function upstreamUrl(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`
}

/**
 * Sends the request upstream and writes the answer to `res` as it arrives. Resolves with the
 * whole body once the upstream ended — also when the caller left early: the upstream is read
 * to its end, so the turn is recorded whole.
 * @example
 * const { status, body } = await forwardToUpstream({ origin: 'https://api.openai.com', method: 'POST', path: '/v1/chat/completions', headers, body }, res)
 * @throws {UpstreamUnreachable} the upstream could not be reached; nothing was written to `res`.
 * @throws {UpstreamBrokeOff} the upstream's answer broke off mid-way; `res` was destroyed.
 */
export async function forwardToUpstream(input: ForwardInput, res: ServerResponse, options: ForwardOptions = {}): Promise<ForwardResult> {
  const url = upstreamUrl(input.origin, input.path)
  // Record mode is real traffic by request. Its own dispatcher, never the global one, keeps it
  // out of the network guard's reach — a path no caller can choose by argument — and is closed
  // once the answer ended, so no socket outlives the turn.
  // undici is loaded on the first forward, not at the top: record mode is Node's, and the proxy
  // must load without it where only proxy.fetch can run (a browser, an edge runtime).
  const { Agent, fetch } = await import('undici')
  const upstreamAgent = new Agent()
  try {
    return await forwardThrough(fetch, upstreamAgent, url, input, res, options)
  } finally {
    await upstreamAgent.close()
  }
}

async function forwardThrough(
  fetchUpstream: typeof undiciFetch,
  upstreamAgent: Agent, url: string, input: ForwardInput, res: ServerResponse, options: ForwardOptions): Promise<ForwardResult> {
  const method = input.method.toUpperCase()
  let answer: Awaited<ReturnType<typeof undiciFetch>>
  try {
    answer = await fetchUpstream(url, {
      method,
      headers: upstreamHeaders(input.headers),
      body: method === 'GET' || method === 'HEAD' ? undefined : input.body,
      // A proxy passes redirects back rather than following them on the caller's behalf.
      redirect: 'manual',
      dispatcher: upstreamAgent,
    })
  } catch (error) {
    throw new UpstreamUnreachable(url, error)
  }
  const contentType = answer.headers.get('content-type') ?? ''
  if (!res.destroyed && !res.headersSent) {
    res.writeHead(answer.status, responseHeaders(answer.headers))
    res.flushHeaders()
  }
  const chunks: Uint8Array[] = []
  if (answer.body) {
    const reader = answer.body.getReader()
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        chunks.push(next.value)
        await write(res, next.value)
      }
    } catch (error) {
      // The upstream broke off mid-answer: the caller sees its connection cut, as it would
      // through the real proxy, and the partial body is what the turn holds.
      res.destroy()
      throw new UpstreamBrokeOff(url, error)
    }
  }
  const result: ForwardResult = { status: answer.status, contentType, body: concat(chunks) }
  if (options.beforeEnd) {
    try {
      await options.beforeEnd(result)
    } catch (error) {
      options.onError?.(error)
    }
  }
  if (!res.destroyed) res.end()
  return result
}

function responseHeaders(headers: Awaited<ReturnType<typeof undiciFetch>>['headers']): Record<string, string> {
  const kept: Record<string, string> = {}
  headers.forEach((value, name) => {
    if (!DROPPED_RESPONSE_HEADERS.has(name)) kept[name] = value
  })
  return kept
}

/** Writes a chunk, waiting for the socket to drain when its buffer is full; a gone caller is skipped. */
async function write(res: ServerResponse, chunk: Uint8Array): Promise<void> {
  if (res.destroyed || res.writableEnded) return
  if (!res.write(chunk)) await drainedOrClosed(res)
}

function concat(chunks: Uint8Array[]): Uint8Array {
  return concatBytes(chunks)
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause
  const inner = cause instanceof Error ? `${(cause as { code?: string }).code ?? cause.name}: ${cause.message}` : undefined
  const outer = error instanceof Error ? error.message : String(error)
  return inner ? `${outer} (${inner})` : outer
}
