/**
 * What the list of providers (./providers.ts, one line a provider) gives the rest of the package:
 * the route table, the unknown-path error shapes, the providers for the network guard's hosts
 * and `fakeProxy.env`, every dialect, and the `Dialect` union of their names.
 * Both `/v1/x` and `/x` are served for the generation routes, because clients disagree on
 * whether the base URL carries `/v1` (the Anthropic SDK appends `/v1/messages`, the AI SDK's
 * Anthropic provider `/messages`).
 * @module
 */
import type { ErrorStyle } from './names.js'
import type { Route, RoutePattern, WireDialect, WireProvider } from './dialect.js'
import * as listed from './providers.js'

type Listed = typeof listed

/**
 * The wire dialect a request was served in (`FakeRequest.dialect`): `openai-chat`,
 * `openai-responses`, `anthropic-messages`, `gemini-generate`, `bedrock-converse`,
 * `ollama-chat`, `openai-realtime`… — the names every provider of the list declares (its
 * `dialectNames`), HTTP and WebSocket. The compatibility page shows which clients use which.
 * @example
 * const dialect: Dialect = proxy.requests[0].dialect // openai-chat, for a Chat Completions request
 */
export type Dialect = Listed[keyof Listed]['dialectNames'][number]

/** A dialect as the list serves it: its `id` one of the {@link Dialect} names its provider declares. */
export type ServedDialect = WireDialect & { readonly id: Dialect }

/** A route as the list serves it (see {@link ServedDialect}). */
export interface ServedRoute extends Route {
  readonly dialect: ServedDialect
}

/**
 * Every provider the fake serves. Their order decides nothing (no two claim one path); it is the
 * list's, alphabetical by the names it exports.
 */
export const providers: readonly WireProvider[] = Object.freeze(Object.values(listed))

// Each dialect's id is one its provider declares (test/wire/providers-layout.test.ts), so the
// table's dialects are served dialects.
const table: Readonly<Record<string, ServedRoute>> = Object.assign({}, ...providers.map((provider) => provider.routes ?? {}))

/** Routes whose paths carry parameters (a model, a deployment), tried after the table; no path matches two. */
const patterns: readonly RoutePattern[] = providers.flatMap((provider) => provider.patterns ?? [])

/** Every dialect of every provider. */
export const allDialects: readonly ServedDialect[] = providers.flatMap((provider) => provider.dialects as readonly ServedDialect[])

/** The route serving `path` (no query string), or `undefined`. `/v1/models/{id}` is the model list's. */
export function findRoute(path: string): ServedRoute | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  const exact = table[trimmed]
  if (exact) return exact
  for (const { path: pattern, route } of patterns) {
    const match = pattern.exec(trimmed)
    const found = match && route(match)
    if (found) return found as ServedRoute
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
export function providerForUnknownPath(path: string): ServedDialect | undefined {
  for (const provider of providers) {
    const dialect = provider.unknownPath?.(path)
    if (dialect) return dialect as ServedDialect
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

/**
 * One concrete path for every route the proxy serves, with its route: each fixed path and each
 * pattern's `examples`. For tests that must reach every dialect (SPEC §24's fuzz pass), which
 * also check that every dialect of {@link allDialects} is reached.
 */
export function everyRoute(): readonly (ServedRoute & { readonly path: string })[] {
  const paths = [...Object.keys(table), ...patterns.flatMap((pattern) => pattern.examples ?? [])]
  return paths.map((path) => {
    const route = findRoute(path)
    if (!route) throw new Error(`dialects.ts: the example path ${path} finds no route`)
    return { ...route, path }
  })
}
