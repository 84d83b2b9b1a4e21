/**
 * The brain a FakeProxy answers with when it was given no `LLM`: a short canned reply, or,
 * when the request asks for JSON, the smallest value its schema accepts, so structured-output
 * clients parse what they get.
 * @module
 */
import type { LLM, ModelRequest, ModelResponse, StreamEvent } from '../llm/types.js'

/** The text of the canned reply. */
export const CANNED_REPLY = 'Hello from FakeProxy.'

/** The default brain: answers every request the same way, streamed in a few deltas. */
export const defaultBrain: LLM = {
  async generate(request: ModelRequest): Promise<ModelResponse> {
    return cannedResponse(request)
  },
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const response = cannedResponse(request)
    const text = response.content[0]?.type === 'text' ? response.content[0].text : ''
    const middle = Math.ceil(text.length / 2)
    for (const piece of [text.slice(0, middle), text.slice(middle)]) if (piece) yield { type: 'text-delta', text: piece }
    yield { type: 'finish', response }
  },
}

function cannedResponse(request: ModelRequest): ModelResponse {
  const text = request.responseFormat ? JSON.stringify(sampleOf(request.responseFormat.schema)) : CANNED_REPLY
  return {
    content: [{ type: 'text', text }],
    finishReason: 'stop',
    usage: { inputTokens: countTokens(request), outputTokens: Math.max(1, Math.ceil(text.length / 4)) },
    model: request.model,
  }
}

/** A rough token count of the request's text (about four characters a token). */
function countTokens(request: ModelRequest): number {
  let chars = request.system?.length ?? 0
  for (const message of request.messages) {
    for (const part of message.content) if (part.type === 'text') chars += part.text.length
  }
  return Math.max(1, Math.ceil(chars / 4))
}

/** The smallest value a JSON Schema accepts, good enough for the schemas clients send. */
export function sampleOf(schema: unknown, depth = 0): unknown {
  if (schema === null || typeof schema !== 'object' || depth > 8) return {}
  const s = schema as Record<string, unknown>
  if ('const' in s) return s.const
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0]
  if (s.default !== undefined) return s.default
  const variants = (s.anyOf ?? s.oneOf) as unknown[] | undefined
  if (Array.isArray(variants) && variants.length > 0) return sampleOf(variants[0], depth + 1)
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case 'string':
      return 'string'
    case 'number':
    case 'integer':
      return typeof s.minimum === 'number' ? s.minimum : 0
    case 'boolean':
      return false
    case 'null':
      return null
    case 'array':
      return typeof s.minItems === 'number' && s.minItems > 0 ? Array.from({ length: s.minItems }, () => sampleOf(s.items, depth + 1)) : []
    default: {
      const properties = (s.properties ?? {}) as Record<string, unknown>
      const out: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(properties)) out[key] = sampleOf(value, depth + 1)
      return out
    }
  }
}
