/**
 * The records a FakeProxy keeps, and the identity it reads from each request.
 * @module
 */
import type { RequestFault } from './chaos.js'
import type { ModelRequest, ModelResponse } from '../llm/types.js'
import type { RefusalCode } from '../gateway/refusal-codes.js'
import type { Dialect } from '../wire/dialects.js'
import type { CacheMiss } from '../llm/prompt-cache.js'

// The names of dialects (made of each provider's declaration, src/wire/dialects.ts) and features
// (src/wire/names.ts) belong to the wire; re-exported here, beside the records that carry them.
export type { Dialect } from '../wire/dialects.js'
export type { ProxyFeature } from '../wire/names.js'
export { allFeatures } from '../wire/names.js'

/** Who sent a request, read from the `X-Viper-*` headers. */
export interface Identity {
  agent?: string
  definitionCid?: string
  /** A path of agent names joined by `/`, e.g. `'critic/fact-checker'`. */
  subagent?: string
}

/** One model request the proxy let through, as recorded. */
export interface FakeRequest {
  /** The name of the lane that served it (SPEC §9); `undefined` when the proxy itself did. */
  lane?: string | undefined
  method: string
  /** The path, without the query string. */
  path: string
  agent: string | undefined
  definitionCid: string | undefined
  subagent: string | undefined
  /** Header names lower-cased, `x-viper-*` removed. */
  headers: Record<string, string>
  /** The body as sent. */
  body: Uint8Array
  /** The body parsed as JSON, or `null`. */
  json: unknown
  dialect: Dialect
  model: string | undefined
  stream: boolean
  /** The request in the neutral model. */
  request: ModelRequest
  /** The neutral answer the proxy gave, once it was produced (absent for `reply()` and failures). */
  response?: ModelResponse
  /**
   * What the simulated prompt cache did for this request (SPEC §20): its input tokens, those
   * read from and written to the cache, and, when it read nothing, why. Absent where the wire
   * has no prompt cache (Ollama) or the proxy simulates none (`promptCache: false`).
   */
  promptCache?: PromptCacheRecord
  /** The WebSocket session that carried it (its `id` in `proxy.sessions`, SPEC §18); absent over HTTP. */
  session?: string
  /**
   * Why a realtime response stopped before its end (SPEC §18): the client cancelled it
   * (`response.cancel`), the user spoke over it (`turn_detected`), or the client left
   * (`disconnected`). `response` then holds what it had said by then. Absent for a response
   * that ran to its end, and over HTTP.
   */
  cancelled?: 'client_cancelled' | 'turn_detected' | 'disconnected'
  /** The HTTP status of an error answer (a provider error, a rejected request). */
  status?: number
  /** The error the request was answered with, in the provider's terms (`name` for provider errors). */
  error?: { name?: string; type: string; code?: string | null; param?: string | null; message: string }
  /**
   * Set on a request a runtime made on its own (SPEC §17: a warm-up, title or quota probe, a
   * token count, a model list, a routing call, an upgrade it falls back from), answered from
   * built-in defaults without moving the script; matchers leave these out unless given
   * `{ includeSide: true }`.
   */
  side?: true
  /** The fault the request got from seeded chaos or `proxy.misbehave()` (SPEC §19), when it got one. */
  fault?: RequestFault
}

/** One refusal, as recorded. */
export interface Refusal {
  code: RefusalCode
  status: number
  request: FakeRequest
}

/** An agent definition, as registered with `PUT /viper/v1/agents/{agent}/definition`. */
export interface AgentDefinition {
  model: string
  instructions?: string
  skills?: string[]
  memory?: string
  tools?: unknown[]
  subagents?: string[]
  [field: string]: unknown
}

/** What the cache did for one request, as recorded on it (`FakeRequest.promptCache`). */
export interface PromptCacheRecord {
  /** Every input token of the request. */
  inputTokens: number
  /** Tokens read from the cache. */
  readTokens: number
  /** Tokens written to the cache. */
  writeTokens: number
  /** Of `writeTokens`, those written with a one-hour TTL. */
  write1hTokens: number
  /** Why it read nothing (or less than its cacheable prefix), when it did. */
  miss?: CacheMiss
}
