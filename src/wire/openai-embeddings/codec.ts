/**
 * OpenAI embeddings (`POST /v1/embeddings`): deterministic vectors derived from the input text,
 * so equal texts embed equally and tests can compare them. `encoding_format: 'base64'` (what
 * the `openai` client asks for by default) is honoured as little-endian float32. The provider's
 * limits hold, with its errors: at most 2048 inputs, 8192 tokens each and 300,000 in all, and
 * `dimensions` within the model's size. Large answers are built a slice at a time.
 * @module
 */
import { toBase64 as bytesToBase64 } from '../../internal/bytes.js'
import { yieldToLoop } from '../../internal/scheduling.js'
import type { ModelRequest } from '../../llm/types.js'
import { BadRequest, numberOr, requireString, type DirectContext, type DirectDialect } from '../dialect.js'
import { openaiProviderError } from '../openai-chat/errors.js'

/** Dimensions of a vector when the request does not ask for a number. */
export const DEFAULT_DIMENSIONS = 64

/** OpenAI's limits on one embeddings request. */
export const EMBEDDING_LIMITS = Object.freeze({
  /** Inputs in one request. */
  inputs: 2048,
  /** Tokens in one input. */
  tokensPerInput: 8192,
  /** Tokens summed across the inputs of one request. */
  tokensPerRequest: 300_000,
  /** The largest `dimensions` of a model this table does not know. */
  dimensions: 3072,
})

/** Each known model's largest `dimensions`; `0`: the model does not take `dimensions`. */
const MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 0,
}

/** How long the answer is built before the event loop gets a turn. */
const SLICE_MS = 20

/** The OpenAI embeddings dialect. */
export const openaiEmbeddings: DirectDialect = {
  id: 'openai-embeddings',
  kind: 'direct',
  errorStyle: 'openai',
  providerError: openaiProviderError,
  needs: ['embeddings'],
  decode,
  answer: async (request, context) => {
    let text = ''
    for await (const piece of answerPieces(request, context)) text += piece
    return JSON.parse(text)
  },
  answerText,
}

function decode(json: Record<string, unknown>): ModelRequest {
  const model = requireString(json, 'model')
  checkDimensions(model, json.dimensions)
  const inputs = normaliseInput(json.input)
  checkTokens(inputs)
  return { model, messages: [{ role: 'user', content: inputs.map(({ text }) => ({ type: 'text' as const, text })) }], stream: false }
}

function checkDimensions(model: string, dimensions: unknown): void {
  if (dimensions === undefined || dimensions === null) return
  const max = MODEL_DIMENSIONS[model] ?? EMBEDDING_LIMITS.dimensions
  if (max === 0) throw new BadRequest('This model does not support specifying dimensions.')
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions)) {
    throw new BadRequest(`Invalid type for 'dimensions': expected an integer, but got ${typeof dimensions === 'number' ? 'a decimal' : `a ${typeof dimensions}`} instead.`, 'dimensions', { code: 'invalid_type' })
  }
  if (dimensions < 1) {
    throw new BadRequest(`Invalid 'dimensions': integer below minimum value. Expected a value >= 1, but got ${dimensions} instead.`, 'dimensions', { code: 'integer_below_min_value' })
  }
  if (dimensions > max) {
    throw new BadRequest(`Invalid 'dimensions': integer above maximum value. Expected a value <= ${max}, but got ${dimensions} instead.`, 'dimensions', { code: 'integer_above_max_value' })
  }
}

/** One input: the text its vector comes from, and its token count. */
interface EmbeddingInput {
  text: string
  tokens: number
}

const INVALID_INPUT = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference."

/** `input` as texts: a string, strings, token ids, or arrays of token ids (kept as their numbers joined). */
function normaliseInput(input: unknown): EmbeddingInput[] {
  if (typeof input === 'string') return [textInput(input)]
  if (!Array.isArray(input) || input.length === 0) {
    if (Array.isArray(input) || input === undefined) throw new BadRequest(INVALID_INPUT)
    throw new BadRequest('input must be a string, an array of strings, or an array of token arrays', 'input', { code: 'invalid_type' })
  }
  if (input.length > EMBEDDING_LIMITS.inputs) {
    throw new BadRequest(
      `Invalid 'input': array too long. Expected an array with maximum length ${EMBEDDING_LIMITS.inputs}, but got an array with length ${input.length} instead.`,
      'input',
      { code: 'array_above_max_length' },
    )
  }
  if (input.every(isTokenId)) return [{ text: input.join(' '), tokens: input.length }]
  if (input.every((item) => typeof item === 'string')) return (input as string[]).map(textInput)
  if (input.every((item) => Array.isArray(item) && item.length > 0 && item.every(isTokenId))) {
    return (input as number[][]).map((tokens) => ({ text: tokens.join(' '), tokens: tokens.length }))
  }
  throw new BadRequest('input must be a string, an array of strings, or an array of token arrays', 'input', { code: 'invalid_type' })
}

