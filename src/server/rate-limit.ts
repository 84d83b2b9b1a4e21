/**
 * Rate limits by requests and tokens (SPEC §19): `rateLimit: { requestsPerMinute,
 * tokensPerMinute }` answers the provider's `rate_limit` error — with its `retry-after` and
 * rate-limit headers — once a sliding minute holds more than allowed, on the proxy's clock
 * (`Date.now()`, which a test's fake timers move).
 * @module
 */
import type { ModelRequest } from '../llm/types.js'
import { estimateInputTokens } from '../llm/usage.js'
import { argumentError, checkOptions, is } from '../internal/describe.js'
import type { FakeRequest } from './types.js'

/**
 * Limits on what a proxy takes in a minute.
 * @example
 * new FakeProxy({ rateLimit: { requestsPerMinute: 3, tokensPerMinute: 10_000 } })
 */
export interface RateLimitOptions {
  /** Model requests in any sliding minute. @default unlimited */
  requestsPerMinute?: number
  /** Tokens (input, and output once answered) in any sliding minute. @default unlimited */
  tokensPerMinute?: number
}

const MINUTE = 60_000

/**
 * Checks rate-limit options for `owner`.
 * @throws {TypeError} naming the option and the accepted values.
 * @internal
 */
export function checkRateLimit(owner: string, options: unknown): RateLimitOptions {
  if (!is.object(options)) throw argumentError(owner, 'option rateLimit', 'an object { requestsPerMinute?, tokensPerMinute? }', options)
  checkOptions(`${owner} option rateLimit`, options, {
    requestsPerMinute: ['a positive integer', is.positiveInteger],
    tokensPerMinute: ['a positive integer', is.positiveInteger],
  })
  return options as RateLimitOptions
}

/** One proxy's (or lane's) window of recent requests. @internal */
export class RateWindow {
  readonly #entries: Array<{ at: number; input: number; record: FakeRequest }> = []
  constructor(readonly limits: RateLimitOptions) {}

  /**
   * Takes a request in, or says how many seconds the client must wait when the window is full
   * (the request is then not counted, as a provider does not count what it refused).
   */
  admit(req: ModelRequest, record: FakeRequest): number | undefined {
    const now = Date.now()
    while (this.#entries.length > 0 && now - this.#entries[0].at >= MINUTE) this.#entries.shift()
    const input = estimateInputTokens(req)
    const { requestsPerMinute, tokensPerMinute } = this.limits
    const full =
      (requestsPerMinute !== undefined && this.#entries.length >= requestsPerMinute) ||
      (tokensPerMinute !== undefined && this.#tokens() + input > tokensPerMinute && this.#entries.length > 0)
    if (full) return Math.max(0.001, (this.#entries[0].at + MINUTE - now) / 1000)
    this.#entries.push({ at: now, input, record })
    return undefined
  }

  /** Drops what the window holds (a reset). */
  clear(): void {
    this.#entries.length = 0
  }

  #tokens(): number {
    let total = 0
    for (const entry of this.#entries) total += entry.input + (entry.record.response?.usage.outputTokens ?? 0)
    return total
  }
}
