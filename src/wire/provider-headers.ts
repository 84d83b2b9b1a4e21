/**
 * The response headers real provider traffic carries (SPEC §10.1): OpenAI's `openai-version`
 * and `x-ratelimit-*`, Anthropic's `anthropic-ratelimit-*`. The request id headers and
 * `openai-processing-ms` are set where the answer is written.
 * @module
 */
import type { ErrorStyle } from './names.js'
import type { WireIdKind } from './wire-ids.js'

/** The request-id format of each error style. */
export function requestIdKind(style: ErrorStyle): WireIdKind {
  return style === 'anthropic' ? 'anthropic-request' : 'openai-request'
}

/** The last time {@link resetAt} formatted: requests come many a second, the text changes once. */
let lastReset = { at: NaN, text: '' }

/** An RFC 3339 time `seconds` after `now`, as Anthropic's reset headers give it. */
function resetAt(now: number, seconds: number): string {
  const at = now + seconds
  if (lastReset.at !== at) lastReset = { at, text: new Date(at * 1000).toISOString().replace(/\.\d+Z$/, 'Z') }
  return lastReset.text
}

/** The last headers of each style, with the second they were made for. */
const lastHeaders = new Map<ErrorStyle, { now: number; headers: readonly string[] }>()

/**
 * {@link providerHeaders} as names and values in turn (as `writeHead` takes them), made once a
 * second per style rather than for every request.
 */
export function providerHeadersAt(style: ErrorStyle, now: number): readonly string[] {
  const last = lastHeaders.get(style)
  if (last?.now === now) return last.headers
  const headers = Object.entries(providerHeaders(style, now)).flat()
  lastHeaders.set(style, { now, headers })
  return headers
}

/**
 * The headers of every answer in `style`, for a request seen at `now` (seconds since the
 * epoch). The budgets are generous and never run out unless a test plans a `rate_limit`.
 * @example
 * providerHeaders('openai', 1764480000)['openai-version'] // '2020-10-01'
 */
export function providerHeaders(style: ErrorStyle, now: number): Record<string, string> {
  if (style === 'openai') {
    return {
      'openai-version': '2020-10-01',
      'x-ratelimit-limit-requests': '10000',
      'x-ratelimit-limit-tokens': '30000000',
      'x-ratelimit-remaining-requests': '9999',
      'x-ratelimit-remaining-tokens': '29999990',
      'x-ratelimit-reset-requests': '6ms',
      'x-ratelimit-reset-tokens': '0s',
    }
  }
  if (style === 'anthropic') {
    const soon = resetAt(now, 1)
    return {
      'anthropic-ratelimit-requests-limit': '4000',
      'anthropic-ratelimit-requests-remaining': '3999',
      'anthropic-ratelimit-requests-reset': soon,
      'anthropic-ratelimit-tokens-limit': '2000000',
      'anthropic-ratelimit-tokens-remaining': '2000000',
      'anthropic-ratelimit-tokens-reset': soon,
      'anthropic-ratelimit-input-tokens-limit': '2000000',
      'anthropic-ratelimit-input-tokens-remaining': '2000000',
      'anthropic-ratelimit-input-tokens-reset': soon,
      'anthropic-ratelimit-output-tokens-limit': '400000',
      'anthropic-ratelimit-output-tokens-remaining': '400000',
      'anthropic-ratelimit-output-tokens-reset': soon,
    }
  }
  return {}
}
