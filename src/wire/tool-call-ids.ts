/**
 * Tool-call ids on the wire (SPEC §10.1): an id a script chose is kept; an id a double
 * generated (`call_<call>_<n>`) takes the format of the dialect carrying it (`call_…` on
 * OpenAI wires, `toolu_…` on Anthropic's), the same one every time for the same proxy request.
 * @module
 */
import type { ModelResponse, StreamEvent } from '../llm/types.js'
import { isGeneratedToolCallId, wireId, type WireIdKind } from './wire-ids.js'

/** Renames generated ids into `kind`; a generated id always maps to the same wire id. */
export function toolCallIdRenamer(kind: WireIdKind): (id: string) => string {
  return (id) => (isGeneratedToolCallId(id) ? wireId(kind, id) : id)
}

/** `response` with its tool calls renamed (a copy when any changes). */
export function renameToolCalls(response: ModelResponse, rename: (id: string) => string): ModelResponse {
  if (!Array.isArray(response?.content) || !renamesAny(response.content, rename)) return response
  return {
    ...response,
    content: response.content.map((part) => (part.type === 'tool-call' ? { ...part, id: rename(part.id) } : part)),
  }
}

/** `event` with its tool calls, the final response's included, renamed (a copy when it has any). */
export function renameToolCallEvent(event: StreamEvent, rename: (id: string) => string): StreamEvent {
  if (event.type === 'tool-call') return { ...event, id: rename(event.id) }
  if (event.type === 'finish') return { ...event, response: renameToolCalls(event.response, rename) }
  return event
}

/**
 * Whether `rename` changes the id of a tool call in `content`, as `content.some()` would find it
 * (holes skipped, stopping at the first), without the closure: every answer comes through here.
 */
function renamesAny(content: ModelResponse['content'], rename: (id: string) => string): boolean {
  for (let i = 0; i < content.length; i++) {
    if (!(i in content)) continue
    const part = content[i]
    if (part.type === 'tool-call' && rename(part.id) !== part.id) return true
  }
  return false
}
