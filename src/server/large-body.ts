/**
 * Large request bodies read without holding the event loop (SPEC §24: no request of ≤ 32 MiB
 * blocks it for more than 250 ms). Decoding, parsing, validating and counting a 7 MB body each
 * take a good part of that on a loaded machine; done back to back in one turn they took seconds.
 * For a body of {@link LARGE_BODY} bytes or more the hot path gives the event loop a turn between
 * its steps; smaller bodies take the one-turn path as before. Each step stays whole: decoding in
 * slices and joining them costs more than decoding at once (the joined string is built again),
 * and `JSON.parse` reads a string of pieces three times slower than a flat one.
 * @module
 */
import { yieldToLoop } from '../internal/scheduling.js'

/** Bodies of this many bytes or more are read in slices, with turns of the event loop between steps. */
export const LARGE_BODY = 1024 * 1024

/** A turn of the event loop when `body` is large, else `undefined` (the hot path awaits nothing). */
export function turnFor(body: Uint8Array | undefined): Promise<void> | undefined {
  return body !== undefined && body.byteLength >= LARGE_BODY ? yieldToLoop() : undefined
}
