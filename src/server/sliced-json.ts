/**
 * `JSON.parse` of a large body in slices (SPEC §24: no request of ≤ 32 MiB holds the event loop
 * for 250 ms). One `JSON.parse` of 32 MiB takes 200–700 ms, and decoding the bytes to one string
 * as long again; no native parser can be paused. So the body is parsed in pieces: a first pass
 * over the bytes (the depth check's own pass) notes where each value of at least
 * {@link LEAF_BYTES} starts and ends; the objects, arrays and strings that large are then built
 * here, and everything smaller is handed to `JSON.parse` in runs of about {@link LEAF_BYTES} (a
 * run of an array's items as `[…]`, of an object's members as `{…}`, a long string a piece at a
 * time), with a turn of the event loop whenever a slice of work is used up. The value is the one
 * `JSON.parse` gives: the same keys in the same order (later duplicates win in the first one's
 * place), the same strings, numbers and `__proto__` as an own property. Text it cannot read is
 * left to the caller, who parses it at once to give `JSON.parse`'s own error.
 * @module
 */
import type { LoopSlices } from '../internal/scheduling.js'
import { ValueCounter } from './body-values.js'
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, CR, LF, OPEN_ARRAY, OPEN_OBJECT, QUOTE, SPACE, TAB, U } from './json-bytes.js'

/** Values (objects, arrays, strings) at least this many bytes long are built a piece at a time. */
export const LEAF_BYTES = 64 * 1024

/** Where each large value starts and ends (the byte after it), from the first pass. */
export type LargeSpans = Map<number, number>

/** How many bytes the first pass reads between looks at the clock. */
const SCAN_STEP = 256 * 1024

/** What the first pass found: too deep, or where the large values are and how many values there are (see body-values.ts). */
export type Scan = { deep: true } | { deep: false; spans: LargeSpans; values: number }

/**
 * The first pass: whether `bytes` nest deeper than `limit` (as `nestsDeeperThan` says, for the
 * same bytes), where each object, array and string of at least {@link LEAF_BYTES} starts and
 * ends, and how many JSON values the text holds (`ValueCounter`). In slices of the event loop.
 */
export async function scanLarge(bytes: Uint8Array, limit: number, slices: LoopSlices): Promise<Scan> {
  const spans: LargeSpans = new Map()
  // Where each open container started, innermost last.
  const opened: number[] = []
  const values = new ValueCounter()
  let depth = 0
  let inString = false
  let stringStart = 0
  let look = SCAN_STEP
  for (let i = 0; i < bytes.length; i++) {
    if (i >= look) {
      look = i + SCAN_STEP
      const pause = slices.turn()
      if (pause) await pause
    }
    const byte = bytes[i]
    if (inString) {
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) {
        inString = false
        values.closeString()
        if (i + 1 - stringStart >= LEAF_BYTES) spans.set(stringStart, i + 1)
      }
    } else if (byte === QUOTE) {
      inString = true
      stringStart = i
    } else {
      values.see(byte)
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (++depth > limit) return { deep: true }
        opened.push(i)
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth--
        const start = opened.pop()
        if (start !== undefined && i + 1 - start >= LEAF_BYTES) spans.set(start, i + 1)
      }
    }
  }
  return { deep: false, spans, values: values.count }
}

/**
 * Whether `bytes` are UTF-8, read a piece at a time with turns of the event loop between:
 * decoding them whole, only to throw the text away, took 150–350 ms for 32 MiB.
 */
export async function isUtf8(bytes: Uint8Array, slices: LoopSlices): Promise<boolean> {
  const stream = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  try {
    for (let at = 0; at < bytes.length; at += LEAF_BYTES * 4) {
      stream.decode(bytes.subarray(at, at + LEAF_BYTES * 4), { stream: true })
      const pause = slices.turn()
      if (pause) await pause
    }
    stream.decode()
    return true
  } catch {
    return false
  }
}

