/**
 * OpenAI embeddings (`POST /v1/embeddings`): deterministic vectors derived from the input text,
 * so equal texts embed equally and tests can compare them. `encoding_format: 'base64'` (what
 * the `openai` client asks for by default) is honoured as little-endian float32.
 * @module
 */
import type { ModelRequest } from '../../llm/types.js'
import { BadRequest, numberOr, requireString, type DirectDialect } from '../dialect.js'

/** Dimensions of a vector when the request does not ask for a number. */
export const DEFAULT_DIMENSIONS = 64

/** The OpenAI embeddings dialect. */
export const openaiEmbeddings: DirectDialect = {
  id: 'openai-embeddings',
  kind: 'direct',
  errorStyle: 'openai',
  needs: ['embeddings'],
  decode,
  answer: async (request, { json, embed: vectorOf }) => {
    const dimensions = numberOr(json.dimensions) ?? DEFAULT_DIMENSIONS
    const base64 = json.encoding_format === 'base64'
    const texts = inputsOf(request)
    const vectors = await Promise.all(texts.map((text) => vectorOf(text, request.model, dimensions)))
    return {
      object: 'list',
      data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: base64 ? toBase64(vector) : vector })),
      model: request.model,
      usage: { prompt_tokens: tokenCount(texts), total_tokens: tokenCount(texts) },
    }
  },
}

function decode(json: Record<string, unknown>): ModelRequest {
  const model = requireString(json, 'model')
  const dimensions = json.dimensions
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && (dimensions as number) > 0 && (dimensions as number) <= 8192)) {
    throw new BadRequest('dimensions must be an integer from 1 to 8192', 'dimensions')
  }
  const inputs = normaliseInput(json.input)
  return { model, messages: [{ role: 'user', content: inputs.map((text) => ({ type: 'text' as const, text })) }], stream: false }
}

/** `input` as texts: a string, strings, or token arrays (kept as their numbers joined). */
function normaliseInput(input: unknown): string[] {
  if (typeof input === 'string') return [input]
  if (Array.isArray(input) && input.length > 0) {
    if (input.every((item) => typeof item === 'number')) return [input.join(' ')]
    if (input.every((item) => typeof item === 'string')) return input as string[]
    if (input.every((item) => Array.isArray(item))) return input.map((tokens) => (tokens as unknown[]).join(' '))
  }
  throw new BadRequest('input must be a string, an array of strings, or an array of token arrays', 'input')
}

function inputsOf(request: ModelRequest): string[] {
  return request.messages.flatMap((message) => message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])))
}

function tokenCount(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / 4)), 0)
}

/** A unit vector from `text`: each component from an FNV-1a hash of the text and its index. */
export function embed(text: string, dimensions: number): number[] {
  const vector: number[] = []
  for (let i = 0; i < dimensions; i++) {
    let hash = 0x811c9dc5 ^ i
    for (let c = 0; c < text.length; c++) {
      hash ^= text.charCodeAt(c)
      hash = Math.imul(hash, 0x01000193)
    }
    vector.push(((hash >>> 0) / 0xffffffff) * 2 - 1)
  }
  const norm = Math.hypot(...vector) || 1
  // Round through float32 so the float and base64 encodings give the same numbers.
  return vector.map((value) => Math.fround(value / norm))
}

function toBase64(vector: readonly number[]): string {
  const bytes = new DataView(new ArrayBuffer(vector.length * 4))
  vector.forEach((value, i) => bytes.setFloat32(i * 4, value, true))
  return Buffer.from(bytes.buffer).toString('base64')
}
