/**
 * Reading a recorded upstream answer back: server-sent events split into frames, and JSON
 * parsed without throwing. The decoders of each dialect build on these.
 * @module
 */
import { utf8Text } from '../internal/bytes.js'

/** One server-sent event as it arrived: its `event:` name (if any) and its joined `data:` lines. */
export interface SseEvent {
  event?: string
  data: string
}

/**
 * The events of a whole SSE body. `\n\n`, `\r\n\r\n` and `\r\r` all end an event, lines starting
 * with `:` are comments, and several `data:` lines are joined with `\n` — as every SDK reads them.
 * An event the body ends in the middle of (no blank line after it) is dropped, as clients drop it.
 */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = []
  let name: string | undefined
  let data: string[] = []
  const lines = text.split(/\r\n|\r|\n/)
  // The last element is what follows the final line break: an unfinished line, never dispatched.
  lines.pop()
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) events.push({ ...(name === undefined ? {} : { event: name }), data: data.join('\n') })
      name = undefined
      data = []
      continue
    }
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') name = value
    else if (field === 'data') data.push(value)
  }
  return events
}

/** `text` parsed as JSON, or `undefined` when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The body as UTF-8 text. */
export function bodyText(body: Uint8Array): string {
  return utf8Text(body)
}

/** Whether a content type is an event stream. */
export function isEventStream(contentType: string): boolean {
  return /^\s*text\/event-stream\b/i.test(contentType)
}

/** A plain-object view of `value` (empty for anything else), for reading optional fields. */
export function fields(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/** A non-negative token count, or 0 for anything else. */
export function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0
}
