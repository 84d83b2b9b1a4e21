/**
 * Turns a whole `ModelResponse` into the `StreamEvent`s a streamed call yields: text and
 * reasoning split into chunks, tool calls whole, one `finish` at the end.
 * @module
 */
import type { ModelResponse, StreamEvent } from './types.js'

/** How streamed text is split: by word (each word keeps its trailing space), by character, or every `n` characters. */
export type Chunking = 'words' | 'chars' | number

/** Delays of a streamed answer, in milliseconds. */
export interface Latency {
  /** Before the first chunk. @default 0 */
  firstChunkMs?: number
  /** Between chunks. @default 0 */
  chunkMs?: number
}

/** Splits `text` into chunks that join back to exactly `text`; `''` gives no chunks. */
export function chunkText(text: string, chunking: Chunking): string[] {
  if (text === '') return []
  if (chunking === 'chars') return Array.from(text)
  if (typeof chunking === 'number') {
    const chars = Array.from(text)
    const chunks: string[] = []
    for (let i = 0; i < chars.length; i += chunking) chunks.push(chars.slice(i, i + chunking).join(''))
    return chunks
  }
  // Each chunk is a word with the whitespace after it (the first also takes any before it).
  return text.match(/\s*\S+\s*/gu) ?? [text]
}

/** The events of `response`, in content order, without delays. */
export function responseEvents(response: ModelResponse, chunking: Chunking): StreamEvent[] {
  const events: StreamEvent[] = []
  for (const part of response.content) {
    if (part.type === 'text') {
      // An empty text still streams as one (empty) delta, so a stream carries the same text
      // block the JSON answer does.
      const chunks = part.text === '' ? [''] : chunkText(part.text, chunking)
      for (const text of chunks) events.push({ type: 'text-delta', text })
    } else if (part.type === 'reasoning') {
      for (const text of chunkText(part.text, chunking)) events.push({ type: 'reasoning-delta', text })
    } else if (part.type === 'tool-call') events.push({ type: 'tool-call', id: part.id, name: part.name, args: part.args })
  }
  events.push({ type: 'finish', response })
  return events
}

/**
 * Yields the events of `response` with the configured delays: `firstChunkMs` before the first
 * event, `chunkMs` between events. No timer is armed when a delay is 0.
 */
export async function* streamResponse(
  response: ModelResponse,
  chunking: Chunking,
  latency: Latency = {},
): AsyncGenerator<StreamEvent> {
  const events = responseEvents(response, chunking)
  for (let i = 0; i < events.length; i++) {
    const delay = i === 0 ? (latency.firstChunkMs ?? 0) : (latency.chunkMs ?? 0)
    if (delay > 0) await sleep(delay)
    yield events[i]
  }
}

/** Waits on the global timer, so a test's fake timers (`vi.useFakeTimers()`) control latency too. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
