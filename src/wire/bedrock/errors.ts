/**
 * Amazon Bedrock's errors (SPEC §10.2, §21): the exception's name in `x-amzn-errortype` and
 * `{ message }` as the body, with the status AWS sends for it, so
 * `@aws-sdk/client-bedrock-runtime` throws the named class (`ThrottlingException`,
 * `ValidationException`, `AccessDeniedException`, …) and its standard retry strategy retries
 * throttling and 5xx exactly as against AWS. Mid-stream, an error is an event-stream exception
 * message (see {@link bedrockStreamError}).
 * @module
 */
import type { ErrorAnswer, SseFrame } from '../dialect.js'
import type { AnsweredProviderError, ProviderErrorAnswer, ProviderErrorDetail } from '../provider-error.js'

/** The namespace AWS appends to `x-amzn-errortype`. */
const ERROR_NAMESPACE = 'http://internal.amazon.com/coral/com.amazon.bedrock/'

/** Bedrock's error type for an HTTP status, as sent in `x-amzn-errortype`. */
export function bedrockErrorType(status: number): string {
  if (status === 401 || status === 403) return 'AccessDeniedException'
  if (status === 404) return 'ResourceNotFoundException'
  if (status === 408 || status === 504) return 'ModelTimeoutException'
  if (status === 424) return 'ModelErrorException'
  if (status === 429) return 'ThrottlingException'
  if (status === 502 || status === 503) return 'ServiceUnavailableException'
  if (status >= 500) return 'InternalServerException'
  return 'ValidationException'
}

/** The headers naming exception `type`. */
function errorTypeHeaders(type: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-amzn-errortype': `${type}:${ERROR_NAMESPACE}` }
}

/** Bedrock's error answer for a status: `{ message }` and the type in `x-amzn-errortype`. */
export function bedrockErrorAnswer(status: number, message: string): ErrorAnswer {
  return { body: { message }, headers: errorTypeHeaders(bedrockErrorType(status)) }
}

/**
 * The stream frame for an error after the stream started: an event-stream *exception* message
 * (the framing sends an `event` ending in `Exception` as one), of `type` (camel-cased, as the
 * ConverseStream union names its members).
 */
export function bedrockStreamError(message: string, type = 'InternalServerException'): SseFrame {
  return { event: type[0].toLowerCase() + type.slice(1), data: JSON.stringify({ message }) }
}

/**
 * The event-stream exception each §10.2 name is sent as once a stream has started: the members
 * ConverseStream and InvokeModelWithResponseStream carry (`throttlingException`,
 * `validationException`, `serviceUnavailableException`, `internalServerException`), so the AWS
 * SDK throws the same class while the stream is read as it would before it started. Exceptions
 * the streams cannot carry (`AccessDeniedException`, `ResourceNotFoundException`,
 * `ServiceQuotaExceededException`) become the nearest member: a refusal of the request is a
 * `validationException`, a quota a `throttlingException`.
 */
const STREAM_EXCEPTIONS: Readonly<Record<AnsweredProviderError, string>> = {
  rate_limit: 'ThrottlingException',
  insufficient_quota: 'ThrottlingException',
  invalid_api_key: 'ValidationException',
  permission_denied: 'ValidationException',
  model_not_found: 'ValidationException',
  context_length_exceeded: 'ValidationException',
  content_filter: 'ValidationException',
  overloaded: 'ServiceUnavailableException',
  server_error: 'InternalServerException',
}

/**
 * The stream frame for an error after the stream started: the exception of provider error
 * `name` (AWS's wording unless the test gave its own), else `internalServerException` with
 * `message` (a brain that failed).
 * @example
 * bedrockStreamErrorFor('failed', 'rate_limit').event // 'throttlingException'
 */
export function bedrockStreamErrorFor(message: string, name?: AnsweredProviderError): SseFrame {
  if (name === undefined) return bedrockStreamError(message)
  return bedrockStreamError(message, STREAM_EXCEPTIONS[name])
}

/** Each §10.2 name on Bedrock: status, exception and AWS's wording. */
const BEDROCK_ERRORS: Readonly<Record<AnsweredProviderError, { status: number; type: string; message: string }>> = {
  rate_limit: { status: 429, type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' },
  insufficient_quota: { status: 400, type: 'ServiceQuotaExceededException', message: "Your request exceeded a service quota. Check your AWS account's Bedrock quotas." },
  // AWS rejects a bad access key before Bedrock sees it: a type no Bedrock class models.
  invalid_api_key: { status: 403, type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' },
  permission_denied: { status: 403, type: 'AccessDeniedException', message: "You don't have access to the model with the specified model ID." },
  model_not_found: { status: 404, type: 'ResourceNotFoundException', message: 'Could not resolve the foundation model from the provided model identifier.' },
  context_length_exceeded: { status: 400, type: 'ValidationException', message: 'Input is too long for requested model.' },
  content_filter: { status: 400, type: 'ValidationException', message: 'Output blocked by content filtering policy' },
  overloaded: { status: 503, type: 'ServiceUnavailableException', message: 'Bedrock is unable to process your request.' },
  server_error: { status: 500, type: 'InternalServerException', message: 'The server encountered an error processing your request.' },
}

/**
 * Bedrock's answer for provider error `name`.
 * @example
 * bedrockProviderError('rate_limit', detail).headers['x-amzn-errortype'] // 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/'
 */
export function bedrockProviderError(name: AnsweredProviderError, detail: ProviderErrorDetail): ProviderErrorAnswer {
  const wire = BEDROCK_ERRORS[name]
  const message = detail.message ?? wire.message
  return { status: wire.status, headers: errorTypeHeaders(wire.type), body: { message }, error: { name, type: wire.type, code: null, param: null, message } }
}
