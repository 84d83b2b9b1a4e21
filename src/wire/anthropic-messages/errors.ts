/**
 * Anthropic's provider errors (SPEC §10.2): `{ type: 'error', error: { type, message },
 * request_id }` with the status (529 for `overloaded_error`), `x-should-retry`, retry and
 * `anthropic-ratelimit-*` headers the API sends (https://docs.claude.com/en/api/errors).
 * @module
 */
import { wireId } from '../wire-ids.js'
import { isRetried, retryHeaders, type AnsweredProviderError, type ProviderErrorAnswer, type ProviderErrorDetail } from '../provider-error.js'

function anthropicWireError(name: AnsweredProviderError, model: string): { status: number; type: string; message: string } {
  switch (name) {
    case 'rate_limit':
      return { status: 429, type: 'rate_limit_error', message: 'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.' }
    case 'insufficient_quota':
      return { status: 400, type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.' }
    case 'invalid_api_key':
      return { status: 401, type: 'authentication_error', message: 'invalid x-api-key' }
    case 'permission_denied':
      return { status: 403, type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' }
    case 'model_not_found':
      return { status: 404, type: 'not_found_error', message: `model: ${model}` }
    case 'context_length_exceeded':
      return { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 200001 tokens > 200000 maximum' }
    case 'content_filter':
      return { status: 400, type: 'invalid_request_error', message: 'Output blocked by content filtering policy' }
    case 'overloaded':
      return { status: 529, type: 'overloaded_error', message: 'Overloaded' }
    case 'server_error':
      return { status: 500, type: 'api_error', message: 'Internal server error' }
  }
}

/**
 * Anthropic's answer for provider error `name`.
 * @example
 * anthropicProviderError('overloaded', detail).status // 529
 */
export function anthropicProviderError(name: AnsweredProviderError, detail: ProviderErrorDetail): ProviderErrorAnswer {
  const wire = anthropicWireError(name, detail.model ?? 'unknown')
  const message = detail.message ?? wire.message
  const headers: Record<string, string> = { 'content-type': 'application/json', ...retryHeaders(wire.status, detail), 'x-should-retry': String(isRetried(wire.status)) }
  if (name === 'rate_limit') {
    headers['anthropic-ratelimit-requests-remaining'] = '0'
    headers['anthropic-ratelimit-requests-reset'] = new Date((detail.now + Math.ceil(detail.retryAfterS ?? 0)) * 1000).toISOString().replace(/\.\d+Z$/, 'Z')
  }
  return {
    status: wire.status,
    headers,
    body: { type: 'error', error: { type: wire.type, message }, request_id: detail.requestId },
    error: { name, type: wire.type, code: null, param: null, message },
  }
}

/**
 * `body` with the answer's `request_id` beside `error`, as Anthropic sends every error body —
 * including the ones the fake makes itself (unknown route, 413, its own 500s, refusals). Bodies
 * that are not Anthropic errors, or already carry one, are returned as they are.
 * @example
 * withRequestId({ type: 'error', error: { type: 'not_found_error', message } }, 'req_1').request_id // 'req_1'
 */
export function withRequestId(body: unknown, requestId: string = freshRequestId()): unknown {
  if (typeof body !== 'object' || body === null || (body as { type?: unknown }).type !== 'error' || 'request_id' in body) return body
  return { ...body, request_id: requestId }
}

/**
 * A request id in Anthropic's format for an answer no proxy request numbers (a lane that is
 * closed, a malformed HTTP request, the fake's own crash): unique rather than deterministic.
 */
export function freshRequestId(): string {
  // Web Crypto's, not node:crypto's: the wire loads in edge runtimes and browsers (in-process transport).
  return wireId('anthropic-request', globalThis.crypto.randomUUID())
}
