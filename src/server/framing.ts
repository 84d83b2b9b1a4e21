/**
 * Streamed answers in every framing a dialect can ask for (see {@link StreamFraming}).
 * {@link openStream} takes the frames an encoder emits and gives every framing the same
 * back-pressure, early leave and planned faults; the body itself is the proxy's SSE writer's
 * (sse.ts), or written here for NDJSON (Ollama), the JSON-array stream (Gemini without
 * `alt=sse`) and the event stream (Bedrock).
 * @module
 */
import type { ServerResponse } from 'node:http'
import { frameData, type EmitFrame, type SseFrame, type StreamFraming } from '../wire/dialect.js'
import { answerHeaders, type AnswerHead } from './answer-head.js'
import type { Fault } from './faults.js'
import { closed, sseBody, type FramedBody } from './sse.js'
import { drainedOrClosed } from './drained.js'
import { encodeEventMessage, encodeExceptionMessage } from '../wire/bedrock/eventstream.js'

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

/** A streamed answer being written: the frames go in through {@link emit}, then {@link end} or {@link fail}. */
export interface StreamOutput {
  /** Writes one frame (an encoder's `emit`); ignored once {@link stopped}. */
  readonly emit: EmitFrame
  /** Whether nothing more will be written: the client left, or a planned fault's frames are out. */
  stopped(): boolean
  /** A promise to wait on before making more frames when the socket's buffer is full; else `undefined`. */
  room(): Promise<void> | undefined
  /** Ends the answer with the frames reporting `error`, a failure once the stream has started. */
  fail(error: unknown): Promise<void>
  /** Ends the answer: the planned fault if any, else the end of the body. */
  end(): Promise<void>
}

/**
 * Starts a streamed answer in `framing` (headers now): every framing gets the same
 * back-pressure, early leave and planned faults. A fault cuts the stream after
 * `fault.afterChunks` frames, error frames included.
 */
export function openStream(res: ServerResponse, head: AnswerHead, framing: StreamFraming, options: StreamOptions): StreamOutput {
  const { fault } = options
  const body = framing === 'sse' ? sseBody(res, head, fault) : framedBody(res, head, framing)
  let sent = 0
  let full = false
  const stopped = (): boolean => res.destroyed || (fault !== undefined && sent >= fault.afterChunks)
  const emit = (frame: SseFrame): void => {
    if (stopped()) return
    full = body.write(frame, sent++)
  }
  const end = async (): Promise<void> => {
    if (res.destroyed) return
    if (fault) return body.break(fault)
    body.end(sent)
  }
  return {
    emit,
    stopped,
    room() {
      if (!full || res.destroyed) return undefined
      full = false
      return body.drained()
    },
    fail(error) {
      if (res.destroyed) return Promise.resolve()
      // The error's frames count as frames: a planned fault can fall among them.
      for (const frame of options.onError(error, sent)) emit(frame)
      return end()
    },
    end,
  }
}

/**
 * Sends the headers of an NDJSON, JSON-array or event-stream answer, once: when the brain
 * accepts the call, before any `latency` wait (SPEC §24, headers first on every streamed route),
 * or else with the first frame.
 */
export function startFramed(res: ServerResponse, head: AnswerHead, framing: Exclude<StreamFraming, 'sse'>): void {
  if (res.headersSent || res.destroyed) return
  const { requestId } = head
  res.writeHead(200, answerHeaders(head, { 'content-type': contentTypes[framing], 'x-request-id': requestId, 'request-id': requestId, 'x-amzn-requestid': requestId }))
  res.flushHeaders()
}

/** The body of an NDJSON, JSON-array or event-stream answer: a write per frame. */
function framedBody(res: ServerResponse, head: AnswerHead, framing: Exclude<StreamFraming, 'sse'>): FramedBody {
  const gone = closed(res)
  startFramed(res, head, framing)
  return {
    write: (frame, index) => !res.write(encodeFrame(framing, frame, index)),
    drained: () => drainedOrClosed(res),
    break: (fault) => breakStream(res, fault, framing, gone),
    end: (frames) => res.end(framing === 'json-array' ? (frames === 0 ? '[]' : ']') : undefined),
  }
}

/** One frame's bytes; `index` is its position (the JSON array's separators depend on it). */
export function encodeFrame(framing: Exclude<StreamFraming, 'sse'>, frame: SseFrame, index: number): string | Uint8Array {
  const data = frameData(frame)
  if (framing === 'ndjson') return `${data}\n`
  if (framing === 'json-array') return `${index === 0 ? '[' : ',\r\n'}${data}`
  // An event named like `internalServerException` is an exception message, as Bedrock sends errors mid-stream.
  if (frame.event?.endsWith('Exception')) return encodeExceptionMessage(frame.event, data)
  return encodeEventMessage(frame.event ?? 'chunk', data)
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
