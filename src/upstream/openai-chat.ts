/**
 * An OpenAI Chat Completions answer (`reference/wire-protocols.md` §2.2–§2.3), JSON or SSE,
 * read back into the neutral {@link ModelResponse} a transcript keeps.
 * @module
 */
import type { FinishReason, ModelResponse, Part } from '../llm/types.js'
import { parseArguments } from '../wire/dialect.js'
import { fields, parseJson, parseSse, tokens } from './sse-events.js'

/** Chat's `finish_reason` in the neutral vocabulary; a value it does not know reads as `stop` (or `tool-calls` when calls were made). */
export function chatFinish(reason: unknown, hasCalls: boolean): FinishReason {
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool-calls'
  if (reason === 'length') return 'length'
  if (reason === 'content_filter') return 'content-filter'
  return hasCalls && reason !== 'stop' ? 'tool-calls' : 'stop'
}

function usageOf(usage: unknown): ModelResponse['usage'] {
  const u = fields(usage)
  return { inputTokens: tokens(u.prompt_tokens), outputTokens: tokens(u.completion_tokens) }
}

/** Text some OpenAI-compatible servers send as reasoning (`reasoning_content` or `reasoning`). */
function reasoningOf(message: Record<string, unknown>): string {
  const text = message.reasoning_content ?? message.reasoning
  return typeof text === 'string' ? text : ''
}

/** A `chat.completion` JSON body, or `undefined` when it is not one. */
export function decodeChatJson(json: unknown): ModelResponse | undefined {
  const body = fields(json)
  if (!Array.isArray(body.choices) || body.choices.length === 0) return undefined
  const choice = fields(body.choices[0])
  const message = fields(choice.message)
  const content: Part[] = []
  const reasoning = reasoningOf(message)
  if (reasoning !== '') content.push({ type: 'reasoning', text: reasoning })
  if (typeof message.content === 'string' && message.content !== '') content.push({ type: 'text', text: message.content })
  // A refusal is the model's answer too: kept as its text, finishing as a content filter.
  const refused = typeof message.refusal === 'string' && message.refusal !== ''
  if (refused) content.push({ type: 'text', text: message.refusal as string })
  for (const raw of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const call = fields(raw)
    const fn = fields(call.function)
    content.push({ type: 'tool-call', id: String(call.id ?? ''), name: String(fn.name ?? ''), args: parseArguments(fn.arguments) })
  }
  const hasCalls = content.some((part) => part.type === 'tool-call')
  return finished(body, content, refused ? 'content-filter' : chatFinish(choice.finish_reason, hasCalls), usageOf(body.usage))
}

/** One tool call being rebuilt from its deltas. */
interface CallDraft {
  id: string
  name: string
  args: string
}

/**
 * A Chat Completions event stream, accumulated: text and reasoning deltas joined, tool calls
 * rebuilt by `index` from split arguments, the finish reason and the usage chunk read. A stream
 * that carries an error frame, or ends without a finish reason, is `undefined` (not a whole turn).
 */
export function decodeChatStream(text: string): ModelResponse | undefined {
  let head: Record<string, unknown> = {}
  let reasoning = ''
  let answer = ''
  let refusal = ''
  const calls = new Map<number, CallDraft>()
  let finish: unknown
  let usage: ModelResponse['usage'] = { inputTokens: 0, outputTokens: 0 }
  for (const event of parseSse(text)) {
    if (event.data === '[DONE]') break
    const chunk = fields(parseJson(event.data))
    if (chunk.error !== undefined) return undefined
    if (typeof chunk.id === 'string' && head.id === undefined) head = chunk
    if (chunk.usage) usage = usageOf(chunk.usage)
    const choice = fields(Array.isArray(chunk.choices) ? chunk.choices.find((c) => fields(c).index === 0 || fields(c).index === undefined) : undefined)
    const delta = fields(choice.delta)
    reasoning += reasoningOf(delta)
    if (typeof delta.content === 'string') answer += delta.content
    if (typeof delta.refusal === 'string') refusal += delta.refusal
    for (const raw of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const piece = fields(raw)
      const index = typeof piece.index === 'number' ? piece.index : calls.size
      const fn = fields(piece.function)
      const call = calls.get(index) ?? { id: '', name: '', args: '' }
      if (typeof piece.id === 'string' && call.id === '') call.id = piece.id
      if (typeof fn.name === 'string' && call.name === '') call.name = fn.name
      if (typeof fn.arguments === 'string') call.args += fn.arguments
      calls.set(index, call)
    }
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) finish = choice.finish_reason
  }
  if (finish === undefined) return undefined
  const content: Part[] = []
  if (reasoning !== '') content.push({ type: 'reasoning', text: reasoning })
  if (answer !== '') content.push({ type: 'text', text: answer })
  if (refusal !== '') content.push({ type: 'text', text: refusal })
  for (const [, call] of [...calls].sort(([a], [b]) => a - b)) {
    content.push({ type: 'tool-call', id: call.id, name: call.name, args: parseArguments(call.args) })
  }
  const reason = refusal !== '' ? 'content-filter' : chatFinish(finish, calls.size > 0)
  return finished(head, content, reason, usage)
}

function finished(head: Record<string, unknown>, content: Part[], finishReason: FinishReason, usage: ModelResponse['usage']): ModelResponse {
  const response: ModelResponse = { content, finishReason, usage }
  if (typeof head.model === 'string') response.model = head.model
  if (typeof head.id === 'string') response.id = head.id
  return response
}
