/**
 * A neutral {@link ModelRequest} as an Anthropic Messages request body
 * (`reference/wire-protocols.md` §3), for asking an Anthropic-compatible origin. Tool results
 * travel in user turns, and consecutive turns of one role are merged, as the API wants them.
 * @module
 */
import type { ModelRequest, Part, ToolChoice } from '../llm/types.js'

/** `max_tokens` is required by the API: used when the request names none. */
export const DEFAULT_MAX_TOKENS = 4096

type Block = Record<string, unknown>

/**
 * The Messages body asking `request` without streaming. A JSON `responseFormat` is not sent (the
 * API has no such field); reasoning parts are left out (the API wants its own signatures back).
 * @example
 * messagesRequestBody({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false })
 * // { model: 'claude-sonnet-4-6', max_tokens: 4096, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false }
 */
export function messagesRequestBody(request: ModelRequest): Record<string, unknown> {
  const messages: Array<{ role: 'user' | 'assistant'; content: Block[] }> = []
  for (const message of request.messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const blocks = message.content.flatMap(blockOf)
    if (blocks.length === 0) continue
    const last = messages.at(-1)
    if (last?.role === role) last.content.push(...blocks)
    else messages.push({ role, content: blocks })
  }
  const body: Record<string, unknown> = { model: request.model, max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS, messages, stream: false }
  if (request.system) body.system = request.system
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({ name: tool.name, ...(tool.description !== undefined && { description: tool.description }), input_schema: tool.parameters ?? { type: 'object' } }))
  }
  if (request.toolChoice !== undefined) body.tool_choice = messagesToolChoice(request.toolChoice)
  if (request.temperature !== undefined) body.temperature = request.temperature
  return body
}

function messagesToolChoice(choice: ToolChoice): Block {
  if (choice === 'required') return { type: 'any' }
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', name: choice.name }
}

function blockOf(part: Part): Block[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ type: 'text', text: part.text }]
    case 'tool-call':
      return [{ type: 'tool_use', id: part.id, name: part.name, input: part.args ?? {} }]
    case 'tool-result':
      return [
        { type: 'tool_result', tool_use_id: part.id, content: typeof part.result === 'string' ? part.result : JSON.stringify(part.result), ...(part.isError && { is_error: true }) },
      ]
    case 'image':
      return [{ type: 'image', source: part.url ? { type: 'url', url: part.url } : { type: 'base64', media_type: part.mediaType ?? 'image/png', data: part.data ?? '' } }]
    case 'reasoning':
      return []
  }
}
