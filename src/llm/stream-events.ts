/**
 * Turns a whole `ModelResponse` into the `StreamEvent`s a streamed call yields: text and
 * reasoning split into chunks, tool calls whole, one `finish` at the end.
 * @module
 */
import type { ModelResponse, StreamEvent } from './types.js'

/** How streamed text is split: by word (each word keeps its trailing space), by character, or every `n` characters. */
export type Chunking = 'words' | 'chars' | number

/** Delays of a streamed answer, in milliseconds. */
export interface Latency {
  /** Before the first chunk. @default 0 */
  firstChunkMs?: number
  /** Between chunks. @default 0 */
  chunkMs?: number
}

/** Splits `text` into chunks that join back to exactly `text`; `''` gives no chunks. */
export function chunkText(text: string, chunking: Chunking): string[] {
  return Array.from(eachChunk(text, chunking))
}

/** The chunks of {@link chunkText}, one at a time, so a long reply is never held split up. */
function* eachChunk(text: string, chunking: Chunking): Generator<string> {
  if (text === '') return
  if (chunking === 'chars') {
    yield* text
    return
  }
  if (typeof chunking === 'number') {
    let chunk = ''
    let size = 0
    for (const char of text) {
      chunk += char
      if (++size === chunking) {
        yield chunk
        chunk = ''
        size = 0
      }
    }
    if (size > 0) yield chunk
    return
  }
  // Each chunk is a word with the whitespace after it (the first also takes any before it).
  // Scanned by hand: a regular expression's match objects cost a stream more than its events.
  let start = 0
  let at = skipSpace(text, 0)
  if (at === text.length) {
    yield text
    return
  }
  while (at < text.length) {
    while (at < text.length && !isSpace(text.charCodeAt(at))) at++
    at = skipSpace(text, at)
    yield text.slice(start, at)
    start = at
  }
}

/** The index of the first character at or after `at` that is not white space. */
function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++
  return at
}

/** Whether a UTF-16 code unit is white space, as `\s` in a regular expression has it. */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d)
  if (code < 0xa0) return false
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
}

/** The events of `response`, in content order, without delays. */
export function responseEvents(response: ModelResponse, chunking: Chunking): StreamEvent[] {
  return Array.from(eachEvent(response, chunking))
}

/** The events of {@link responseEvents}, made one at a time as they are read. @internal */
export function* eachEvent(response: ModelResponse, chunking: Chunking): Generator<StreamEvent> {
  for (const part of response.content) {
    if (part.type === 'text') {
      // An empty text still streams as one (empty) delta, so a stream carries the same text
      // block the JSON answer does.
      if (part.text === '') yield { type: 'text-delta', text: '' }
      for (const text of eachChunk(part.text, chunking)) yield { type: 'text-delta', text }
    } else if (part.type === 'reasoning') {
      for (const text of eachChunk(part.text, chunking)) yield { type: 'reasoning-delta', text }
    } else if (part.type === 'tool-call') yield { type: 'tool-call', id: part.id, name: part.name, args: part.args }
  }
  yield { type: 'finish', response }
}

/**
 * Yields the events of `response` with the configured delays: `firstChunkMs` before the first
 * event, `chunkMs` between events. No timer is armed when a delay is 0; an aborted `signal`
 * clears the pending timer and fails the stream with the signal's reason. Events are made as they are read, so memory
 * stays flat however many there are.
 */
export async function* streamResponse(
  response: ModelResponse,
  chunking: Chunking,
  latency: Latency = {},
  signal?: AbortSignal,
): AsyncGenerator<StreamEvent> {
  const firstChunkMs = latency.firstChunkMs ?? 0
  const chunkMs = latency.chunkMs ?? 0
  let delay = firstChunkMs
  for (const event of eachEvent(response, chunking)) {
    signal?.throwIfAborted()
    if (delay > 0) await sleep(delay, signal)
    signal?.throwIfAborted()
    delay = chunkMs
    yield event
  }
}

/**
 * Waits on the global timer, so a test's fake timers (`vi.useFakeTimers()`) control latency
 * too. Settles early, with the timer cleared, when `signal` aborts first.
 */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * The key of an internal protocol between a brain and the proxy: a stream that has it hands
 * over, once its answer is known, all of its events as a plain iterator, which the proxy encodes
 * and writes with no `await` per event. A stream's consumer uses either it or the async iterator,
 * not both. @internal
 */
export const eventsAtOnce = Symbol.for('agent-doubles.eventsAtOnce')

/** A stream that may offer its events at once (see {@link eventsAtOnce}). @internal */
export interface MaybeAtOnce {
  [eventsAtOnce]?(): Promise<Iterator<StreamEvent, undefined>>
}

/**
 * A stream without delays whose events are all known once `start` settles: an async iterator
 * for any caller (checking `signal` before each event, as {@link streamResponse} does), and the
 * {@link eventsAtOnce} protocol for the proxy. `start` runs on the first read, not before (and
 * cleans up after itself when it fails); once it has succeeded, `done` runs once, when the events
 * run out or the reader stops early.
 * @internal
 */
export class ImmediateStream implements AsyncIterableIterator<StreamEvent>, MaybeAtOnce {
  readonly #start: () => Promise<Iterable<StreamEvent>>
  readonly #done: () => void
  readonly #signal: () => AbortSignal | undefined
  #events: Promise<Iterator<StreamEvent, undefined>> | undefined
  #started = false
  #finished = false

  constructor(start: () => Promise<Iterable<StreamEvent>>, done: () => void, signal: () => AbortSignal | undefined) {
    this.#start = start
    this.#done = done
    this.#signal = signal
  }

  [eventsAtOnce](): Promise<Iterator<StreamEvent, undefined>> {
    this.#events ??= this.#begin()
    return this.#events
  }

  async next(): Promise<IteratorResult<StreamEvent, undefined>> {
    this.#signal()?.throwIfAborted()
    const events = await this[eventsAtOnce]()
    this.#signal()?.throwIfAborted()
    return events.next()
  }

  async return(): Promise<IteratorResult<StreamEvent, undefined>> {
    this.#finish()
    return { done: true, value: undefined }
  }

  [Symbol.asyncIterator](): this {
    return this
  }

  async #begin(): Promise<Iterator<StreamEvent, undefined>> {
    const source = (await this.#start())[Symbol.iterator]()
    this.#started = true
    // The reader may have stopped while the answer was being made.
    if (this.#finished) this.#done()
    return {
      next: () => {
        const step = this.#finished ? undefined : source.next()
        if (step && !step.done) return step
        this.#finish()
        return { done: true, value: undefined }
      },
      return: () => {
        this.#finish()
        return { done: true, value: undefined }
      },
    }
  }

  #finish(): void {
    if (this.#finished) return
    this.#finished = true
    if (this.#started) this.#done()
  }
}
