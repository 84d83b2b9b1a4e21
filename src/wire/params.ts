/**
 * Small readers the wire modules share: a path segment decoded, and an embedding request's
 * dimensions checked.
 * @module
 */
import { BadRequest } from './dialect.js'
import { DEFAULT_DIMENSIONS } from './openai-embeddings/codec.js'

/** A path segment percent-decoded, or as sent when it is not valid percent-encoding. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * The dimensions an embedding request asks for (`DEFAULT_DIMENSIONS` when `value` is absent).
 * @throws BadRequest with `message` and `param` unless `value` is an integer from 1 to `max`.
 */
export function requestedDimensions(value: unknown, max: number, message: string, param: string): number {
  if (value === undefined) return DEFAULT_DIMENSIONS
  if (!(Number.isInteger(value) && (value as number) > 0 && (value as number) <= max)) throw new BadRequest(message, param)
  return value as number
}