/** The text cannot be read here; the caller parses it at once, for `JSON.parse`'s own error. */
export class Unreadable extends Error {}

/**
 * The value of the JSON text in `bytes` (UTF-8, already checked to be valid), built from the
 * first pass's `spans` with `JSON.parse` for every piece smaller than {@link LEAF_BYTES}, in
 * slices of the event loop. Throws {@link Unreadable} for text it cannot read.
 */
export async function parseSliced(bytes: Uint8Array, spans: LargeSpans, slices: LoopSlices): Promise<unknown> {
  const reader = new SlicedReader(bytes, spans, slices)
  // A byte-order mark is no part of the text, as the decoder of the whole body drops it.
  let at = reader.skipSpace(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0)
  const [value, end] = await reader.value(at)
  at = reader.skipSpace(end)
  if (at !== bytes.length) throw new Unreadable()
  return value
}

// Pieces are cut between characters, and may start with U+FEFF: kept, as inside the whole text.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true })

class SlicedReader {
  constructor(
    readonly bytes: Uint8Array,
    readonly spans: LargeSpans,
    readonly slices: LoopSlices,
  ) {}

  /** The value at `at` and where it ends. */
  async value(at: number): Promise<[unknown, number]> {
    const end = this.spans.get(at)
    if (end === undefined) {
      const small = this.endOfValue(at)
      return [this.parse(at, small), small]
    }
    const byte = this.bytes[at]
    if (byte === OPEN_ARRAY) return [await this.array(at, end), end]
    if (byte === OPEN_OBJECT) return [await this.object(at, end), end]
    return [await this.string(at, end), end]
  }

  async array(start: number, end: number): Promise<unknown[]> {
    const items: unknown[] = []
    let at = this.skipSpace(start + 1)
    if (this.bytes[at] === CLOSE_ARRAY) return this.closed(items, at, end)
    // A run of small items, parsed together as `[…]`.
    let run = -1
    let runEnd = -1
    const flush = async (): Promise<void> => {
      if (run === -1) return
      const parsed = this.parse(run, runEnd, OPEN_ARRAY) as unknown[]
      for (let i = 0; i < parsed.length; i++) items.push(parsed[i])
      run = -1
      await this.turn()
    }
    for (;;) {
      if (this.spans.has(at)) {
        await flush()
        const [value, next] = await this.value(at)
        items.push(value)
        at = next
      } else {
        const next = this.endOfValue(at)
        if (run === -1) run = at
        runEnd = next
        at = next
        if (runEnd - run >= LEAF_BYTES) await flush()
      }
      at = this.skipSpace(at)
      const byte = this.bytes[at]
      if (byte === CLOSE_ARRAY) break
      if (byte !== COMMA) throw new Unreadable()
      at = this.skipSpace(at + 1)
    }
    await flush()
    return this.closed(items, at, end)
  }

