/**
 * Vertex AI's routes (SPEC §21): Gemini (`publishers/google`) and Anthropic (`publishers/anthropic`)
 * models under `/{version}/projects/{project}/locations/{location}/`. The project and location are
 * read, not checked: the fake serves any.
 * @module
 */
import type { RequestTarget } from '../dialect.js'
import { decodeSegment } from '../params.js'

/**
 * `/{v1|v1beta1}/projects/{p}/locations/{l}/publishers/{google|anthropic}/models/{model}:{method}`,
 * capturing the publisher, the model and the method. `@google/genai` speaks `v1beta1` by default,
 * `@ai-sdk/google-vertex` `v1beta1` without a base URL, `@anthropic-ai/vertex-sdk` `v1`.
 */
export const VERTEX_MODEL_PATH = /^\/v1(?:beta1)?\/projects\/[^/]+\/locations\/[^/]+\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)$/

/** The Gemini methods Vertex serves with Gemini's own bodies. */
export const VERTEX_GEMINI_METHODS = new Set(['generateContent', 'streamGenerateContent', 'countTokens'])

/** The Anthropic methods on Vertex: one answer, or a stream. */
export const VERTEX_ANTHROPIC_METHODS = new Set(['rawPredict', 'streamRawPredict'])

/** What a Vertex path names: publisher, model and method; `undefined` off Vertex's paths. */
export function vertexTarget(target: RequestTarget | undefined): { publisher: 'google' | 'anthropic'; model: string; method: string } | undefined {
  const match = target && VERTEX_MODEL_PATH.exec(target.path)
  if (!match) return undefined
  return { publisher: match[1] as 'google' | 'anthropic', model: decodeSegment(match[2]), method: match[3] }
}
