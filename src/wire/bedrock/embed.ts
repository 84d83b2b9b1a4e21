/**
 * Amazon Bedrock embeddings through InvokeModel (`POST /model/{modelId}/invoke` on an embedding
 * model): Amazon Titan's body (`inputText`, `dimensions`) answered with `{ embedding,
 * inputTextTokenCount }`, and Cohere's (`texts`) with `{ id, embeddings, response_type, texts }`.
 * @module
 */
import type { ModelRequest } from '../../llm/types.js'
import { BadRequest, type DirectDialect } from '../dialect.js'
import { bedrockTarget } from './converse.js'
import { bedrockErrorAnswer, bedrockProviderError } from './errors.js'
import { requestedDimensions } from '../params.js'

/** Whether `modelId` names an embedding model (Titan, Cohere and Nova embedding ids contain `embed`). */
export function isEmbeddingModel(modelId: string): boolean {
  return /embed/i.test(modelId)
}

/** The texts of a Titan (`inputText`) or Cohere (`texts`, at most 96) body. */
function inputsOf(json: Record<string, unknown>): { texts: string[]; cohere: boolean } {
  if (typeof json.inputText === 'string') return { texts: [json.inputText], cohere: false }
  const texts = json.texts
  if (Array.isArray(texts) && texts.length > 0 && texts.length <= 96 && texts.every((text) => typeof text === 'string')) return { texts, cohere: true }
  throw new BadRequest('Malformed input request: expected inputText (a string) or texts (1 to 96 strings), please reformat your input and try again.', 'inputText')
}

function dimensionsOf(json: Record<string, unknown>): number {
  const message = 'Malformed input request: dimensions must be an integer from 1 to 8192, please reformat your input and try again.'
  return requestedDimensions(json.dimensions ?? json.output_dimension, 8192, message, 'dimensions')
}

/** InvokeModel on an embedding model. */
export const bedrockEmbed: DirectDialect = {
  id: 'bedrock-embed',
  kind: 'direct',
  errorStyle: 'openai',
  needs: ['embeddings'],
  errorAnswer: bedrockErrorAnswer,
  providerError: bedrockProviderError,
  decode: (json, target): ModelRequest => {
    const { modelId } = bedrockTarget(target)
    dimensionsOf(json)
    const { texts } = inputsOf(json)
    return { model: modelId, messages: [{ role: 'user', content: texts.map((text) => ({ type: 'text' as const, text })) }], stream: false }
  },
  answer: async (request, { json, id, embed }) => {
    const { texts, cohere } = inputsOf(json)
    const dimensions = dimensionsOf(json)
    const vectors = await Promise.all(texts.map((text) => embed(text, request.model, dimensions)))
    const tokens = texts.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / 4)), 0)
    if (cohere) return { id: `emb_${id}`, embeddings: vectors, response_type: 'embeddings_floats', texts }
    return { embedding: vectors[0], inputTextTokenCount: tokens }
  },
}
