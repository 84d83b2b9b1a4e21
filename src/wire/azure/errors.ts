/**
 * Azure OpenAI's errors (SPEC §10.2, §21): OpenAI's `{ error: { … } }` with Azure's codes
 * (`"429"`, `"401"`, `DeploymentNotFound`, …) and wording, Azure's headers (`retry-after`,
 * `retry-after-ms`, `apim-request-id`, `x-ms-region`), and a `content_filter` error carrying its
 * `innererror` (`ResponsibleAIPolicyViolation` with the filter results). `AzureOpenAI` (the
 * `openai` SDK) and `@ai-sdk/azure` read and retry them as OpenAI's.
 * @module
 */
import type { ErrorAnswer } from '../dialect.js'
import { openaiWireError } from '../openai-chat/errors.js'
import { retryHeaders, waitSeconds, type AnsweredProviderError, type ProviderErrorAnswer, type ProviderErrorDetail } from '../provider-error.js'

/** Azure's answer to a request without `api-version`. */
export function azureErrorAnswer(status: number, message: string): ErrorAnswer | undefined {
  return status === 404 ? { body: { error: { code: '404', message } } } : undefined
}

/** The filter results of a prompt Azure's content filter blocked. */
const FILTER_RESULT = {
  hate: { filtered: false, severity: 'safe' },
  jailbreak: { filtered: true, detected: true },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
}

/** Azure's error object for `name`: its code and wording, or OpenAI's where Azure passes OpenAI's through. */
function azureError(name: AnsweredProviderError, detail: ProviderErrorDetail): { status: number; error: Record<string, unknown> } {
  const waitS = Math.max(1, Math.ceil(waitSeconds(detail)))
  switch (name) {
    case 'rate_limit':
      return { status: 429, error: { code: '429', message: `Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after ${waitS} second${waitS === 1 ? '' : 's'}. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.` } }
    case 'insufficient_quota':
      return { status: 429, error: { code: 'InsufficientQuota', message: 'The specified capacity exceeds the available quota for this subscription and region. Request more quota at https://aka.ms/oai/quotaincrease.' } }
    case 'invalid_api_key':
      return { status: 401, error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.' } }
    case 'permission_denied':
      return { status: 403, error: { code: 'PermissionDenied', message: 'Principal does not have access to API/Operation.' } }
    case 'model_not_found':
      return { status: 404, error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.' } }
    case 'content_filter':
      return {
        status: 400,
        error: {
          message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
          type: null,
          param: 'prompt',
          code: 'content_filter',
          status: 400,
          innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: FILTER_RESULT },
        },
      }
    case 'overloaded':
      return { status: 503, error: { code: 'ServiceUnavailable', message: 'The service is temporarily unable to process your request. Please try again later.' } }
    case 'server_error':
      return { status: 500, error: { message: 'The server had an error processing your request. Sorry about that! You can retry your request, or contact us through an Azure support request at: https://go.microsoft.com/fwlink/?linkid=2213926 if you keep seeing this error.', type: 'server_error', param: null, code: null } }
    case 'context_length_exceeded': {
      // The model's own 400, passed through as OpenAI words it.
      const wire = openaiWireError(name, detail)
      return { status: wire.status, error: { message: wire.message, type: wire.type, param: wire.param, code: wire.code } }
    }
  }
}

/**
 * Azure OpenAI's answer for provider error `name`.
 * @example
 * azureProviderError('content_filter', detail).body // { error: { code: 'content_filter', innererror: { code: 'ResponsibleAIPolicyViolation', … } } }
 */
export function azureProviderError(name: AnsweredProviderError, detail: ProviderErrorDetail): ProviderErrorAnswer {
  const { status, error } = azureError(name, detail)
  const message = detail.message ?? String(error.message)
  const headers: Record<string, string> = { 'content-type': 'application/json', ...retryHeaders(status, detail), 'apim-request-id': detail.requestId, 'x-ms-region': 'East US' }
  if (name === 'rate_limit') Object.assign(headers, { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-remaining-tokens': '0' })
  const code = typeof error.code === 'string' ? error.code : null
  const type = typeof error.type === 'string' ? error.type : code ?? 'error'
  return {
    status,
    headers,
    body: { error: { ...error, message } },
    error: { name, type, code, param: typeof error.param === 'string' ? error.param : null, message },
  }
}