  async object(start: number, end: number): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {}
    let at = this.skipSpace(start + 1)
    if (this.bytes[at] === CLOSE_OBJECT) return this.closed(out, at, end)
    // A run of small members, parsed together as `{…}`.
    let run = -1
    let runEnd = -1
    const flush = async (): Promise<void> => {
      if (run === -1) return
      const parsed = this.parse(run, runEnd, OPEN_OBJECT) as Record<string, unknown>
      for (const key of Object.keys(parsed)) assign(out, key, parsed[key])
      run = -1
      await this.turn()
    }
    for (;;) {
      if (this.bytes[at] !== QUOTE) throw new Unreadable()
      const keyStart = at
      const keyEnd = this.spans.get(at) ?? this.endOfString(at)
      at = this.skipSpace(keyEnd)
      if (this.bytes[at] !== COLON) throw new Unreadable()
      at = this.skipSpace(at + 1)
      if (this.spans.has(keyStart) || this.spans.has(at)) {
        await flush()
        const key = (await this.value(keyStart))[0] as string
        const [value, next] = await this.value(at)
        assign(out, key, value)
        at = next
      } else {
        const next = this.endOfValue(at)
        if (run === -1) run = keyStart
        runEnd = next
        at = next
        if (runEnd - run >= LEAF_BYTES) await flush()
      }
      at = this.skipSpace(at)
      const byte = this.bytes[at]
      if (byte === CLOSE_OBJECT) break
      if (byte !== COMMA) throw new Unreadable()
      at = this.skipSpace(at + 1)
    }
    await flush()
    return this.closed(out, at, end)
  }

  /** A long string, a piece at a time: pieces cut between characters and outside escapes. */
  async string(start: number, end: number): Promise<string> {
    const { bytes } = this
    const last = end - 1
    let text = ''
    for (let at = start + 1; at < last; ) {
      let cut = Math.min(last, at + LEAF_BYTES)
      // Not inside a UTF-8 character…
      while (cut < last && (bytes[cut] & 0xc0) === 0x80) cut--
      // …nor inside an escape (`\n`, `\uXXXX`).
      for (let i = at; i < cut; i++) {
        if (bytes[i] !== BACKSLASH) continue
        const after = i + (bytes[i + 1] === U ? 6 : 2)
        if (after > cut) {
          cut = i
          break
        }
        i = after - 1
      }
      if (cut <= at) throw new Unreadable()
      text += this.parse(at, cut, QUOTE) as string
      at = cut
      await this.turn()
    }
    return text
  }

  /** `JSON.parse` of bytes `start` to `end`; `wrap` puts them in `[…]`, `{…}` or `"…"` first. */
  parse(start: number, end: number, wrap?: number): unknown {
    let text = decoder.decode(this.bytes.subarray(start, end))
    if (wrap === OPEN_ARRAY) text = `[${text}]`
    else if (wrap === OPEN_OBJECT) text = `{${text}}`
    else if (wrap === QUOTE) text = `"${text}"`
    try {
      return JSON.parse(text)
    } catch {
      throw new Unreadable()
    }
  }

  /** Where the small value at `at` ends: past its closing bracket or quote, or its last character. */
  endOfValue(at: number): number {
    const { bytes } = this
    const first = bytes[at]
    if (first === QUOTE) return this.endOfString(at)
    if (first === OPEN_ARRAY || first === OPEN_OBJECT) {
      let depth = 0
      for (let i = at; i < bytes.length; i++) {
        const byte = bytes[i]
        if (byte === QUOTE) i = this.endOfString(i) - 1
        else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) depth++
        else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
          if (--depth === 0) return i + 1
        }
      }
      throw new Unreadable()
    }
    let i = at
    while (i < bytes.length) {
      const byte = bytes[i]
      if (byte === COMMA || byte === CLOSE_ARRAY || byte === CLOSE_OBJECT || byte === SPACE || byte === TAB || byte === LF || byte === CR) break
      i++
    }
    if (i === at) throw new Unreadable()
    return i
  }

  /** Past the closing quote of the string at `at`. */
  endOfString(at: number): number {
    const { bytes } = this
    for (let i = at + 1; i < bytes.length; i++) {
      const byte = bytes[i]
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) return i + 1
    }
    throw new Unreadable()
  }

  skipSpace(at: number): number {
    const { bytes } = this
    while (at < bytes.length) {
      const byte = bytes[at]
      if (byte !== SPACE && byte !== TAB && byte !== LF && byte !== CR) break
      at++
    }
    return at
  }

  /** `value`, once its closing bracket at `at` is where the first pass said it ends. */
  closed<T>(value: T, at: number, end: number): T {
    if (at + 1 !== end) throw new Unreadable()
    return value
  }

  turn(): Promise<void> | undefined {
    return this.slices.turn()
  }
}

/** `out[key] = value` as `JSON.parse` sets it: an own property, `__proto__` included. */
function assign(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  else out[key] = value
}
