/**
 * Server-sent events on the wire: framing, and writing a stream of frames to a response with
 * back-pressure, stopping at once when the client (or `close()`) ends the connection.
 * @module
 */
import type { ServerResponse } from 'node:http'
import type { SseFrame } from './dialect.js'
import type { Fault } from './faults.js'

/**
 * One frame as text. The data stays on one `data:` line and every frame, the last included,
 * ends with a blank line: clients only dispatch an event at its blank line.
 */
export function formatFrame(frame: SseFrame): string {
  const name = frame.event === undefined ? '' : `event: ${frame.event}\n`
  return `${name}data: ${frame.data}\n\n`
}

/** Headers of every SSE answer. */
export function sseHeaders(requestId: string): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': requestId,
    'request-id': requestId,
  }
}

/** A promise that settles when `res` closes (answer sent, client gone, or socket destroyed). */
export function closed(res: ServerResponse): Promise<void> {
  if (res.closed || res.destroyed) return Promise.resolve()
  return new Promise((resolve) => res.once('close', () => resolve()))
}

/**
 * Writes `frames` as an SSE answer. With a `fault`, the stream breaks after `fault.afterChunks`
 * frames: the socket is cut (`disconnect`), a frame of broken JSON ends it (`malformed`), or it
 * stops sending and waits for the connection to close (`stall`). `onError` renders a frame for
 * an error thrown by the frames themselves once the stream has started.
 */
export async function writeSse(
  res: ServerResponse,
  requestId: string,
  frames: AsyncIterable<SseFrame>,
  options: { fault?: Fault; onError: (error: unknown, framesSent: number) => SseFrame },
): Promise<void> {
  const out = writer(res)
  res.writeHead(200, sseHeaders(requestId))
  out.batch()
  // Sent now even if the first event is late (latency.firstChunkMs), as a real server does.
  res.flushHeaders()
  let sent = 0
  try {
    for await (const frame of frames) {
      if (res.destroyed) return
      if (options.fault && sent >= options.fault.afterChunks) return await breakStream(res, options.fault, out)
      await out.write(formatFrame(frame))
      sent++
    }
  } catch (error) {
    if (!res.destroyed) await out.write(formatFrame(options.onError(error, sent)))
  }
  if (options.fault && !res.destroyed) return await breakStream(res, options.fault, out)
  out.end()
}

async function breakStream(res: ServerResponse, fault: Fault, out: Writer): Promise<void> {
  if (fault.kind === 'disconnect') {
    // Let what was sent reach the client first, so it sees exactly `afterChunks` events.
    await out.flushed()
    res.socket?.destroy()
  } else if (fault.kind === 'malformed') {
    await out.write('data: {"broken": \n\n')
    out.end()
  } else {
    // stall: keep the connection open, sending nothing, until the client or close() ends it.
    await out.gone
  }
}

interface Writer {
  /**
   * Holds what is written until the current tick ends, so the headers and the events a brain
   * produces at once leave in one packet rather than one each.
   */
  batch(): void
  /** Writes `text`, waiting for the socket to drain (or close) when its buffer is full. */
  write(text: string): Promise<void>
  /** Settles once everything written so far is handed to the socket (or the socket is gone). */
  flushed(): Promise<void>
  /** Ends the answer, releasing a held batch first. */
  end(): void
  readonly gone: Promise<void>
}

function writer(res: ServerResponse): Writer {
  const gone = closed(res)
  let last: Promise<void> = Promise.resolve()
  let corked = false
  const uncork = (): void => {
    if (!corked) return
    corked = false
    res.uncork()
  }
  const batch = (): void => {
    if (corked) return
    corked = true
    res.cork()
    process.nextTick(uncork)
  }
  return {
    gone,
    batch,
    async write(text) {
      if (res.destroyed) return
      batch()
      const flushed = new Promise<void>((resolve) => res.write(text, () => resolve()))
      last = Promise.race([flushed, gone])
      if (res.writableNeedDrain) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone])
    },
    flushed: () => last,
    end() {
      // Node 24 drops what is still corked when end() comes first: release it before ending.
      uncork()
      res.end()
    },
  }
}
