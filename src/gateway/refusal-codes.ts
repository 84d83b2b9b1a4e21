/**
 * The proxy's refusal codes (SPEC §5.4): one table, from which the `ProxyError` subclasses,
 * the HTTP answers and `refusalCodes` are all derived.
 * @module
 */

/** What the proxy answers for one refusal code. */
export interface RefusalCodeInfo {
  /** HTTP status of the refusal. */
  readonly status: number
  /** Whether the SDKs retry it (`x-should-retry: true`, `retry-after-ms: 1`). */
  readonly retried: boolean
  /** What the code means, used as the default message. */
  readonly meaning: string
}

/** Every refusal code of the proxy protocol, with its status and retry behaviour. */
export const refusalCodes = Object.freeze({
  agent_required: { status: 400, retried: false, meaning: 'this proxy is strict: name an agent with the X-Viper-Agent header' },
  invalid_agent_name: { status: 400, retried: false, meaning: 'the agent or subagent name is malformed (valid: ^[a-z][a-z0-9_-]{0,63}$)' },
  feature_unsupported: { status: 400, retried: false, meaning: 'the request needs a feature this proxy does not report' },
  agent_unknown: { status: 403, retried: false, meaning: 'the agent is not enrolled with this proxy' },
  policy_denied: { status: 403, retried: false, meaning: "the proxy's policy refused the request" },
  definition_unknown: { status: 409, retried: false, meaning: "the definition is not the agent's latest registration: register it again and resend" },
  definition_invalid: { status: 422, retried: false, meaning: 'the agent definition is invalid' },
  files_unknown: { status: 422, retried: false, meaning: 'the definition names skill or memory files the proxy does not hold' },
  rate_limited: { status: 429, retried: true, meaning: 'rate limited' },
  signing_failed: { status: 500, retried: true, meaning: 'the proxy could not sign the request' },
  internal_error: { status: 500, retried: true, meaning: 'internal proxy error' },
  upstream_unreachable: { status: 502, retried: true, meaning: 'the upstream model provider is unreachable' },
  upstream_response_lost: { status: 502, retried: false, meaning: 'the upstream response was lost; the upstream may have done the work, so never resend blindly' },
  upstream_timeout: { status: 504, retried: true, meaning: 'the upstream model provider timed out' },
} as const satisfies Record<string, RefusalCodeInfo>)

/** One of the proxy's refusal codes. */
export type RefusalCode = keyof typeof refusalCodes

/** Whether `value` is a known refusal code. */
export function isRefusalCode(value: unknown): value is RefusalCode {
  return typeof value === 'string' && Object.hasOwn(refusalCodes, value)
}
