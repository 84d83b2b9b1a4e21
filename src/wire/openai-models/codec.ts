/**
 * The model list (`GET /v1/models`, `GET /v1/models/{id}`), in OpenAI's shape, or in
 * Anthropic's when the caller sends `anthropic-version` (the Anthropic SDK lists models on the
 * same path), or in Gemini's when it sends `x-goog-api-key`.
 * @module
 */
import type { ModelRequest } from '../../llm/types.js'
import type { DirectDialect } from '../dialect.js'
import { geminiModels } from '../gemini/codec.js'
import { openaiProviderError } from '../openai-chat/errors.js'

/** The models the fake lists. */
export const listedModels: readonly string[] = Object.freeze([
  'gpt-5',
  'gpt-4o-mini',
  'text-embedding-3-small',
  'claude-sonnet-4-6',
  'claude-haiku-4-6',
])

const CREATED = 1_700_000_000

/** The model-list dialect. */
export const openaiModels: DirectDialect = {
  id: 'openai-models',
  kind: 'direct',
  errorStyle: 'openai',
  providerError: openaiProviderError,
  needs: [],
  modelTraffic: false,
  decode: (): ModelRequest => ({ model: '', messages: [], stream: false }),
  answer: (request, context) => {
    const { headers, path } = context
    // `@google/genai` 3 lists models on `/v1/models` too, with its API key header.
    if (headers['x-goog-api-key'] !== undefined) return geminiModels.answer(request, context)
    const anthropic = headers['anthropic-version'] !== undefined
    const one = /\/models\/([^/]+)$/.exec(path)
    if (one) {
      const id = safeDecode(one[1])
      return anthropic ? anthropicModel(id) : openaiModel(id)
    }
    if (anthropic) {
      const data = listedModels.map(anthropicModel)
      return { data, has_more: false, first_id: data[0].id, last_id: data.at(-1)?.id }
    }
    return { object: 'list', data: listedModels.map(openaiModel) }
  },
}

/** A path segment decoded, or as sent when it is not valid percent-encoding. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** One model in Anthropic's shape. */
function anthropicModel(id: string): Record<string, unknown> {
  return { type: 'model', id, display_name: id, created_at: new Date(CREATED * 1000).toISOString() }
}

/** One model in OpenAI's shape (also the answer of `GET /v1/models/{id}`). */
export function openaiModel(id: string): Record<string, unknown> {
  return { id, object: 'model', created: CREATED, owned_by: 'agent-doubles' }
}
