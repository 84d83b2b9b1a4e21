/**
 * UTF-8 and byte helpers that run on web APIs, so the in-process path loads where Node's
 * `Buffer` does not exist (a browser, an edge runtime). Where `Buffer` exists it is used, as it is
 * faster and the answers stay byte for byte what they were.
 * @module
 */

interface NodeBufferLike {
  byteLength(text: string, encoding: 'utf8'): number
  from(bytes: ArrayBufferLike, offset?: number, length?: number): { toString(encoding: 'utf8' | 'base64' | 'hex'): string }
  from(text: string, encoding: 'utf8'): Uint8Array
}

/** Node's `Buffer`, or `undefined` where there is none. */
const NodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer

const encoder = new TextEncoder()
// `ignoreBOM` keeps a leading byte-order mark in the text, as `Buffer` does.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true })

/** The UTF-8 length of `text` in bytes (a `content-length`). */
export function utf8Length(text: string): number {
  return NodeBuffer ? NodeBuffer.byteLength(text, 'utf8') : encoder.encode(text).byteLength
}

/**
 * `text` as the UTF-8 bytes of an answer's body, to be written and dropped: under Node a small
 * one is a view of its shared buffer pool, so it costs no memory of its own, and the socket
 * takes the bytes as they are rather than encoding the text again.
 */
export function utf8Body(text: string): Uint8Array {
  return NodeBuffer ? NodeBuffer.from(text, 'utf8') : encoder.encode(text)
}

/** `text` as UTF-8 bytes. */
export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text)
}

/** UTF-8 `bytes` as text. */
export function utf8Text(bytes: Uint8Array): string {
  return NodeBuffer ? NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : decoder.decode(bytes)
}

/** The bytes of every chunk, one after another, in one new array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let size = 0
  for (const chunk of chunks) size += chunk.byteLength
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

/** `bytes` in lower-case hexadecimal. */
export function toHex(bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0')
  return out
}

/** `bytes` in standard base64 (with padding). */
export function toBase64(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
  let binary = ''
  // In slices: String.fromCharCode takes its bytes as arguments, and arguments are limited.
  for (let at = 0; at < bytes.byteLength; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return btoa(binary)
}

/** The bytes of standard base64 `text`. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
