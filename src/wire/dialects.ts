/**
 * The route table: which dialect serves which path. Both `/v1/x` and `/x` are served for the
 * generation routes, because clients disagree on whether the base URL carries `/v1` (the
 * Anthropic SDK appends `/v1/messages`, the AI SDK's Anthropic provider `/messages`).
 * @module
 */
import type { ErrorStyle } from './names.js'
import type { WireDialect } from './dialect.js'
import { anthropicMessages } from './anthropic-messages/codec.js'
import { anthropicCountTokens } from './anthropic-messages/count-tokens.js'
import { bedrockCountTokens } from './bedrock/count-tokens.js'
import { openaiChat } from './openai-chat/codec.js'
import { openaiEmbeddings } from './openai-embeddings/codec.js'
import { openaiModels } from './openai-models/codec.js'
import { openaiResponses } from './openai-responses/codec.js'
import { AZURE_DEPLOYMENT_PATH, AZURE_OPENAI_PATH, onAzure } from './azure/codec.js'
import { BEDROCK_MODEL_PATH, bedrockConverse } from './bedrock/converse.js'
import { bedrockEmbed, isEmbeddingModel } from './bedrock/embed.js'
import { decodeSegment } from './params.js'
import { bedrockInvoke } from './bedrock/invoke.js'
import { ollamaChat, ollamaEmbed, ollamaGenerate, ollamaTags } from './ollama/codec.js'
import { GEMINI_METHOD_PATH, GEMINI_MODELS_ROUTE, geminiCountTokens, geminiEmbed, geminiGenerate, geminiModels } from './gemini/codec.js'
import { vertexRoute } from './vertex/index.js'

/** One route: the method it answers and its dialect. */
export interface Route {
  readonly method: 'GET' | 'POST'
  readonly dialect: WireDialect
}

const table: Readonly<Record<string, Route>> = {
  '/v1/chat/completions': { method: 'POST', dialect: openaiChat },
  '/chat/completions': { method: 'POST', dialect: openaiChat },
  '/v1/responses': { method: 'POST', dialect: openaiResponses },
  '/responses': { method: 'POST', dialect: openaiResponses },
  '/v1/messages': { method: 'POST', dialect: anthropicMessages },
  '/messages': { method: 'POST', dialect: anthropicMessages },
  '/v1/messages/count_tokens': { method: 'POST', dialect: anthropicCountTokens },
  '/messages/count_tokens': { method: 'POST', dialect: anthropicCountTokens },
  '/v1/embeddings': { method: 'POST', dialect: openaiEmbeddings },
  '/embeddings': { method: 'POST', dialect: openaiEmbeddings },
  '/v1/models': { method: 'GET', dialect: openaiModels },
  '/models': { method: 'GET', dialect: openaiModels },
  '/api/chat': { method: 'POST', dialect: ollamaChat },
  '/api/generate': { method: 'POST', dialect: ollamaGenerate },
  '/api/embed': { method: 'POST', dialect: ollamaEmbed },
  '/api/embeddings': { method: 'POST', dialect: ollamaEmbed },
  '/api/tags': { method: 'GET', dialect: ollamaTags },
}

/** The OpenAI dialects on Azure's paths: by operation, on a versioned (`/openai/v1/…`) path or not. */
const azure = {
  'chat/completions': { versioned: onAzure(openaiChat, true), dated: onAzure(openaiChat, false), method: 'POST' },
  embeddings: { versioned: onAzure(openaiEmbeddings, true), dated: onAzure(openaiEmbeddings, false), method: 'POST' },
  responses: { versioned: onAzure(openaiResponses, true), dated: onAzure(openaiResponses, false), method: 'POST' },
  models: { versioned: onAzure(openaiModels, true), dated: onAzure(openaiModels, false), method: 'GET' },
} as const

function azureRoute(operation: string, versioned: boolean): Route {
  const entry = azure[(operation.startsWith('models') ? 'models' : operation) as keyof typeof azure]
  return { method: entry.method, dialect: versioned ? entry.versioned : entry.dated }
}

/** Converse, or InvokeModel on an embedding model, or InvokeModel on an Anthropic one. */
function bedrockDialect(operation: string, modelId: string): WireDialect {
  if (operation === 'count-tokens') return bedrockCountTokens
  if (operation.startsWith('converse')) return bedrockConverse
  return operation === 'invoke' && isEmbeddingModel(modelId) ? bedrockEmbed : bedrockInvoke
}

/**
 * A route whose path carries parameters, with `examples`: one concrete path for each kind of
 * route it serves, so tests that go over every route (the fuzz pass, SPEC §24) reach a new one
 * without being told.
 */
interface PatternRoute {
  readonly path: RegExp
  readonly route: (match: RegExpExecArray) => Route | undefined
  readonly examples: readonly string[]
}

