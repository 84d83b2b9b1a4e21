/**
 * The HTTP answer for one provider error (SPEC §10.2), per wire: the status, body and headers
 * the real provider sends, so each SDK throws the same class and retries the same way it does
 * against the real API. Wordings are the providers' own (see the README's "Provider errors").
 * @module
 */
import type { ProviderErrorName } from '../provider-errors.js'
import type { Dialect, FakeRequest } from './types.js'

/** A provider error as data; the server writes `body` as JSON. */
export interface ProviderErrorAnswer {
  status: number
  headers: Record<string, string>
  body: unknown
  /** What `requests` records for it. */
  error: NonNullable<FakeRequest['error']>
}

/** What the answer may say beyond the name. */
export interface ProviderErrorDetail {
  message?: string
  retryAfterS?: number
  /** The answer's request id (Anthropic bodies carry it). */
  requestId: string
  model: string | undefined
  /** Seconds since the epoch, for reset times. */
  now: number
}

/** One error on one wire: status, `type`, `code`, `param` and the provider's wording. */
interface WireError {
  status: number
  type: string
  code: string | null
  param: string | null
  message: string
}

type Answered = Exclude<ProviderErrorName, 'timeout'>

function openaiError(name: Answered, dialect: Dialect, model: string, waitS: number): WireError {
  const input = dialect === 'openai-chat' ? 'messages' : 'input'
  switch (name) {
    case 'rate_limit':
      return { status: 429, type: 'requests', code: 'rate_limit_exceeded', param: null, message: `Rate limit reached for ${model} in organization org-agent-doubles on requests per min (RPM): Limit 10000, Used 10000, Requested 1. Please try again in ${waitS < 1 ? `${Math.round(waitS * 1000)}ms` : `${waitS}s`}. Visit https://platform.openai.com/account/rate-limits to learn more.` }
    case 'insufficient_quota':
      return { status: 429, type: 'insufficient_quota', code: 'insufficient_quota', param: null, message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.' }
    case 'invalid_api_key':
      return { status: 401, type: 'invalid_request_error', code: 'invalid_api_key', param: null, message: 'Incorrect API key provided: sk-****. You can find your API key at https://platform.openai.com/account/api-keys.' }
    case 'permission_denied':
      return { status: 403, type: 'invalid_request_error', code: null, param: null, message: 'You have insufficient permissions for this operation. Missing scopes: model.request. Check that you have the correct role in your organization (Reader, Writer, Owner) and project (Member, Owner), and if you\'re using a restricted API key, that it has the necessary scopes.' }
    case 'model_not_found':
      return { status: 404, type: 'invalid_request_error', code: 'model_not_found', param: null, message: `The model \`${model}\` does not exist or you do not have access to it.` }
    case 'context_length_exceeded':
      return dialect === 'openai-chat'
        ? { status: 400, type: 'invalid_request_error', code: 'context_length_exceeded', param: input, message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 128001 tokens. Please reduce the length of the messages." }
        : { status: 400, type: 'invalid_request_error', code: 'context_length_exceeded', param: input, message: 'Your input exceeds the context window of this model. Please adjust your input and try again.' }
    case 'content_filter':
      return { status: 400, type: 'invalid_request_error', code: 'invalid_prompt', param: null, message: 'Invalid prompt: your prompt was flagged as potentially violating our usage policy. Please try again with a different prompt.' }
    case 'overloaded':
      return { status: 503, type: 'server_error', code: null, param: null, message: 'The engine is currently overloaded, please try again later.' }
    case 'server_error':
      return { status: 500, type: 'server_error', code: null, param: null, message: 'The server had an error while processing your request. Sorry about that!' }
  }
}

function anthropicError(name: Answered, model: string): WireError {
  const error = (status: number, type: string, message: string): WireError => ({ status, type, code: null, param: null, message })
  switch (name) {
    case 'rate_limit':
      return error(429, 'rate_limit_error', 'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.')
    case 'insufficient_quota':
      return error(400, 'invalid_request_error', 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.')
    case 'invalid_api_key':
      return error(401, 'authentication_error', 'invalid x-api-key')
    case 'permission_denied':
      return error(403, 'permission_error', 'Your API key does not have permission to use the specified resource.')
    case 'model_not_found':
      return error(404, 'not_found_error', `model: ${model}`)
    case 'context_length_exceeded':
      return error(400, 'invalid_request_error', 'prompt is too long: 200001 tokens > 200000 maximum')
    case 'content_filter':
      return error(400, 'invalid_request_error', 'Output blocked by content filtering policy')
    case 'overloaded':
      return error(529, 'overloaded_error', 'Overloaded')
    case 'server_error':
      return error(500, 'api_error', 'Internal server error')
  }
}

/** Statuses every SDK retries (SPEC §10.2: retried exactly as against the real API). */
function isRetried(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * The answer for provider error `name` on `dialect`'s wire (`timeout` has none: the proxy
 * just never answers).
 * @example
 * providerErrorAnswer('overloaded', 'anthropic-messages', detail).status // 529
 */
export function providerErrorAnswer(name: Answered, dialect: Dialect, detail: ProviderErrorDetail): ProviderErrorAnswer {
  const anthropic = dialect === 'anthropic-messages'
  const model = detail.model ?? 'unknown'
  // A millisecond unless the test asks for more: every SDK honours retry-after-ms (the
  // Anthropic SDK only when above 0), so retries cost nothing.
  const waitS = detail.retryAfterS ?? 0.001
  const wire = anthropic ? anthropicError(name, model) : openaiError(name, dialect, model, waitS)
  const message = detail.message ?? wire.message
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (isRetried(wire.status)) {
    headers['retry-after'] = String(Math.ceil(waitS))
    headers['retry-after-ms'] = String(Math.max(1, Math.round(waitS * 1000)))
  }
  if (anthropic) headers['x-should-retry'] = String(isRetried(wire.status))
  if (name === 'rate_limit') Object.assign(headers, exhaustedLimits(anthropic, detail))
  const body = anthropic
    ? { type: 'error', error: { type: wire.type, message }, request_id: detail.requestId }
    : { error: { message, type: wire.type, param: wire.param, code: wire.code } }
  return { status: wire.status, headers, body, error: { name, type: wire.type, code: wire.code, param: wire.param, message } }
}

/** The rate-limit headers of an exhausted request budget. */
function exhaustedLimits(anthropic: boolean, detail: ProviderErrorDetail): Record<string, string> {
  const waitS = detail.retryAfterS ?? 0
  if (!anthropic) return { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': `${waitS}s` }
  return {
    'anthropic-ratelimit-requests-remaining': '0',
    'anthropic-ratelimit-requests-reset': new Date((detail.now + Math.ceil(waitS)) * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
  }
}
