/**
 * Server-sent events on the wire: framing, and the body of an SSE answer — frames batched per
 * tick, back-pressure, and the planned faults.
 * @module
 */
import type { ServerResponse } from 'node:http'
import { nextTick } from '../internal/scheduling.js'
import { answerHeaders, type AnswerHead } from './answer-head.js'
import { closed, drainedOrClosed } from './drained.js'
import { frameData, type SseFrame } from '../wire/dialect.js'
import type { Fault } from './faults.js'

/**
 * One frame as text. The data stays on one `data:` line and every frame, the last included,
 * ends with a blank line: clients only dispatch an event at its blank line.
 */
export function formatFrame(frame: SseFrame): string {
  return `${frameHead(frame.event)}${frameData(frame)}\n\n`
}

/** The lines before a frame's data, made once per event name: a stream repeats a few names many times. */
const frameHeads = new Map<string, string>()

/** The last name looked up, and its head: a stream's frames mostly repeat the previous name. */
let lastEvent: string | undefined
let lastHead = 'data: '

function frameHead(event: string | undefined): string {
  if (event === lastEvent) return lastHead
  if (event === undefined) return 'data: '
  let head = frameHeads.get(event)
  if (head === undefined) {
    head = `event: ${event}\ndata: `
    // Names come from the dialects, a few dozen in all; a bound keeps odd ones from piling up.
    if (frameHeads.size < 256) frameHeads.set(event, head)
  }
  lastEvent = event
  lastHead = head
  return head
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

// `closed` lives with the other waits on a response (drained.ts), where faults.ts takes it too.
export { closed }

/**
 * Sends the status line and SSE headers now, held until the current tick ends so events the
 * brain produces at once leave in the same packet; a no-op once headers are sent. A server
 * calls it when a call is accepted, before any wait for the first event.
 */
export function startSse(res: ServerResponse, head: AnswerHead): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(200, answerHeaders(head, sseHeaders(head.requestId)))
  holdUntilTickEnds(res)
  // Sent now even if the first event is late (latency.firstChunkMs), as a real server does.
  res.flushHeaders()
}

/** Where a stream's frames go, in one framing (see `openStream` in framing.ts). */
export interface FramedBody {
  /** Writes frame number `index`; `true` when the socket's buffer is full. */
  write(frame: SseFrame, index: number): boolean
  /** Settles when the socket can take more, or the client is gone. */
  drained(): Promise<void>
  /** Breaks the stream as `fault` plans, once its frames are out. */
  break(fault: Fault): Promise<void>
  /** Ends the answer after `frames` frames. */
  end(frames: number): void
}

/**
 * An SSE answer's body, sending the headers first unless {@link startSse} did. Per frame it only
 * writes: no promise or listener is made unless the socket's buffer is full, so memory stays
 * flat however many events a stream has.
 */
export function sseBody(res: ServerResponse, head: AnswerHead, fault: Fault | undefined): FramedBody {
  startSse(res, head)
  // Only a planned disconnect needs to know when the last frame reached the socket.
  const out = fault?.kind === 'disconnect' ? trackingWriter(res) : plainWriter(res)
  return {
    write: out.writeFrame,
    drained: () => drainedOrClosed(res),
    break: (planned) => breakStream(res, planned, out),
    end: () => end(res),
  }
}

async function breakStream(res: ServerResponse, fault: Fault, out: Writer): Promise<void> {
  if (fault.kind === 'disconnect') {
    // Let what was sent reach the client first, so it sees exactly `afterChunks` events.
    await out.flushed()
    res.socket?.destroy()
  } else if (fault.kind === 'malformed') {
    out.write('data: {"broken": \n\n')
    end(res)
  } else {
    // stall: keep the connection open, sending nothing, until the client or close() ends it.
    await closed(res)
  }
}

interface Writer {
  /** Writes `frame` (held until the tick ends); `true` when the socket's buffer is full. */
  writeFrame(frame: SseFrame): boolean
  /** Writes `text` as it is. */
  write(text: string): boolean
  /** Settles once everything written so far is handed to the socket (or the socket is gone). */
  flushed(): Promise<void>
}

