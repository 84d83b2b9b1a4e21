/**
 * Ollama's errors (SPEC §10.2, §21): `{ "error": "…" }`, a bare string, with the status the
 * server (or ollama.com for cloud models) sends. The `ollama` client throws `ResponseError` with
 * that string as its message and `status_code`; it never retries. Mid-stream, an error is one
 * more NDJSON line `{ "error": "…" }`, which the client throws.
 * @module
 */
import type { ErrorAnswer } from '../dialect.js'
import { retryHeaders, type AnsweredProviderError, type ProviderErrorAnswer, type ProviderErrorDetail } from '../provider-error.js'

/** Ollama's error body: `{ error: message }` whatever the status. */
export function ollamaErrorAnswer(_status: number, message: string): ErrorAnswer {
  return { body: { error: message } }
}

/** Each §10.2 name on Ollama: status and the server's wording. */
function ollamaWireError(name: AnsweredProviderError, model: string): { status: number; message: string } {
  switch (name) {
    case 'rate_limit':
      return { status: 429, message: 'too many requests, please try again later' }
    case 'insufficient_quota':
      return { status: 429, message: "you've reached your usage limit, please upgrade to continue" }
    case 'invalid_api_key':
      return { status: 401, message: 'unauthorized' }
    case 'permission_denied':
      return { status: 403, message: 'forbidden' }
    case 'model_not_found':
      return { status: 404, message: `model '${model}' not found` }
    case 'context_length_exceeded':
      return { status: 400, message: 'the input length exceeds the context length' }
    case 'content_filter':
      return { status: 400, message: 'the request was blocked by the content policy' }
    case 'overloaded':
      // The server's answer when its queue (OLLAMA_MAX_QUEUE) is full.
      return { status: 503, message: 'server busy, please try again.  maximum pending requests exceeded' }
    case 'server_error':
      return { status: 500, message: 'llama runner process has terminated: exit status 2' }
  }
}

/**
 * Ollama's answer for provider error `name`.
 * @example
 * ollamaProviderError('model_not_found', detail).body // { error: "model 'llama3.2' not found" }
 */
export function ollamaProviderError(name: AnsweredProviderError, detail: ProviderErrorDetail): ProviderErrorAnswer {
  const wire = ollamaWireError(name, detail.model ?? 'unknown')
  const message = detail.message ?? wire.message
  return {
    status: wire.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...retryHeaders(wire.status, detail) },
    body: { error: message },
    error: { name, type: 'error', code: null, param: null, message },
  }
}
