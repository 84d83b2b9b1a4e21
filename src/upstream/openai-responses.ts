/**
 * An OpenAI Responses answer (`reference/wire-protocols.md` §3.2–§3.3), JSON or SSE, read back
 * into the neutral {@link ModelResponse} a transcript keeps. A stream's terminal
 * `response.completed` (or `response.incomplete`) event carries the whole response object, so
 * the stream is read from that one event.
 * @module
 */
import type { FinishReason, ModelResponse, Part } from '../llm/types.js'
import { parseArguments } from '../wire/dialect.js'
import { fields, parseJson, parseSse, tokens } from './sse-events.js'

/** The terminal events whose `response` is the whole answer. */
const TERMINAL = new Set(['response.completed', 'response.incomplete'])

/** A `response` object (JSON answer or a terminal event's `response`), or `undefined` when it is not a finished one. */
export function decodeResponseObject(json: unknown): ModelResponse | undefined {
  const body = fields(json)
  if (!Array.isArray(body.output)) return undefined
  if (body.error !== null && body.error !== undefined) return undefined
  if (body.status === 'failed' || body.status === 'cancelled' || body.status === 'in_progress' || body.status === 'queued') return undefined
  const content: Part[] = []
  let refused = false
  for (const raw of body.output) {
    const item = fields(raw)
    if (item.type === 'message') {
      for (const rawPart of Array.isArray(item.content) ? item.content : []) {
        const part = fields(rawPart)
        if (part.type === 'output_text' && typeof part.text === 'string') pushText(content, part.text)
        else if (part.type === 'refusal' && typeof part.refusal === 'string') {
          refused = true
          pushText(content, part.refusal)
        }
      }
    } else if (item.type === 'function_call') {
      content.push({ type: 'tool-call', id: String(item.call_id ?? item.id ?? ''), name: String(item.name ?? ''), args: parseArguments(item.arguments) })
    } else if (item.type === 'reasoning') {
      const text = reasoningText(item)
      if (text !== '') content.push({ type: 'reasoning', text })
    }
    // Built-in tools (web search, file search, …) run on the provider's side: not model turns to replay.
  }
  const usage = fields(body.usage)
  const response: ModelResponse = {
    content,
    finishReason: refused ? 'content-filter' : finishOf(body, content),
    usage: { inputTokens: tokens(usage.input_tokens), outputTokens: tokens(usage.output_tokens) },
  }
  if (typeof body.model === 'string') response.model = body.model
  if (typeof body.id === 'string') response.id = body.id
  return response
}

/** A Responses event stream, read from its terminal event; `undefined` if it failed or never finished. */
export function decodeResponsesStream(text: string): ModelResponse | undefined {
  for (const event of parseSse(text)) {
    const data = fields(parseJson(event.data))
    const type = data.type ?? event.event
    if (type === 'error' || type === 'response.failed') return undefined
    if (typeof type === 'string' && TERMINAL.has(type)) return decodeResponseObject(data.response)
  }
  return undefined
}

/** Consecutive text (one message's parts) joins into one text part. */
function pushText(content: Part[], text: string): void {
  const last = content.at(-1)
  if (last?.type === 'text') last.text += text
  else content.push({ type: 'text', text })
}

function reasoningText(item: Record<string, unknown>): string {
  const join = (pieces: unknown): string =>
    (Array.isArray(pieces) ? pieces : [])
      .map(fields)
      .flatMap((piece) => (typeof piece.text === 'string' ? [piece.text] : []))
      .join('')
  // The summary is what clients show; the raw `reasoning_text` content only stands in without one.
  return join(item.summary) || join(item.content)
}

function finishOf(body: Record<string, unknown>, content: Part[]): FinishReason {
  const reason = fields(body.incomplete_details).reason
  if (reason === 'max_output_tokens') return 'length'
  if (reason === 'content_filter') return 'content-filter'
  return content.some((part) => part.type === 'tool-call') ? 'tool-calls' : 'stop'
}
