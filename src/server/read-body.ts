/**
 * Reading a request body with a size limit, from a `node:http` request or the in-process one.
 * Kept apart from the server so the in-process path loads without `node:http`.
 * @module
 */
import type { IncomingMessage } from 'node:http'
import { concatBytes } from '../internal/bytes.js'
import { LARGE_BODY, concatInTurns } from './large-body.js'

/** The largest request body the proxy reads (32 MiB); larger ones are answered with 413. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024

/** What reading a request body gave. */
export type BodyResult =
  | { kind: 'ok'; body: Uint8Array }
  | { kind: 'too-large' }
  | { kind: 'aborted' }

/**
 * Reads the whole body, up to `limit` bytes. Past the limit it stops keeping bytes and answers
 * `too-large` at once; the rest of the upload is drained and dropped, so the connection stays
 * usable and the client reads the 413 instead of a reset.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    req.resume()
    return Promise.resolve({ kind: 'too-large' })
  }
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = []
    let size = 0
    // A large body of declared length is copied into place as it arrives: joining 32 MiB of
    // chunks at the end held the event loop for a few hundred ms (SPEC §24).
    let whole = Number.isFinite(declared) && declared >= LARGE_BODY ? new Uint8Array(declared) : undefined
    const onData = (chunk: Uint8Array): void => {
      if (whole && size + chunk.length <= whole.length) whole.set(chunk, size)
      else if (whole) {
        // More than declared (a stream that does not enforce it): kept as chunks from here on.
        chunks.push(whole.subarray(0, size))
        whole = undefined
      }
      size += chunk.length
      if (size > limit) {
        req.off('data', onData)
        chunks.length = 0
        req.resume()
        resolve({ kind: 'too-large' })
        return
      }
      if (!whole) chunks.push(chunk)
    }
    req.on('data', onData)
    // `on`, not `once`: the request is read once and then dropped, and a promise settles once.
    req.on('end', () => {
      if (whole) resolve({ kind: 'ok', body: size === whole.length ? whole : whole.subarray(0, size) })
      else if (size >= LARGE_BODY) void concatInTurns(chunks, size).then((body) => resolve({ kind: 'ok', body }))
      else resolve({ kind: 'ok', body: concatBytes(chunks) })
    })
    req.on('error', () => resolve({ kind: 'aborted' }))
    // An upload cut short closes before it is complete (Node's `aborted` event says the same, and is deprecated).
    req.on('close', () => {
      if (!req.complete) resolve({ kind: 'aborted' })
    })
  })
}
