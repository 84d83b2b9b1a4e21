/**
 * The records a FakeProxy keeps, and the identity it reads from each request.
 * @module
 */
import type { ModelRequest, ModelResponse } from '../llm/types.js'
import type { RefusalCode } from '../gateway/refusal-codes.js'
import type { Dialect } from '../wire/names.js'

// The names of dialects and features belong to the wire (src/wire/names.ts); re-exported here,
// beside the records that carry them.
export type { Dialect, ProxyFeature } from '../wire/names.js'
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
  /** The WebSocket session that carried it (its `id` in `proxy.sessions`, SPEC §18); absent over HTTP. */
  session?: string
  /** The HTTP status of an error answer (a provider error, a rejected request). */
  status?: number
  /** The error the request was answered with, in the provider's terms (`name` for provider errors). */
  error?: { name?: string; type: string; code?: string | null; param?: string | null; message: string }
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
