/**
 * Vertex AI (SPEC §21): its route, serving Gemini and Anthropic models with their own dialects,
 * and its hosts. The one entry the list of dialects (../dialects.ts) holds for Vertex.
 * @module
 */
import { defineProvider, type Route } from '../dialect.js'
import { geminiCountTokens, geminiGenerate } from '../gemini/codec.js'
import { anthropicOnVertex } from './anthropic.js'
import { onVertex } from './gemini.js'
import { VERTEX_ANTHROPIC_METHODS, VERTEX_GEMINI_METHODS, VERTEX_MODEL_PATH } from './routes.js'

const geminiGenerateOnVertex = onVertex(geminiGenerate)
const geminiCountTokensOnVertex = onVertex(geminiCountTokens)

/** The hosts Vertex AI answers on (regional, global and multi-regional), for routing (SPEC §9). */
export const vertexHosts: readonly string[] = ['aiplatform.googleapis.com', '*-aiplatform.googleapis.com', 'aiplatform.*.rep.googleapis.com']

/**
 * Vertex's route: the path pattern and the dialect for a match (the method decides), or
 * `undefined` for a method Vertex has but the fake does not serve.
 */
export const vertexRoute = {
  path: VERTEX_MODEL_PATH,
  route: (match: RegExpExecArray): Route | undefined => {
    const [, publisher, , method] = match
    if (publisher === 'google' && VERTEX_GEMINI_METHODS.has(method)) return { method: 'POST', dialect: method === 'countTokens' ? geminiCountTokensOnVertex : geminiGenerateOnVertex }
    if (publisher === 'anthropic' && VERTEX_ANTHROPIC_METHODS.has(method)) return { method: 'POST', dialect: anthropicOnVertex }
    return undefined
  },
  examples: [
    '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
    '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:countTokens',
    '/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4:rawPredict',
  ],
}

/** Vertex AI: Gemini and Anthropic models under `/v1/projects/{p}/locations/{l}/publishers/…`. */
export const vertexProvider = defineProvider({
  name: 'Vertex AI',
  // Gemini's and Anthropic's dialects, by their own names, on Vertex's paths.
  dialectNames: [],
  dialects: [geminiGenerateOnVertex, geminiCountTokensOnVertex, anthropicOnVertex],
  patterns: [vertexRoute],
  // Google's error shape (Vertex answers in it for both publishers' unknown methods).
  unknownPath: (path) => (/^\/v1(beta1)?\/projects\//.test(path) ? geminiGenerate : undefined),
  // Vertex AI's multi-regional endpoints (`eu`, `us`) included.
  hosts: vertexHosts.map((host) => ({ host })),
})
