/**
 * A neutral {@link ModelRequest} as an OpenAI Chat Completions request body
 * (`reference/wire-protocols.md` §2.1), for asking an OpenAI-compatible origin. The inverse of
 * the Chat dialect's request decoder, as far as the neutral model carries.
 * @module
 */
import type { Message, ModelRequest, Part, ToolChoice } from '../llm/types.js'

type ChatMessage = Record<string, unknown>

/**
 * The Chat Completions body asking `request` without streaming.
 * @example
 * chatRequestBody({ model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false })
 * // { model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], stream: false }
 */
export function chatRequestBody(request: ModelRequest): Record<string, unknown> {
  const messages: ChatMessage[] = request.system ? [{ role: 'system', content: request.system }] : []
  for (const message of request.messages) messages.push(...chatMessages(message))
  const body: Record<string, unknown> = { model: request.model, messages, stream: false }
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description !== undefined && { description: tool.description }), parameters: tool.parameters ?? { type: 'object' } },
    }))
  }
  if (request.toolChoice !== undefined) body.tool_choice = chatToolChoice(request.toolChoice)
  if (request.responseFormat) {
    const { schema, name } = request.responseFormat
    body.response_format = schema === undefined ? { type: 'json_object' } : { type: 'json_schema', json_schema: { name: name ?? 'response', schema } }
  }
  if (request.maxTokens !== undefined) body.max_completion_tokens = request.maxTokens
  if (request.temperature !== undefined) body.temperature = request.temperature
  return body
}

function chatToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } }
}

/** One neutral message as Chat messages: each tool result is a `tool` message of its own. */
function chatMessages(message: Message): ChatMessage[] {
  const results = message.content.filter((part) => part.type === 'tool-result')
  const rest = message.content.filter((part) => part.type !== 'tool-result' && part.type !== 'reasoning')
  const out: ChatMessage[] = results.map((part) => ({ role: 'tool', tool_call_id: part.id, content: typeof part.result === 'string' ? part.result : JSON.stringify(part.result) }))
  if (rest.length === 0) return out
  if (message.role === 'assistant') out.push(assistantMessage(rest))
  else out.push({ role: 'user', content: userContent(rest) })
  return out
}

function assistantMessage(parts: Part[]): ChatMessage {
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
  const calls = parts.flatMap((part) =>
    part.type === 'tool-call' ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.args ?? {}) } }] : [],
  )
  return { role: 'assistant', content: text === '' && calls.length ? null : text, ...(calls.length && { tool_calls: calls }) }
}

/** Plain text stays a string; text with images becomes content parts. */
function userContent(parts: Part[]): unknown {
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => (part as { text: string }).text).join('')
  return parts.flatMap<Record<string, unknown>>((part) => {
    if (part.type === 'text') return [{ type: 'text', text: part.text }]
    if (part.type === 'image') return [{ type: 'image_url', image_url: { url: part.url ?? `data:${part.mediaType ?? 'image/png'};base64,${part.data ?? ''}` } }]
    return []
  })
}
