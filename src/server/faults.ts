/**
 * Injected failures beyond refusals (SPEC §5.7): `proxy.fail()` plans answers that break
 * mid-way, so tests can exercise retry and recovery code.
 * @module
 */
import type { ServerResponse } from 'node:http'
import { utf8Bytes } from '../internal/bytes.js'
import { argumentError, checkOptions, is } from '../internal/describe.js'
import { closed } from './drained.js'

/** How an answer breaks: the socket is cut, the body is invalid JSON, or it stops sending. */
export type FaultKind = 'disconnect' | 'malformed' | 'stall'

/** Options of `proxy.fail()`. */
export interface FailOptions {
  /** How the answer breaks. */
  kind: FaultKind
  /**
   * SSE events sent before the break; a JSON body breaks half-way through instead. With
   * `disconnect`, `0` cuts the socket before the status line: a connection error, which the
   * SDKs retry (a cut after the headers is not retried).
   * @default 1
   */
  afterChunks?: number
  /**
   * How many of the next model answers break.
   * @default 1
   */
  times?: number
}

/** One planned break, applied to one answer. */
export interface Fault {
  kind: FaultKind
  afterChunks: number
}

const kinds: readonly FaultKind[] = ['disconnect', 'malformed', 'stall']

/** The queue of planned faults; each answer takes at most one. */
export class FaultPlan {
  readonly #queue: { fault: Fault; remaining: number }[] = []

  /** Plans `options.times` faults after those already planned; throws on bad options. */
  add(options: FailOptions): void {
    const owner = 'FakeProxy fail()'
    if (!is.object(options)) throw argumentError(owner, 'options', 'an object like { kind: "disconnect" }', options)
    checkOptions(owner, options, {
      kind: [kinds.map((kind) => JSON.stringify(kind)).join(' | '), (value) => kinds.includes(value as FaultKind)],
      afterChunks: ['a non-negative integer', (value) => Number.isInteger(value) && (value as number) >= 0],
      times: ['a positive integer', is.positiveInteger],
    })
    if (!kinds.includes(options.kind)) throw argumentError(owner, 'option kind', kinds.map((kind) => JSON.stringify(kind)).join(' | '), options.kind)
    this.#queue.push({ fault: { kind: options.kind, afterChunks: options.afterChunks ?? 1 }, remaining: options.times ?? 1 })
  }

  /** The fault the next answer must carry, if any (consumes one). */
  take(): Fault | undefined {
    const next = this.#queue[0]
    if (!next) return undefined
    if (--next.remaining === 0) this.#queue.shift()
    return next.fault
  }

  /** Drops every planned fault. */
  clear(): void {
    this.#queue.length = 0
  }
}

/**
 * Writes a JSON answer broken by `fault`: half the body then a cut socket (`disconnect`; with
 * `afterChunks: 0`, the socket is cut before anything is sent),
 * a truncated body that is not JSON (`malformed`), or half the body and then nothing (`stall`).
 */
export async function writeBrokenJson(
  res: ServerResponse,
  status: number,
  headers: readonly string[],
  text: string,
  fault: Fault,
): Promise<void> {
  if (fault.kind === 'disconnect' && fault.afterChunks === 0) {
    // Cut before the status line: a connection error, which clients retry.
    res.socket?.destroy()
    return
  }
  const bytes = utf8Bytes(text)
  const half = bytes.subarray(0, Math.max(1, Math.floor(bytes.byteLength / 2)))
  if (fault.kind === 'malformed') {
    res.writeHead(status, [...headers, 'content-length', String(half.length)])
    res.end(half)
    return
  }
  // Announce the whole length so the client waits for bytes that never come.
  res.writeHead(status, [...headers, 'content-length', String(bytes.byteLength)])
  const gone = closed(res)
  const flushed = new Promise<void>((resolve) => res.write(half, () => resolve()))
  if (fault.kind === 'disconnect') {
    await Promise.race([flushed, gone])
    res.socket?.destroy()
  } else await gone
}
