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
  const chunks: string[] = []
  for (let at = 0; at < text.length; ) {
    const end = chunkEnd(text, at, chunking)
    chunks.push(text.slice(at, end))
    at = end
  }
  return chunks
}

/**
 * Where the chunk of `text` starting at `at` ends. A word chunk is the word with the white space
 * after it (the first also takes any before it); `chars` and a number count code points, so a
 * surrogate pair is never split. Scanned by hand: a regular expression's match objects cost a
 * stream more than its events.
 */
function chunkEnd(text: string, at: number, chunking: Chunking): number {
  if (chunking === 'words') {
    let end = at === 0 ? skipSpace(text, 0) : at
    // Printable ASCII is settled here: the call per character is for the rest.
    for (let code = text.charCodeAt(end); end < text.length; code = text.charCodeAt(++end)) {
      if (code > 0x20 && code < 0x7f) continue
      if (isSpace(code)) break
    }
    return skipSpace(text, end)
  }
  let end = at
  for (let count = chunking === 'chars' ? 1 : chunking; count > 0 && end < text.length; count--) end += codePointLength(text, end)
  return end
}

/** 2 where a surrogate pair starts at `at`, else 1. */
function codePointLength(text: string, at: number): number {
  const code = text.charCodeAt(at)
  if (code < 0xd800 || code > 0xdbff || at + 1 >= text.length) return 1
  const next = text.charCodeAt(at + 1)
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1
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
export function eachEvent(response: ModelResponse, chunking: Chunking): IterableIterator<StreamEvent> {
  return new ResponseEvents(response, chunking)
}

/**
 * The events of a response, made as they are read: a cursor over its parts and the chunks of
 * the current text. A stream's events pass through here one by one, so it keeps to one object
 * per event (no generator frames, no iterator results nested in iterator results).
 */
class ResponseEvents implements IterableIterator<StreamEvent> {
  readonly #response: ModelResponse
  readonly #chunking: Chunking
  /** The part being streamed; `content.length` once the finish is next, past it once done. */
  #part = 0
  /** Where the next chunk of the current text part starts; -1 before the part has begun. */
  #at = -1

  constructor(response: ModelResponse, chunking: Chunking) {
    this.#response = response
    this.#chunking = chunking
  }

  [Symbol.iterator](): this {
    return this
  }

  next(): IteratorResult<StreamEvent, undefined> {
    const event = this.#nextEvent()
    return event === undefined ? { done: true, value: undefined } : { done: false, value: event }
  }

  #nextEvent(): StreamEvent | undefined {
    const { content } = this.#response
    while (this.#part < content.length) {
      const part = content[this.#part]
      if (part.type === 'text' || part.type === 'reasoning' || part.type === 'refusal') {
        const type = part.type === 'text' ? 'text-delta' : part.type === 'refusal' ? 'refusal-delta' : 'reasoning-delta'
        const { text } = part
        const start = Math.max(this.#at, 0)
        if (start < text.length) {
          const end = chunkEnd(text, start, this.#chunking)
          this.#at = end
          return { type, text: text.slice(start, end) }
        }
        // An empty text still streams as one (empty) delta, so a stream carries the same text
        // block the JSON answer does.
        if (text === '' && type === 'text-delta' && this.#at === -1) {
          this.#at = 0
          return { type, text: '' }
        }
      } else if (part.type === 'tool-call' && this.#at === -1) {
        this.#at = 0
        return part.argsText === undefined
          ? { type: 'tool-call', id: part.id, name: part.name, args: part.args }
          : { type: 'tool-call', id: part.id, name: part.name, args: part.args, argsText: part.argsText }
      }
      this.#part++
      this.#at = -1
    }
    if (this.#part === content.length) {
      this.#part++
      return { type: 'finish', response: this.#response }
    }
    return undefined
  }
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
 * and writes with no `await` per event. The events end with the answer's `finish` (unless the
 * reader stops first). A stream's consumer uses either it or the async iterator, not both.
 * @internal
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
