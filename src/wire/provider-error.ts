/**
 * What every dialect's `errors.ts` shares for provider errors (SPEC §10.2, §21): the answer as
 * data, what it may say beyond the name, and the retry headers. Each provider's own shape —
 * status, body, headers — lives in its folder (`src/wire/<dialect>/errors.ts`) and is chosen
 * through the dialect contract (`providerError` of {@link WireDialect}), never by the server.
 * @module
 */
import type { ProviderErrorName } from '../provider-errors.js'

/** A provider error the proxy answers (`timeout` has no answer: the proxy just never replies). */
export type AnsweredProviderError = Exclude<ProviderErrorName, 'timeout'>

/** What `requests` records for an error answer, in the provider's terms. */
export interface RecordedError {
  name?: string
  type: string
  code?: string | null
  param?: string | null
  message: string
}

/** A provider error as data; the server writes `body` as JSON with `status` and `headers`. */
export interface ProviderErrorAnswer {
  status: number
  headers: Record<string, string>
  body: unknown
  /** What `requests` records for it. */
  error: RecordedError
  /**
   * Where the provider reports this one inside a 200 stream rather than with an error status
   * (Gemini's blocked prompt): the frames a streamed request gets instead of `body`.
   */
  streamFrames?: { event?: string; data: string }[]
}

/** What the answer may say beyond the name. */
export interface ProviderErrorDetail {
  /**
   * The dialect serving the request (one provider's folder may serve several): a `Dialect`, named
   * as a string here because the union is made above the wire's contract (src/wire/dialects.ts).
   */
  dialect: string
  message?: string
  retryAfterS?: number
  /** The answer's request id (Anthropic bodies carry it). */
  requestId: string
  model: string | undefined
  /** Seconds since the epoch, for reset times. */
  now: number
}

/** Statuses every SDK retries (SPEC §10.2: retried exactly as against the real API). */
export function isRetried(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * The seconds a retried answer asks the client to wait: a millisecond unless the test asks for
 * more, so SDK retries cost nothing (every SDK honours `retry-after-ms`, Anthropic's only above 0).
 */
export function waitSeconds(detail: ProviderErrorDetail): number {
  return detail.retryAfterS ?? 0.001
}

/** `retry-after` and `retry-after-ms` for a retried status; nothing otherwise. */
export function retryHeaders(status: number, detail: ProviderErrorDetail): Record<string, string> {
  if (!isRetried(status)) return {}
  const waitS = waitSeconds(detail)
  return { 'retry-after': String(Math.ceil(waitS)), 'retry-after-ms': String(Math.max(1, Math.round(waitS * 1000))) }
}
