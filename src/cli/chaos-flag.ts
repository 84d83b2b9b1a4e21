/**
 * The SPEC §19 flags of `serve`: `--chaos seed:rate[:kinds]` (e.g. `--chaos 42:0.2` or
 * `--chaos 42:0.2:invalid_tool_args,rate_limit,disconnect`), `--latency` and `--rate-limit`.
 * @module
 */
import { chaosKinds, type ChaosKind, type ChaosOptions } from '../server/chaos.js'
import type { PacingOptions } from '../server/pacing.js'
import type { RateLimitOptions } from '../server/rate-limit.js'

/**
 * The chaos options `--chaos` gives; checked in full when the proxy is made.
 * @throws {TypeError} (through `fail`) the value is not `seed:rate[:kinds]`.
 */
export function parseChaosFlag(value: string, fail: (message: string) => Error): ChaosOptions {
  const [seedText, rateText, kindsText, ...rest] = value.split(':')
  const form = `--chaos must be seed:rate[:kinds] (an integer seed, a rate from 0 to 1, kinds among ${chaosKinds.join(',')}), got ${JSON.stringify(value)}`
  if (rest.length > 0 || seedText === undefined || rateText === undefined || !/^-?\d+$/.test(seedText)) throw fail(form)
  const rate = Number(rateText)
  if (rateText.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw fail(form)
  const options: ChaosOptions = { seed: Number(seedText), rate }
  if (kindsText !== undefined) {
    const kinds = kindsText.split(',').map((kind) => kind.trim()).filter(Boolean)
    const unknown = kinds.find((kind) => !(chaosKinds as readonly string[]).includes(kind))
    if (kinds.length === 0 || unknown !== undefined) throw fail(`--chaos has an unknown kind ${JSON.stringify(unknown ?? '')}; valid kinds: ${chaosKinds.join(', ')}`)
    options.kinds = kinds as ChaosKind[]
  }
  return options
}

/**
 * `serve --latency ttftMs[:tokensPerSecond[:jitter]]`, e.g. `--latency 300:50:0.2`.
 * @throws {TypeError} (through `fail`) the value is not of that form.
 */
export function parseLatencyFlag(value: string, fail: (message: string) => Error): PacingOptions {
  const numbers = value.split(':').map((part) => (part.trim() === '' ? Number.NaN : Number(part)))
  if (numbers.length > 3 || numbers.some((number) => !Number.isFinite(number) || number < 0)) {
    throw fail(`--latency must be ttftMs[:tokensPerSecond[:jitter]] of non-negative numbers, got ${JSON.stringify(value)}`)
  }
  const [ttftMs, tokensPerSecond, jitter] = numbers
  return { ttftMs, ...(tokensPerSecond ? { tokensPerSecond } : {}), ...(jitter !== undefined ? { jitter } : {}) }
}

/**
 * `serve --rate-limit requestsPerMinute[:tokensPerMinute]`, e.g. `--rate-limit 60:100000`; `0`
 * leaves that limit out.
 * @throws {TypeError} (through `fail`) the value is not of that form.
 */
export function parseRateLimitFlag(value: string, fail: (message: string) => Error): RateLimitOptions {
  const numbers = value.split(':').map((part) => (part.trim() === '' ? Number.NaN : Number(part)))
  if (numbers.length > 2 || numbers.some((number) => !Number.isInteger(number) || number < 0)) {
    throw fail(`--rate-limit must be requestsPerMinute[:tokensPerMinute] of non-negative integers, got ${JSON.stringify(value)}`)
  }
  const [requestsPerMinute, tokensPerMinute] = numbers
  return { ...(requestsPerMinute ? { requestsPerMinute } : {}), ...(tokensPerMinute ? { tokensPerMinute } : {}) }
}
