/**
 * An Anthropic Messages answer (`reference/wire-protocols.md` §4.2–§4.3), JSON or SSE, read
 * back into the neutral {@link ModelResponse} a transcript keeps.
 * @module
 */
import type { FinishReason, ModelResponse, Part } from '../llm/types.js'
import { parseArguments } from '../wire/dialect.js'
import { fields, parseJson, parseSse, tokens } from './sse-events.js'

/** Anthropic's `stop_reason` in the neutral vocabulary (as the AI SDK maps it). */
export function anthropicFinish(reason: unknown, hasCalls: boolean): FinishReason {
  if (reason === 'tool_use') return 'tool-calls'
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length'
  if (reason === 'refusal') return 'content-filter'
  if (reason === 'end_turn' || reason === 'stop_sequence' || reason === 'pause_turn') return 'stop'
  return hasCalls ? 'tool-calls' : 'stop'
}

/** One content block as the neutral model keeps it; blocks it has no part for give `undefined`. */
function partOf(block: Record<string, unknown>): Part | undefined {
  if (block.type === 'text') return { type: 'text', text: String(block.text ?? '') }
  if (block.type === 'tool_use') return { type: 'tool-call', id: String(block.id ?? ''), name: String(block.name ?? ''), args: parseArguments(block.input) }
  if (block.type === 'thinking') return { type: 'reasoning', text: String(block.thinking ?? '') }
  // redacted_thinking, server tools and their results happen on the provider's side.
  return undefined
}

/** A `message` JSON body, or `undefined` when it is not one. */
export function decodeMessageJson(json: unknown): ModelResponse | undefined {
  const message = fields(json)
  if (message.type !== 'message' || !Array.isArray(message.content)) return undefined
  const content = message.content.flatMap((block) => partOf(fields(block)) ?? [])
  const usage = fields(message.usage)
  return finished(message, content, message.stop_reason, { inputTokens: tokens(usage.input_tokens), outputTokens: tokens(usage.output_tokens) })
}

/** One content block being rebuilt from its deltas. */
interface BlockDraft {
  block: Record<string, unknown>
  /** `input_json_delta` fragments of a tool_use block, joined. */
  json: string
}

/**
 * A Messages event stream, accumulated: `message_start`, content blocks by `index` (text,
 * thinking, tool_use with its `input_json_delta` fragments), `message_delta` (stop reason;
 * usage counters overwrite, they are totals) and `message_stop`. A stream with an `error`
 * event, or one that ends before `message_stop`, is `undefined` (not a whole turn).
 */
export function decodeMessagesStream(text: string): ModelResponse | undefined {
  let message: Record<string, unknown> | undefined
  const blocks = new Map<number, BlockDraft>()
  let stopReason: unknown
  let usage = { inputTokens: 0, outputTokens: 0 }
  for (const event of parseSse(text)) {
    const data = fields(parseJson(event.data))
    const type = data.type ?? event.event
    if (type === 'error') return undefined
    if (type === 'message_start') {
      message = fields(data.message)
      const start = fields(message.usage)
      usage = { inputTokens: tokens(start.input_tokens), outputTokens: tokens(start.output_tokens) }
    } else if (type === 'content_block_start' && typeof data.index === 'number') {
      blocks.set(data.index, { block: { ...fields(data.content_block) }, json: '' })
    } else if (type === 'content_block_delta' && typeof data.index === 'number') {
      const draft = blocks.get(data.index)
      if (draft) applyDelta(draft, fields(data.delta))
    } else if (type === 'message_delta') {
      const delta = fields(data.delta)
      if (delta.stop_reason !== undefined && delta.stop_reason !== null) stopReason = delta.stop_reason
      const counts = fields(data.usage)
      if (typeof counts.input_tokens === 'number') usage.inputTokens = tokens(counts.input_tokens)
      if (typeof counts.output_tokens === 'number') usage.outputTokens = tokens(counts.output_tokens)
    } else if (type === 'message_stop') {
      if (!message) return undefined
      const content = [...blocks]
        .sort(([a], [b]) => a - b)
        .flatMap(([, draft]) => partOf(draft.block.type === 'tool_use' && draft.json.trim() !== '' ? { ...draft.block, input: draft.json } : draft.block) ?? [])
      return finished(message, content, stopReason, usage)
    }
  }
  return undefined
}

function applyDelta(draft: BlockDraft, delta: Record<string, unknown>): void {
  const { block } = draft
  if (delta.type === 'text_delta' && typeof delta.text === 'string') block.text = String(block.text ?? '') + delta.text
  else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') block.thinking = String(block.thinking ?? '') + delta.thinking
  else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') draft.json += delta.partial_json
}

function finished(message: Record<string, unknown>, content: Part[], stopReason: unknown, usage: ModelResponse['usage']): ModelResponse {
  const hasCalls = content.some((part) => part.type === 'tool-call')
  const response: ModelResponse = { content, finishReason: anthropicFinish(stopReason, hasCalls), usage }
  if (typeof message.model === 'string') response.model = message.model
  if (typeof message.id === 'string') response.id = message.id
  return response
}