function isTokenId(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0
}

function textInput(text: string): EmbeddingInput {
  if (text === '') throw new BadRequest(INVALID_INPUT)
  return { text, tokens: Math.max(1, Math.ceil(text.length / 4)) }
}

function checkTokens(inputs: readonly EmbeddingInput[]): void {
  let total = 0
  for (const { tokens } of inputs) {
    if (tokens > EMBEDDING_LIMITS.tokensPerInput) {
      throw new BadRequest(
        `This model's maximum context length is ${EMBEDDING_LIMITS.tokensPerInput} tokens, however you requested ${tokens} tokens (${tokens} in your prompt; 0 for the completion). Please reduce your prompt; or completion length.`,
      )
    }
    total += tokens
  }
  if (total > EMBEDDING_LIMITS.tokensPerRequest) {
    throw new BadRequest(`Requested ${total} tokens, max ${EMBEDDING_LIMITS.tokensPerRequest} tokens per request`, undefined, {
      code: 'max_tokens_per_request',
      type: 'max_tokens_per_request',
    })
  }
}

function inputsOf(request: ModelRequest): string[] {
  return request.messages.flatMap((message) => message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])))
}

/** The answer's JSON text, one vector a piece, between a head and a tail. */
async function* answerPieces(request: ModelRequest, { json, embed: vectorOf }: DirectContext): AsyncGenerator<string> {
  const dimensions = numberOr(json.dimensions) ?? DEFAULT_DIMENSIONS
  const base64 = json.encoding_format === 'base64'
  const texts = inputsOf(request)
  yield '{"object":"list","data":['
  for (const [index, text] of texts.entries()) {
    const vector = await vectorOf(text, request.model, dimensions)
    const embedding = base64 ? JSON.stringify(toBase64(vector)) : `[${vector.join(',')}]`
    yield `${index > 0 ? ',' : ''}{"object":"embedding","index":${index},"embedding":${embedding}}`
  }
  const tokens = tokenCount(texts)
  yield `],"model":${JSON.stringify(request.model)},"usage":${JSON.stringify({ prompt_tokens: tokens, total_tokens: tokens })}}`
}

/**
 * {@link answerPieces}, giving the event loop a turn whenever a slice has taken its time
 * (one vector is the smallest slice: 3072 float components print in about 15 ms).
 */
async function* answerText(request: ModelRequest, context: DirectContext): AsyncGenerator<string> {
  let slice = ''
  let started = performance.now()
  for await (const piece of answerPieces(request, context)) {
    slice += piece
    if (performance.now() - started >= SLICE_MS) {
      yield slice
      slice = ''
      await yieldToLoop()
      started = performance.now()
    }
  }
  yield slice
}

function tokenCount(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / 4)), 0)
}

/**
 * A unit vector from `text`: an FNV-1a hash of the text seeds a splitmix32 sequence, one value
 * per component. Linear in the text plus the dimensions (hashing the text once per component
 * made a 2 MB input at 8192 dimensions block the event loop for over a minute).
 * @example
 * embed('cat', 4).length // 4
 */
export function embed(text: string, dimensions: number): number[] {
  let hash = 0x811c9dc5
  for (let c = 0; c < text.length; c++) {
    hash ^= text.charCodeAt(c)
    hash = Math.imul(hash, 0x01000193)
  }
  const vector = new Array<number>(dimensions)
  let state = hash
  let sumOfSquares = 0
  for (let i = 0; i < dimensions; i++) {
    state = (state + 0x9e3779b9) | 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
    z ^= z >>> 16
    const value = ((z >>> 0) / 0xffffffff) * 2 - 1
    vector[i] = value
    sumOfSquares += value * value
  }
  const norm = Math.sqrt(sumOfSquares) || 1
  // Round through float32 so the float and base64 encodings give the same numbers.
  for (let i = 0; i < dimensions; i++) vector[i] = Math.fround(vector[i] / norm)
  return vector
}

function toBase64(vector: readonly number[]): string {
  const bytes = new DataView(new ArrayBuffer(vector.length * 4))
  vector.forEach((value, i) => bytes.setFloat32(i * 4, value, true))
  return bytesToBase64(new Uint8Array(bytes.buffer))
}
