/**
 * Claude on Vertex AI: the Anthropic Messages dialect itself, with the model taken from the path
 * (Vertex's body has none) and the body's `anthropic_version` required, as Vertex requires it.
 * `:rawPredict` answers one message, `:streamRawPredict` streams Anthropic's SSE (the body's
 * `stream` decides, as on Anthropic's API).
 * @module
 */
import { anthropicMessages } from '../anthropic-messages/codec.js'
import { BadRequest, type ModelDialect } from '../dialect.js'
import { vertexTarget } from './routes.js'

/**
 * Anthropic Messages on `…/publishers/anthropic/models/{model}:rawPredict` and `:streamRawPredict`.
 * @example
 * anthropicOnVertex.prepare!({ anthropic_version: 'vertex-2023-10-16', max_tokens: 9, messages }, target).model // the path's model
 */
export const anthropicOnVertex: ModelDialect = {
  ...anthropicMessages,
  prepare: (json, target) => {
    if (typeof json.anthropic_version !== 'string') throw new BadRequest('anthropic_version: Field required', 'anthropic_version')
    const model = vertexTarget(target)?.model
    return model === undefined ? json : { ...json, model }
  },
}
