/**
 * Large request bodies read without holding the event loop (SPEC §24: no request of ≤ 32 MiB
 * blocks it for more than 250 ms). Joining, depth-checking, decoding and parsing 32 MiB each took
 * 150–700 ms on a loaded machine, one after another. A body of {@link LARGE_BODY} bytes or more
 * is read in slices of the event loop instead: copied into place as it arrives (read-body.ts),
 * depth-checked and UTF-8-checked a piece at a time, and parsed in pieces (sliced-json.ts); the
 * hot path gives the loop a turn between its later steps too. Smaller bodies take the one-turn
 * path as before. The outcome is the same either way: the same value, the same errors.
 * @module
 */
import { LoopSlices, yieldToLoop } from '../internal/scheduling.js'
import { MAX_JSON_DEPTH } from './json-depth.js'
import { tooManyValuesMessage } from './body-values.js'
import { isUtf8, parseSliced, scanLarge, Unreadable } from './sliced-json.js'
import { syntaxErrorOf } from './syntax-error.js'

/** Bodies of this many bytes or more are read in slices, with turns of the event loop between steps. */
export const LARGE_BODY = 1024 * 1024

/** A turn of the event loop when `body` is large, else `undefined` (the hot path awaits nothing). */
export function turnFor(body: Uint8Array | undefined): Promise<void> | undefined {
  return body !== undefined && body.byteLength >= LARGE_BODY ? yieldToLoop() : undefined
}

/** What is wrong with a body that is not a JSON object, in the words of the 400 it gets. */
export const bodyErrors = {
  deep: `request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
  utf8: 'request body is not valid UTF-8',
  json: (why: string): string => `request body is not valid JSON: ${why}`,
  notObject: 'request body must be a JSON object',
} as const

/**
 * A large body parsed: its value, or the 400's message (`tooMany` when it holds more values than
 * `maxBodyValues`: a body of JSON the client meant, recorded like a rejected request).
 */
export type LargeParse = { kind: 'ok'; json: unknown } | { kind: 'error'; message: string; tooMany?: true }

/**
 * `body` (at least {@link LARGE_BODY} bytes) checked and parsed as the one-turn path does —
 * depth, then the number of values (at most `maxValues`), then UTF-8, then JSON — in slices of
 * the event loop.
 */
export async function parseLargeBody(body: Uint8Array, maxValues = Number.POSITIVE_INFINITY): Promise<LargeParse> {
  // The body's last bytes arrived in this turn: the checks start in the next.
  await yieldToLoop()
  const slices = new LoopSlices()
  const scan = await scanLarge(body, MAX_JSON_DEPTH, slices)
  if (scan.deep) return { kind: 'error', message: bodyErrors.deep }
  if (scan.values > maxValues) return { kind: 'error', message: tooManyValuesMessage(scan.values, maxValues), tooMany: true }
  if (!(await isUtf8(body, slices))) return { kind: 'error', message: bodyErrors.utf8 }
  try {
    return { kind: 'ok', json: await parseSliced(body, scan.spans, slices) }
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error
  }
  // Not JSON: `JSON.parse`'s own message, from a worker thread.
  const message = await syntaxErrorOf(body, slices)
  if (typeof message === 'string') return { kind: 'error', message: bodyErrors.json(message) }
  // No worker thread (an edge runtime), or `JSON.parse` read what the pieces could not: parsed
  // at once, for its message or its value.
  await yieldToLoop()
  try {
    return { kind: 'ok', json: JSON.parse(strictUtf8.decode(body)) }
  } catch (error) {
    return { kind: 'error', message: bodyErrors.json(error instanceof Error ? `${error.name}: ${error.message}` : String(error)) }
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The bytes of `chunks` (`size` in all) in one array, copied a slice at a time with turns of the
 * event loop between: for a large body sent without a `content-length`.
 */
export async function concatInTurns(chunks: readonly Uint8Array[], size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size)
  const slices = new LoopSlices()
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
    const pause = slices.turn()
    if (pause) await pause
  }
  return out
}
