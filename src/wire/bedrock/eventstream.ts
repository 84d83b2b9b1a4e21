/**
 * The AWS event-stream binary framing (`application/vnd.amazon.eventstream`) Bedrock streams
 * answers in. One message is: a 12-byte prelude (total length, headers length, CRC32 of those
 * eight bytes), the headers, the payload, and a CRC32 of everything before it. All integers are
 * big-endian; the CRC is the IEEE one zlib uses.
 * @module
 */

/** A header value: the framing's string (type 7) is the only one Bedrock's events carry. */
export type HeaderValue = string | boolean | number | Uint8Array

/** One decoded message. */
export interface EventMessage {
  headers: Record<string, HeaderValue>
  payload: Uint8Array
}

/** Bytes that are not a well-formed event-stream message; `offset` is where the fault is. */
export class EventStreamError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`[agent-doubles] event-stream: ${message} (at byte ${offset})`)
    this.name = 'EventStreamError'
  }
}

const PRELUDE_BYTES = 12
const CRC_BYTES = 4
/** The largest message the framing allows (16 MiB), as the AWS SDK's decoder enforces. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** The IEEE CRC32 of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/** One message with `headers` (string values) and `payload`. */
export function encodeMessage(headers: Readonly<Record<string, string>>, payload: Uint8Array): Uint8Array {
  const encoder = new TextEncoder()
  const headerBytes: number[] = []
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = encoder.encode(name)
    const valueBytes = encoder.encode(value)
    headerBytes.push(nameBytes.length, ...nameBytes, 7, valueBytes.length >> 8, valueBytes.length & 0xff, ...valueBytes)
  }
  const total = PRELUDE_BYTES + headerBytes.length + payload.length + CRC_BYTES
  const message = new Uint8Array(total)
  const view = new DataView(message.buffer)
  view.setUint32(0, total)
  view.setUint32(4, headerBytes.length)
  view.setUint32(8, crc32(message.subarray(0, 8)))
  message.set(headerBytes, PRELUDE_BYTES)
  message.set(payload, PRELUDE_BYTES + headerBytes.length)
  view.setUint32(total - CRC_BYTES, crc32(message.subarray(0, total - CRC_BYTES)))
  return message
}

/** An `event` message of type `eventType` carrying `json` (Bedrock's stream events). */
export function encodeEventMessage(eventType: string, json: string): Uint8Array {
  return encodeMessage({ ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' }, new TextEncoder().encode(json))
}

/** An `exception` message (a Bedrock error after the stream started). */
export function encodeExceptionMessage(exceptionType: string, json: string): Uint8Array {
  return encodeMessage({ ':message-type': 'exception', ':exception-type': exceptionType, ':content-type': 'application/json' }, new TextEncoder().encode(json))
}

/**
 * Every message in `bytes`, which must hold whole messages only.
 * @throws EventStreamError on a truncated message, a bad length, a CRC mismatch or a malformed header.
 */
export function decodeMessages(bytes: Uint8Array): EventMessage[] {
  const messages: EventMessage[] = []
  let offset = 0
  while (offset < bytes.length) {
    const message = decodeOne(bytes, offset)
    messages.push(message.message)
    offset += message.length
  }
  return messages
}

function decodeOne(bytes: Uint8Array, start: number): { message: EventMessage; length: number } {
  if (bytes.length - start < PRELUDE_BYTES + CRC_BYTES) throw new EventStreamError(`truncated message: ${bytes.length - start} bytes is shorter than a prelude and CRC`, start)
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, bytes.length - start)
  const total = view.getUint32(0)
  const headersLength = view.getUint32(4)
  const preludeCrc = crc32(bytes.subarray(start, start + 8))
  if (view.getUint32(8) !== preludeCrc) throw new EventStreamError(`prelude CRC mismatch: expected ${preludeCrc}, got ${view.getUint32(8)}`, start)
  if (total < PRELUDE_BYTES + CRC_BYTES + headersLength || total > MAX_MESSAGE_BYTES) {
    throw new EventStreamError(`bad lengths: total ${total}, headers ${headersLength}`, start)
  }
  if (total > bytes.length - start) throw new EventStreamError(`truncated message: ${total} bytes announced, ${bytes.length - start} present`, start)
  const messageCrc = crc32(bytes.subarray(start, start + total - CRC_BYTES))
  if (view.getUint32(total - CRC_BYTES) !== messageCrc) throw new EventStreamError(`message CRC mismatch: expected ${messageCrc}, got ${view.getUint32(total - CRC_BYTES)}`, start)
  const headers = decodeHeaders(bytes.subarray(start + PRELUDE_BYTES, start + PRELUDE_BYTES + headersLength), start + PRELUDE_BYTES)
  const payload = bytes.slice(start + PRELUDE_BYTES + headersLength, start + total - CRC_BYTES)
  return { message: { headers, payload }, length: total }
}

/** Sizes of the fixed-width header value types (0 and 1 are the booleans, with no bytes). */
const FIXED_SIZES: Readonly<Record<number, number>> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 }

function decodeHeaders(bytes: Uint8Array, base: number): Record<string, HeaderValue> {
  const decoder = new TextDecoder('utf-8', { fatal: false })
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  const headers: Record<string, HeaderValue> = {}
  let at = 0
  const need = (count: number): void => {
    if (at + count > bytes.length) throw new EventStreamError('header runs past the headers section', base + at)
  }
  while (at < bytes.length) {
    need(1)
    const nameLength = bytes[at++]
    if (nameLength === 0) throw new EventStreamError('header with an empty name', base + at - 1)
    need(nameLength + 1)
    const name = decoder.decode(bytes.subarray(at, at + nameLength))
    at += nameLength
    const type = bytes[at++]
    if (type === 6 || type === 7) {
      need(2)
      const length = view.getUint16(at)
      at += 2
      need(length)
      const raw = bytes.slice(at, at + length)
      headers[name] = type === 7 ? decoder.decode(raw) : raw
      at += length
    } else if (type in FIXED_SIZES) {
      const size = FIXED_SIZES[type]
      need(size)
      headers[name] = type === 0 ? true : type === 1 ? false : size <= 4 && size > 0 ? readInt(view, at, size) : bytes.slice(at, at + size)
      at += size
    } else {
      throw new EventStreamError(`unknown header value type ${type} for ${JSON.stringify(name)}`, base + at - 1)
    }
  }
  return headers
}

function readInt(view: DataView, at: number, size: number): number {
  if (size === 1) return view.getInt8(at)
  if (size === 2) return view.getInt16(at)
  return view.getInt32(at)
}