function plainWriter(res: ServerResponse): Writer {
  // Frames made in the same tick leave as one chunk, as a server sending a body at once does.
  // The pieces are joined once, when the batch leaves: building the text frame by frame made
  // a string object per piece, and then a copy of the whole.
  const added = (batch: Batch): boolean => {
    if (batch.chars < BATCH_CHARS) return false
    release(res)
    return mustWait(res)
  }
  // The batch being filled, kept at hand rather than looked up per frame; a new one once it left.
  let current: Batch | undefined
  const batchNow = (): Batch => (current !== undefined && !current.left ? current : (current = holdUntilTickEnds(res)))
  // A stream's deltas repeat one frame with new data: its head and fixed text before the data
  // are joined once, and so are the text after it and the blank line, which makes a frame three
  // pieces rather than five (the join as the batch leaves is a good part of a stream's cost).
  let prefix = ''
  let prefixHead: string | undefined
  let prefixBefore: string | undefined
  let suffix = '\n\n'
  let suffixAfter: string | undefined
  return {
    writeFrame(frame) {
      if (res.destroyed) return false
      const batch = batchNow()
      const head = frameHead(frame.event)
      const { before, data, after } = frame
      if (head !== prefixHead || before !== prefixBefore) {
        prefixHead = head
        prefixBefore = before
        prefix = before === undefined ? head : head + before
      }
      if (after !== suffixAfter) {
        suffixAfter = after
        suffix = after === undefined ? '\n\n' : `${after}\n\n`
      }
      const { parts } = batch
      let n = batch.count
      parts[n++] = prefix
      parts[n++] = data
      parts[n++] = suffix
      batch.count = n
      batch.chars += prefix.length + data.length + suffix.length
      return added(batch)
    },
    write(text) {
      if (res.destroyed) return false
      const batch = batchNow()
      batch.parts[batch.count++] = text
      batch.chars += text.length
      return added(batch)
    },
    flushed: () => Promise.resolve(),
  }
}

function trackingWriter(res: ServerResponse): Writer {
  let last: Promise<void> = Promise.resolve()
  const write = (text: string): boolean => {
    if (res.destroyed) return false
    holdUntilTickEnds(res)
    last = new Promise<void>((resolve) => res.write(text, () => resolve()))
    return mustWait(res)
  }
  return {
    writeFrame: (frame) => write(formatFrame(frame)),
    write,
    flushed: () => Promise.race([last, closed(res)]),
  }
}

/** Frames held per response until the current tick ends (flushed at this size sooner). */
const BATCH_CHARS = 16 * 1024
/** Responses corked until the current tick ends, with the frames written meanwhile. */
const held = new WeakMap<ServerResponse, Batch>()

/** What a response holds: text in pieces, and their length. */
interface Batch {
  /** The pieces, in `parts[0 … count)`; any entries after them are empty strings. */
  parts: string[]
  count: number
  chars: number
  /** Set once the batch was written (or dropped): later text goes in a new one. */
  left: boolean
}

/**
 * Holds what is written to `res` until the current tick ends, so the headers and the events a
 * brain produces at once leave in one packet rather than one each.
 */
function holdUntilTickEnds(res: ServerResponse): Batch {
  let batch = held.get(res)
  if (batch) return batch
  batch = { parts: spareParts.pop() ?? [], count: 0, chars: 0, left: false }
  held.set(res, batch)
  corkable(res).cork()
  nextTick(release, res)
  return batch
}

function release(res: ServerResponse): void {
  const batch = held.get(res)
  if (batch === undefined) return
  held.delete(res)
  const text = leave(batch)
  if (text !== undefined && !res.destroyed) res.write(text)
  corkable(res).uncork()
}

/**
 * The batch's text, joined once as it leaves; its list of pieces is emptied and kept for a
 * later batch. A stream's list grows to a few hundred pieces, and growing a fresh one for every
 * answer was a good part of the garbage a stream made.
 */
function leave(batch: Batch): string | undefined {
  batch.left = true
  const { parts } = batch
  const text = batch.chars > 0 ? parts.join('') : undefined
  // Emptied in place (setting the length to 0 would give up the room it grew).
  parts.fill('', 0, batch.count)
  if (spareParts.length < 8 && parts.length <= 1024) spareParts.push(parts)
  return text
}

/** Emptied lists of pieces, for the next batches (see {@link leave}). */
const spareParts: string[][] = []

/**
 * What holding corks: an HTTP/1.1 answer's own socket, so end() (which uncorks its socket fully)
 * sends what is held with the end of the body; Node 24 drops what a corked response (rather than
 * its socket) still holds when end() comes. Other answers (HTTP/2, in process) cork themselves.
 */
function corkable(res: ServerResponse): { cork(): void; uncork(): void } {
  const socket = res.socket
  // An HTTP/2 answer (it has a `stream`) shares its session's socket; an in-process one has none.
  return 'stream' in res || typeof socket?.cork !== 'function' ? res : socket
}

/**
 * Ends the answer with the held batch as its last chunk, before the socket is uncorked, so the
 * batch and the end of the body leave in one write.
 */
function end(res: ServerResponse): void {
  const batch = held.get(res)
  held.delete(res)
  const text = batch && leave(batch)
  res.end(res.destroyed ? undefined : text)
}

/**
 * Whether the writer must wait before writing more. Node 22+ does not flag (or later `drain`) a
 * response for what it took while corked, so the socket is asked too.
 */
function mustWait(res: ServerResponse): boolean {
  return res.writableNeedDrain || res.socket?.writableNeedDrain === true
}

