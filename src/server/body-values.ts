/**
 * The bound on how many JSON values one request body may hold (SPEC §24: no request of ≤ 32 MiB
 * blocks the event loop for 250 ms). Parsing is done in slices (sliced-json.ts), but validation,
 * decoding and the prompt layout each walk the whole request in one step, and their cost (and the
 * collector's, copying what they build) grows with the number of values, not the bytes: 800,000
 * one-word messages (25 MiB) took 1–2 s a step. A body over the bound is refused with the route's
 * own 400 before any of those steps, as the providers refuse arrays over their own limits.
 *
 * A value is every object, array, string, number, `true`, `false` and `null`; keys are not
 * values. Counted in the pass that already checks the depth of a large body; a body under
 * `LARGE_BODY` is counted only when the bound is set so low that it could hold more.
 * @module
 */
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, CR, LF, OPEN_ARRAY, OPEN_OBJECT, QUOTE, SPACE, TAB } from './json-bytes.js'

/**
 * The default bound on the JSON values of one request body. A real agent's conversation of a few
 * thousand messages, with its tools, holds tens of thousands. At 600,000, a body just under the
 * bound (200,000 one-word messages) still held the loop for 150–240 ms of CPU and up to 330 ms of
 * wall-clock on a quiet machine, in one step of decoding; at 300,000 it is about half that.
 * 50,000 tool call/result pairs (450,000–550,000 values) now need the bound raised.
 */
export const DEFAULT_MAX_BODY_VALUES = 300_000

/**
 * Whether a body of `bytes` bytes can hold more than `max` values at all: the densest JSON
 * (`[0,0,0,…]`) holds one value per two bytes. With the default, no body under 1 MiB can, so
 * small bodies are never counted.
 */
export function mayHoldMoreThan(bytes: number, max: number): boolean {
  return (bytes + 1) / 2 > max
}

/**
 * Counts values as the scan goes, one byte at a time: a value is the whole text, or follows a
 * comma, or is the first in a non-empty container (`values = 1 + commas + non-empty containers`
 * for JSON text). Bytes inside strings are not shown to it.
 */
export class ValueCounter {
  #commas = 0
  #filled = 0
  /** The last byte outside strings that was not white space (a string's closing quote included). */
  #last = 0

  /** Notes `byte`, which is outside any string. */
  see(byte: number): void {
    if (byte === SPACE || byte === LF || byte === CR || byte === TAB) return
    if (byte === COMMA) this.#commas++
    else if ((byte === CLOSE_OBJECT && this.#last !== OPEN_OBJECT) || (byte === CLOSE_ARRAY && this.#last !== OPEN_ARRAY)) this.#filled++
    this.#last = byte
  }

  /** Notes the closing quote of a string. */
  closeString(): void {
    this.#last = QUOTE
  }

  /** The values seen so far. */
  get count(): number {
    return 1 + this.#commas + this.#filled
  }
}

/** The values of the JSON text in `bytes`, in one pass (for a small body, when the bound is set low). */
export function countValues(bytes: Uint8Array): number {
  const counter = new ValueCounter()
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]
    if (inString) {
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) {
        inString = false
        counter.closeString()
      }
    } else if (byte === QUOTE) inString = true
    else counter.see(byte)
  }
  return counter.count
}

/** The 400's message for a body of `count` values over `max`: the count, the bound, and the option that moves it. */
export function tooManyValuesMessage(count: number, max: number): string {
  return (
    `request body holds ${count} JSON values, more than the ${max} allowed (maxBodyValues); ` +
    'send fewer messages, parts or schema properties, or raise the bound with new FakeProxy({ maxBodyValues }) or agent-doubles serve --max-body-values'
  )
}

/** The values of `body` when it holds more than `max`, else `undefined`; counted only if it could (see {@link mayHoldMoreThan}). */
export function valuesOver(body: Uint8Array, max: number): number | undefined {
  if (!mayHoldMoreThan(body.byteLength, max)) return undefined
  const count = countValues(body)
  return count > max ? count : undefined
}