/** Routes whose paths carry parameters (a model, a deployment), tried in order after the table. */
const patterns: readonly PatternRoute[] = [
  {
    examples: ['/v1beta/models/gemini-2.5-flash:generateContent', '/v1beta/models/gemini-2.5-flash:streamGenerateContent', '/v1beta/models/gemini-2.5-flash:countTokens', '/v1beta/models/text-embedding-004:embedContent', '/v1beta/models/text-embedding-004:batchEmbedContents'],
    path: GEMINI_METHOD_PATH,
    route: (match) => {
      if (match[2] === 'countTokens') return { method: 'POST', dialect: geminiCountTokens }
      if (match[2] === 'embedContent' || match[2] === 'batchEmbedContents') return { method: 'POST', dialect: geminiEmbed }
      return { method: 'POST', dialect: geminiGenerate }
    },
  },
  { path: GEMINI_MODELS_ROUTE, route: () => ({ method: 'GET', dialect: geminiModels }), examples: ['/v1beta/models'] },
  {
    path: BEDROCK_MODEL_PATH,
    route: (match) => ({ method: 'POST', dialect: bedrockDialect(match[2], decodeSegment(match[1])) }),
    examples: [
      '/model/anthropic.claude-3-haiku/converse',
      '/model/anthropic.claude-3-haiku/converse-stream',
      '/model/anthropic.claude-3-haiku/invoke',
      '/model/anthropic.claude-3-haiku/invoke-with-response-stream',
      '/model/amazon.titan-embed-text-v2:0/invoke',
      '/model/anthropic.claude-3-haiku/count-tokens',
    ],
  },
  {
    path: AZURE_DEPLOYMENT_PATH,
    route: (match) => azureRoute(match[2], false),
    examples: ['/openai/deployments/d/chat/completions', '/openai/deployments/d/embeddings', '/openai/deployments/d/responses'],
  },
  {
    path: AZURE_OPENAI_PATH,
    route: (match) => azureRoute(match[2], match[1] !== undefined),
    examples: ['/openai/v1/chat/completions', '/openai/v1/responses', '/openai/v1/embeddings', '/openai/v1/models'],
  },
  {
    ...vertexRoute,
    examples: [
      '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
      '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:countTokens',
      '/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4:rawPredict',
    ],
  },
]

/**
 * One concrete path for every route the proxy serves, with its route: each exact path of the
 * table and each pattern's examples. For tests that must reach every dialect (SPEC §24's fuzz pass).
 */
export function everyRoute(): readonly (Route & { readonly path: string })[] {
  const paths = [...Object.keys(table), ...patterns.flatMap((pattern) => pattern.examples)]
  return paths.map((path) => {
    const route = findRoute(path)
    if (!route) throw new Error(`dialects.ts: the example path ${path} finds no route`)
    return { ...route, path }
  })
}

/** The route serving `path` (no query string), or `undefined`. `/v1/models/{id}` is the model list's. */
export function findRoute(path: string): Route | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  const exact = table[trimmed]
  if (exact) return exact
  for (const { path: pattern, route } of patterns) {
    const match = pattern.exec(trimmed)
    const found = match && route(match)
    if (found) return found
  }
  return /^(\/v1)?\/models\/[^/]+$/.test(trimmed) ? table['/v1/models'] : undefined
}

/** Whether `path` belongs to the proxy's local agent API (SPEC §5.5). */
export function isAgentApiPath(path: string): boolean {
  return path === '/viper' || path.startsWith('/viper/')
}

/**
 * The error answer of the provider whose paths `path` is under (Gemini's `/v1beta/`, Ollama's
 * `/api/`, Bedrock's `/model/`, Azure's `/openai/`), for a path no route serves; `undefined`
 * elsewhere ({@link errorStyleForPath} decides there).
 */
export function providerForUnknownPath(path: string): WireDialect | undefined {
  if (path.startsWith('/v1beta/') || /^\/v1(beta1)?\/projects\//.test(path)) return geminiGenerate
  if (path.startsWith('/api/')) return ollamaChat
  if (path.startsWith('/model/')) return bedrockConverse
  if (path.startsWith('/openai/')) return azure['chat/completions'].dated
  return undefined
}

/** The error shape for a path no route serves: guessed from the path, so each client reads its own. */
export function errorStyleForPath(path: string): ErrorStyle {
  if (isAgentApiPath(path)) return 'local'
  return /(^|\/)messages(\/|$)|^\/v1\/complete/.test(path) ? 'anthropic' : 'openai'
}

/**
 * The error shape for a request no route serves: Anthropic's when it carries
 * `anthropic-version` or `x-api-key` (as Anthropic's clients always do), else the path's guess.
 */
export function errorStyleFor(path: string, headers: Readonly<Record<string, string | string[] | undefined>> = {}): ErrorStyle {
  const style = errorStyleForPath(path)
  if (style === 'local') return style
  return headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined ? 'anthropic' : style
}
