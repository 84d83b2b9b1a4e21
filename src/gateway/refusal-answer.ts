/**
 * The HTTP answer for one refusal (SPEC §5.4): status, the `x-viper-error` mark, the retry
 * headers the SDKs obey, and a body in the route's dialect.
 * @module
 */
import { refusalCodes, type RefusalCode } from './refusal-codes.js'
import type { ErrorStyle } from '../wire/names.js'

// The wire names the error styles (src/wire/names.ts); re-exported for the gateway's callers.
export type { ErrorStyle }

/** An HTTP answer as data; the server writes `body` as JSON. */
export interface RefusalAnswer {
  status: number
  headers: Record<string, string>
  body: unknown
}

/** The mark header that says an error came from the proxy. */
export const MARK_HEADER = 'x-viper-error'

/**
 * Anthropic's `error.type` for a status (https://docs.claude.com/en/api/errors). 409 and 422
 * have no type of their own there; `invalid_request_error` is what the API uses for them.
 */
function anthropicErrorType(status: number): string {
  if (status === 403) return 'permission_error'
  if (status === 404) return 'not_found_error'
  if (status === 429) return 'rate_limit_error'
  if (status === 504) return 'timeout_error'
  if (status >= 500) return 'api_error'
  return 'invalid_request_error'
}

/** The error body in one style. `hint` is `null` when there is none, so the shape never varies. */
export function errorBody(style: ErrorStyle, code: string, status: number, message: string, hint: string | null): unknown {
  if (style === 'openai') return { error: { message, type: 'proxy_error', code, param: null, hint } }
  if (style === 'anthropic') return { type: 'error', error: { type: anthropicErrorType(status), message, code, hint } }
  return { error: { code, message, hint } }
}

/**
 * The answer the proxy gives for a refusal with `code`, in `style`. Retried codes carry
 * `x-should-retry: true` and `retry-after-ms: 1` (so SDK retries take a millisecond in tests);
 * every other code carries `x-should-retry: false`, which stops the Stainless SDKs retrying
 * statuses they otherwise would (409, 502).
 * @example
 * refusalAnswer('agent_unknown', 'openai') // { status: 403, headers: { 'x-viper-error': 'agent_unknown', … }, body: { error: … } }
 */
export function refusalAnswer(code: RefusalCode, style: ErrorStyle, detail: { message?: string; hint?: string } = {}): RefusalAnswer {
  const { status, retried, meaning } = refusalCodes[code]
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [MARK_HEADER]: code,
    'x-should-retry': String(retried),
  }
  if (retried) headers['retry-after-ms'] = '1'
  return { status, headers, body: errorBody(style, code, status, detail.message ?? meaning, detail.hint ?? null) }
}
