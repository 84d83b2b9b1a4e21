/**
 * Streamed answers in every framing a dialect can ask for (see {@link StreamFraming}): SSE goes
 * to the proxy's SSE writer; NDJSON (Ollama) and the JSON-array stream (Gemini without
 * `alt=sse`) are written here, with the same back-pressure, early-leave and fault behaviour.
 * @module
 */
import type { ServerResponse } from 'node:http'
import type { SseFrame, StreamFraming } from '../proxy/dialect.js'
import type { Fault } from '../proxy/faults.js'
import { closed, writeSse } from '../proxy/sse.js'
import { encodeEventMessage, encodeExceptionMessage } from './eventstream.js'

/** What a stream writer needs beyond its frames. */
export interface StreamOptions {
  fault?: Fault
  /** The frames reporting an error thrown by the frames once the stream has started. */
  onError: (error: unknown, framesSent: number) => SseFrame[]
}

/** The content type each non-SSE framing is sent with. */
const contentTypes: Readonly<Record<Exclude<StreamFraming, 'sse'>, string>> = {
  ndjson: 'application/x-ndjson',
  'json-array': 'application/json; charset=utf-8',
  eventstream: 'application/vnd.amazon.eventstream',
}

/** Writes `frames` as a streamed answer in `framing`. */
export async function writeStream(
  res: ServerResponse,
  requestId: string,
  frames: AsyncIterable<SseFrame>,
  framing: StreamFraming,
  options: StreamOptions,
): Promise<void> {
  if (framing === 'sse') return writeSse(res, requestId, frames, options)
  const gone = closed(res)
  res.writeHead(200, { 'content-type': contentTypes[framing], 'x-request-id': requestId, 'request-id': requestId, 'x-amzn-requestid': requestId })
  res.flushHeaders()
  const write = async (bytes: string | Uint8Array): Promise<void> => {
    if (res.destroyed) return
    if (!res.write(bytes)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone])
  }
  let sent = 0
  const { fault } = options
  const over = (): boolean => res.destroyed || (fault !== undefined && sent >= fault.afterChunks)
  const stop = async (): Promise<void> => (res.destroyed ? undefined : breakStream(res, fault!, framing, gone))
  try {
    for await (const frame of frames) {
      if (over()) return await stop()
      await write(encodeFrame(framing, frame, sent++))
    }
  } catch (error) {
    if (res.destroyed) return
    // The error's frames count as frames: a planned fault can fall among them.
    for (const frame of options.onError(error, sent)) {
      if (over()) return await stop()
      await write(encodeFrame(framing, frame, sent++))
    }
  }
  if (options.fault && !res.destroyed) return await breakStream(res, options.fault, framing, gone)
  if (res.destroyed) return
  res.end(framing === 'json-array' ? (sent === 0 ? '[]' : ']') : undefined)
}

/** One frame's bytes; `index` is its position (the JSON array's separators depend on it). */
export function encodeFrame(framing: Exclude<StreamFraming, 'sse'>, frame: SseFrame, index: number): string | Uint8Array {
  if (framing === 'ndjson') return `${frame.data}\n`
  if (framing === 'json-array') return `${index === 0 ? '[' : ',\r\n'}${frame.data}`
  // An event named like `internalServerException` is an exception message, as Bedrock sends errors mid-stream.
  if (frame.event?.endsWith('Exception')) return encodeExceptionMessage(frame.event, frame.data)
  return encodeEventMessage(frame.event ?? 'chunk', frame.data)
}

async function breakStream(res: ServerResponse, fault: Fault, framing: StreamFraming, gone: Promise<void>): Promise<void> {
  if (fault.kind === 'disconnect') {
    await new Promise<void>((resolve) => res.write('', () => resolve()))
    res.socket?.destroy()
  } else if (fault.kind === 'malformed') {
    // Bytes no parser of this framing accepts: half a JSON value, or an event-stream message
    // whose CRC does not match.
    res.end(framing === 'eventstream' ? badCrcMessage() : '{"broken": \n')
  } else {
    await gone
  }
}

/** A well-framed event-stream message whose message CRC is wrong. */
function badCrcMessage(): Uint8Array {
  const bytes = encodeEventMessage('chunk', '{}')
  bytes[bytes.length - 1] ^= 0xff
  return bytes
}
