/**
 * The AWS event-stream codec: round trips, a real Bedrock message decoded and re-encoded byte
 * for byte, and bad frames (truncated, wrong CRCs, bad lengths, malformed headers) refused with
 * a clear error naming the fault and its offset.
 */
import { describe, expect, test } from 'vitest'
import { EventStreamError, crc32, decodeMessages, encodeEventMessage, encodeExceptionMessage, encodeMessage } from '../../src/wire/bedrock/eventstream.js'
import { recording } from '../providers/conformance.js'

const realException = Buffer.from(recording('bedrock/model-stream-error-exception.eventstream.base64.txt').trim(), 'base64')

describe('the event-stream codec', () => {
  test('crc32 is the IEEE CRC zlib computes', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926)
    expect(crc32(new Uint8Array())).toBe(0)
  })

  test('an encoded event decodes to its headers and payload', () => {
    const bytes = encodeEventMessage('contentBlockDelta', '{"delta":{"text":"hi"}}')
    const [message] = decodeMessages(bytes)
    expect(message.headers).toEqual({ ':event-type': 'contentBlockDelta', ':content-type': 'application/json', ':message-type': 'event' })
    expect(new TextDecoder().decode(message.payload)).toBe('{"delta":{"text":"hi"}}')
  })

  test('several messages back to back decode in order', () => {
    const bytes = Buffer.concat([encodeEventMessage('a', '{}'), encodeEventMessage('b', '{"x":1}'), encodeMessage({}, new Uint8Array())])
    expect(decodeMessages(bytes).map((message) => message.headers[':event-type'])).toEqual(['a', 'b', undefined])
  })

  test('a real Bedrock exception message decodes, and encoding it again gives the same bytes', () => {
    const [message] = decodeMessages(realException)
    expect(message.headers).toEqual({ ':message-type': 'exception', ':exception-type': 'modelStreamErrorException', ':content-type': 'application/json' })
    const payload = new TextDecoder().decode(message.payload)
    expect(JSON.parse(payload)).toMatchObject({ message: 'Model Stream Error', originalStatusCode: 500 })
    expect(Buffer.from(encodeExceptionMessage('modelStreamErrorException', payload))).toEqual(realException)
  })
})

describe('bad frames are refused with an EventStreamError', () => {
  const good = encodeEventMessage('messageStop', '{"stopReason":"end_turn"}')
  const corrupt = (at: number): Uint8Array => {
    const bytes = Uint8Array.from(good)
    bytes[at] ^= 0xff
    return bytes
  }
  const cases: [string, Uint8Array, RegExp][] = [
    ['fewer bytes than a prelude', good.subarray(0, 10), /truncated message: 10 bytes/],
    ['a message cut short', good.subarray(0, good.length - 3), /truncated message: \d+ bytes announced/],
    ['a prelude CRC that does not match', corrupt(9), /prelude CRC mismatch/],
    ['a total length that does not match its CRC', corrupt(3), /prelude CRC mismatch/],
    ['a payload byte flipped', corrupt(good.length - 6), /message CRC mismatch/],
    ['a message CRC flipped', corrupt(good.length - 1), /message CRC mismatch/],
  ]
  test.each(cases)('%s', (_name, bytes, message) => {
    expect(() => decodeMessages(bytes)).toThrow(EventStreamError)
    expect(() => decodeMessages(bytes)).toThrow(message)
  })

  test('headers longer than the message are a bad length', () => {
    const bytes = Uint8Array.from(good)
    const view = new DataView(bytes.buffer)
    view.setUint32(4, 10_000)
    view.setUint32(8, crc32(bytes.subarray(0, 8)))
    expect(() => decodeMessages(bytes)).toThrow(/bad lengths: total \d+, headers 10000/)
  })

  test('an unknown header value type is named, with its offset', () => {
    const bytes = encodeMessage({ x: 'y' }, new Uint8Array())
    bytes[12 + 2] = 42 // the value type of header "x"
    const view = new DataView(bytes.buffer)
    view.setUint32(bytes.length - 4, crc32(bytes.subarray(0, bytes.length - 4)))
    expect(() => decodeMessages(bytes)).toThrow(/unknown header value type 42 for "x" \(at byte 14\)/)
  })

  test('a second message that is garbage fails after the first decoded', () => {
    const bytes = Buffer.concat([good, Buffer.from('not an event stream frame')])
    expect(() => decodeMessages(bytes)).toThrow(new RegExp(`at byte ${good.length}`))
  })
})
