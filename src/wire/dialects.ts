/**
 * THE list of dialects: one entry per provider, each declared by its own folder (routes, hosts,
 * unknown-path error shape, client environment). The route table, the network guard's hosts
 * and `fakeProxy.env` are derived from it, so adding a provider is its folder and one line here.
 * Both `/v1/x` and `/x` are served for the generation routes, because clients disagree on
 * whether the base URL carries `/v1` (the Anthropic SDK appends `/v1/messages`, the AI SDK's
 * Anthropic provider `/messages`).
 * @module
 */
import type { ErrorStyle } from './names.js'
import type { Route, RoutePattern, WireDialect, WireProvider } from './dialect.js'
import { anthropicProvider } from './anthropic-messages/provider.js'
import { azureProvider } from './azure/provider.js'
import { bedrockProvider } from './bedrock/provider.js'
import { geminiProvider } from './gemini/provider.js'
import { ollamaProvider } from './ollama/provider.js'
import { openaiProvider } from './openai/provider.js'
import { vertexProvider } from './vertex/index.js'

export type { Route } from './dialect.js'

/** Every provider the fake serves, in the order their parameterised routes are tried. */
export const providers: readonly WireProvider[] = Object.freeze([
  openaiProvider,
  anthropicProvider,
  geminiProvider,
  ollamaProvider,
  bedrockProvider,
  azureProvider,
  vertexProvider,
])

const table: Readonly<Record<string, Route>> = Object.assign({}, ...providers.map((provider) => provider.routes ?? {}))

/** Routes whose paths carry parameters (a model, a deployment), tried in order after the table. */
const patterns: readonly RoutePattern[] = providers.flatMap((provider) => provider.patterns ?? [])

/** Every dialect of every provider. */
export const allDialects: readonly WireDialect[] = providers.flatMap((provider) => provider.dialects)

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
  for (const provider of providers) {
    const dialect = provider.unknownPath?.(path)
    if (dialect) return dialect
  }
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
