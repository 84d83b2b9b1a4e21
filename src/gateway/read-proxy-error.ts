/**
 * `proxyError(err)`: finds the proxy's refusal inside whatever a model client threw. The mark
 * header `x-viper-error` says it came from the proxy; the body gives the message and hint.
 * @module
 */
import { createProxyError, isProxyError, type ProxyError } from './proxy-error-classes.js'
import { isRefusalCode } from './refusal-codes.js'

/** How deep to follow `lastError` / `cause` chains; guards against cycles. */
const MAX_DEPTH = 8

type Loose = Record<string, unknown>

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null
}

/** One header from a `Headers` object (openai, Anthropic) or a plain record (AI SDK). */
function headerOf(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined
  if (typeof headers.get === 'function') {
    const value = (headers.get as (name: string) => unknown).call(headers, name)
    return typeof value === 'string' ? value : undefined
  }
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue
    if (typeof value === 'string') return value
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0]
  }
  return undefined
}

/** The error body: `.error` (openai: inner object, Anthropic: whole body), or the AI SDK's `responseBody`. */
function bodyOf(err: Loose): unknown {
  if (typeof err.responseBody === 'string') {
    try {
      return JSON.parse(err.responseBody)
    } catch {
      return undefined
    }
  }
  if ('error' in err) return err.error
  return err.data
}

/** `{ message, hint }` from any of the three body shapes, or from an inner error object. */
function detailOf(body: unknown): { message?: string; hint?: string } {
  if (!isObject(body)) return {}
  const inner = isObject(body.error) ? body.error : body
  return {
    message: typeof inner.message === 'string' ? inner.message : undefined,
    hint: typeof inner.hint === 'string' ? inner.hint : undefined,
  }
}

/** The errors this one wraps, most telling first: AI SDK `RetryError`, then `cause`. */
function wrapped(err: Loose): unknown[] {
  const inner: unknown[] = []
  if ('lastError' in err) inner.push(err.lastError)
  if (Array.isArray(err.errors)) inner.push(...[...err.errors].reverse())
  if ('cause' in err) inner.push(err.cause)
  return inner
}

function read(err: unknown, depth: number): ProxyError | undefined {
  if (isProxyError(err)) return err
  if (!isObject(err) || depth > MAX_DEPTH) return undefined
  const code = headerOf(err.headers, 'x-viper-error') ?? headerOf(err.responseHeaders, 'x-viper-error')
  if (code !== undefined) {
    if (!isRefusalCode(code)) return undefined
    const status = typeof err.status === 'number' ? err.status : typeof err.statusCode === 'number' ? err.statusCode : undefined
    return createProxyError(code, { ...detailOf(bodyOf(err)), status, cause: err })
  }
  for (const inner of wrapped(err)) {
    const found = read(inner, depth + 1)
    if (found) return found
  }
  return undefined
}

/**
 * The proxy's refusal inside an error thrown by `openai`, `@anthropic-ai/sdk`, the AI SDK
 * (`APICallError`, or a `RetryError` around one) or `ProxyClient`, as the typed subclass with
 * `code`, `status`, `message` and `hint`; `undefined` when the error did not come from the
 * proxy (no `x-viper-error` mark).
 * @example
 * if (proxyError(err) instanceof RateLimited) await backOff()
 */
export function proxyError(err: unknown): ProxyError | undefined {
  return read(err, 0)
}
