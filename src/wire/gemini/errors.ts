/**
 * Gemini's errors (SPEC §10.2, §21): `{ error: { code, message, status } }`, the gRPC status name
 * beside the HTTP one (`RESOURCE_EXHAUSTED` for 429), with `details` where Google sends them
 * (`ErrorInfo` reasons, `RetryInfo`). `@google/genai` throws `ApiError` with `.status` and the
 * body as its message, and retries 408, 429, 500, 502, 503 and 504 when given `retryOptions`.
 * A blocked prompt is not an error status on Gemini: it is a 200 with `promptFeedback.blockReason`.
 * @module
 */
import type { ErrorAnswer } from '../dialect.js'
import { waitSeconds, type AnsweredProviderError, type ProviderErrorAnswer, type ProviderErrorDetail } from '../provider-error.js'

/** The gRPC status names Gemini errors carry, by HTTP status. */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  422: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
}

/** The gRPC status name for an HTTP status. */
export function geminiStatusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION')
}

/**
 * Gemini's error body: `{ error: { code, message, status } }`. A proxy refusal adds its code
 * as a `google.rpc.ErrorInfo` detail, where Google puts machine-readable reasons.
 */
export function geminiErrorAnswer(status: number, message: string, code?: string): ErrorAnswer {
  const details = code ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code, domain: 'agent-doubles' }] : undefined
  return { body: { error: { code: status, message, status: geminiStatusName(status), ...(details ? { details } : {}) } } }
}

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo'

/**
 * A `google.protobuf.Duration` as JSON (`"29s"`, `"0.5s"`): the wait the other wires put in
 * `retry-after-ms` (Google sends no such header), a millisecond at least. A rounded `"0s"` reads as no RetryInfo at all, and Gemini
 * CLI then falls back to the quota's per-minute window: it waited 60 s before its retry.
 */
function googleDuration(seconds: number): string {
  const waitS = Math.max(0.001, Number(seconds.toFixed(3)))
  return `${waitS}s`
}

/** One Gemini error: HTTP status, Google's wording and the details it sends. */
function geminiWireError(name: Exclude<AnsweredProviderError, 'content_filter'>, detail: ProviderErrorDetail): { status: number; message: string; details?: unknown[] } {
  const model = detail.model ?? 'unknown'
  switch (name) {
    case 'rate_limit':
      return {
        status: 429,
        message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', quotaDimensions: { location: 'global', model }, quotaValue: '10' }] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: googleDuration(waitSeconds(detail)) },
        ],
      }
    case 'insufficient_quota':
      return {
        status: 429,
        message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
        details: [{ '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }] }],
      }
    case 'invalid_api_key':
      // Google answers a bad key with 400, not 401.
      return { status: 400, message: 'API key not valid. Please pass a valid API key.', details: [{ '@type': ERROR_INFO, reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } }] }
    case 'permission_denied':
      return { status: 403, message: 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.', details: [{ '@type': ERROR_INFO, reason: 'CONSUMER_INVALID', domain: 'googleapis.com' }] }
    case 'model_not_found':
      return { status: 404, message: `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.` }
    case 'context_length_exceeded':
      return { status: 400, message: 'The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).' }
    case 'overloaded':
      return { status: 503, message: 'The model is overloaded. Please try again later.' }
    case 'server_error':
      return { status: 500, message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting' }
  }
}

/**
 * Gemini's answer for provider error `name`. `content_filter` is the 200 Gemini sends for a
 * blocked prompt (no candidates, `promptFeedback.blockReason: "SAFETY"`), streamed as one chunk
 * on a streamed request.
 * @example
 * geminiProviderError('rate_limit', detail).body // { error: { code: 429, status: 'RESOURCE_EXHAUSTED', … } }
 */
export function geminiProviderError(name: AnsweredProviderError, detail: ProviderErrorDetail): ProviderErrorAnswer {
  const headers = { 'content-type': 'application/json; charset=UTF-8' }
  if (name === 'content_filter') {
    const message = detail.message ?? 'The prompt was blocked: SAFETY'
    const blocked = {
      promptFeedback: {
        blockReason: 'SAFETY',
        safetyRatings: [
          { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
          { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
          { category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH', blocked: true },
          { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'NEGLIGIBLE' },
        ],
      },
      usageMetadata: { promptTokenCount: 8, totalTokenCount: 8, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 8 }] },
      modelVersion: detail.model ?? 'unknown',
      responseId: detail.requestId,
    }
    return { status: 200, headers, body: blocked, streamFrames: [{ data: JSON.stringify(blocked) }], error: { name, type: 'SAFETY', code: 'SAFETY', param: null, message } }
  }
  const wire = geminiWireError(name, detail)
  const message = detail.message ?? wire.message
  const status = geminiStatusName(wire.status)
  return {
    status: wire.status,
    headers,
    body: { error: { code: wire.status, message, status, ...(wire.details ? { details: wire.details } : {}) } },
    error: { name, type: status, code: String(wire.status), param: null, message },
  }
}
