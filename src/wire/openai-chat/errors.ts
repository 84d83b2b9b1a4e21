/**
 * OpenAI's provider errors (SPEC §10.2): `{ error: { message, type, param, code } }` with the
 * status, retry and rate-limit headers the API sends. Served on every OpenAI route (Chat,
 * Responses, embeddings, models) and the OpenAI-compatible vendors; Azure has its own (azure/errors.ts).
 * @module
 */
import { retryHeaders, waitSeconds, type AnsweredProviderError, type ProviderErrorAnswer, type ProviderErrorDetail } from '../provider-error.js'

/** One error on OpenAI's wire: status, `type`, `code`, `param` and OpenAI's wording. */
export interface OpenaiWireError {
  status: number
  type: string
  code: string | null
  param: string | null
  message: string
}

/** OpenAI's error for `name`, worded as the API words it. */
export function openaiWireError(name: AnsweredProviderError, detail: ProviderErrorDetail): OpenaiWireError {
  const model = detail.model ?? 'unknown'
  const waitS = waitSeconds(detail)
  const input = detail.dialect === 'openai-chat' ? 'messages' : 'input'
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
      return detail.dialect === 'openai-chat'
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

/**
 * OpenAI's answer for provider error `name`.
 * @example
 * openaiProviderError('rate_limit', detail).status // 429, with retry-after-ms and x-ratelimit-* headers
 */
export function openaiProviderError(name: AnsweredProviderError, detail: ProviderErrorDetail): ProviderErrorAnswer {
  const wire = openaiWireError(name, detail)
  const message = detail.message ?? wire.message
  const headers: Record<string, string> = { 'content-type': 'application/json', ...retryHeaders(wire.status, detail) }
  // An exhausted request budget, as the rate-limit headers report it.
  if (name === 'rate_limit') Object.assign(headers, { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': `${detail.retryAfterS ?? 0}s` })
  return {
    status: wire.status,
    headers,
    body: { error: { message, type: wire.type, param: wire.param, code: wire.code } },
    error: { name, type: wire.type, code: wire.code, param: wire.param, message },
  }
}
