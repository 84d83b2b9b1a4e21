/**
 * A guard run before `JSON.parse`: a body nesting deeper than the limit is refused up front,
 * because everything after parsing (decoders, validation, `structuredClone` of the records)
 * walks the value recursively and would overflow the stack on 10,000 levels.
 * @module
 */
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-bytes.js'

/** The deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 512

/**
 * Whether the JSON text in `bytes` opens more than `limit` arrays or objects inside each other.
 * One pass over the bytes, no recursion; brackets inside strings do not count. It does not
 * check that the text is JSON (the parser does).
 * @example
 * nestsDeeperThan(Buffer.from('[[1]]'), 1) // true
 */
export function nestsDeeperThan(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]
    if (inString) {
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limit) return true
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--
  }
  return false
}
