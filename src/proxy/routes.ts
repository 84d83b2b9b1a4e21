/**
 * The route table: which dialect serves which path. Both `/v1/x` and `/x` are served for the
 * generation routes, because clients disagree on whether the base URL carries `/v1` (the
 * Anthropic SDK appends `/v1/messages`, the AI SDK's Anthropic provider `/messages`).
 * @module
 */
import type { ErrorStyle } from './refusal-answer.js'
import type { WireDialect } from './dialect.js'
import { anthropicMessages } from './dialects/anthropic-messages.js'
import { openaiChat } from './dialects/openai-chat.js'
import { openaiEmbeddings } from './dialects/openai-embeddings.js'
import { openaiModels } from './dialects/openai-models.js'
import { openaiResponses } from './dialects/openai-responses.js'

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
  '/v1/embeddings': { method: 'POST', dialect: openaiEmbeddings },
  '/embeddings': { method: 'POST', dialect: openaiEmbeddings },
  '/v1/models': { method: 'GET', dialect: openaiModels },
  '/models': { method: 'GET', dialect: openaiModels },
}

/** The route serving `path` (no query string), or `undefined`. `/v1/models/{id}` is the model list's. */
export function findRoute(path: string): Route | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  return table[trimmed] ?? (/^(\/v1)?\/models\/[^/]+$/.test(trimmed) ? table['/v1/models'] : undefined)
}

/** Whether `path` belongs to the proxy's local agent API (SPEC §5.5). */
export function isAgentApiPath(path: string): boolean {
  return path === '/viper' || path.startsWith('/viper/')
}

/**
 * The error shape for a path no route serves, so each client reads its own: Anthropic's when
 * the request carries `anthropic-version` or `x-api-key` (as Anthropic's clients always do) or
 * the path is Anthropic's, else OpenAI's.
 */
export function errorStyleFor(path: string, headers: Readonly<Record<string, string | string[] | undefined>> = {}): ErrorStyle {
  if (isAgentApiPath(path)) return 'local'
  if (headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined) return 'anthropic'
  return /(^|\/)messages(\/|$)|^\/v1\/complete/.test(path) ? 'anthropic' : 'openai'
}
