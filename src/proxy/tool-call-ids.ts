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
  if (!Array.isArray(response?.content) || !response.content.some((part) => part.type === 'tool-call' && rename(part.id) !== part.id)) return response
  return {
    ...response,
    content: response.content.map((part) => (part.type === 'tool-call' ? { ...part, id: rename(part.id) } : part)),
  }
}

/** `events` with the tool calls of each event, the final response's included, renamed. */
export async function* renameToolCallEvents(events: AsyncIterable<StreamEvent>, rename: (id: string) => string): AsyncGenerator<StreamEvent> {
  for await (const event of events) {
    if (event.type === 'tool-call') yield { ...event, id: rename(event.id) }
    else if (event.type === 'finish') yield { ...event, response: renameToolCalls(event.response, rename) }
    else yield event
  }
}
