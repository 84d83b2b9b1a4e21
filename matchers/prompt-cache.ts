/**
 * `toHaveHitPromptCache` (SPEC §20): every request from the `from`-th on read the simulated
 * prompt cache for at least `minReadRatio` of its input; the failure says, per miss, why.
 * @module
 */
import { checkOptions, is } from '../src/internal/describe.js'
import type { FakeRequest } from '../src/server/types.js'
import type { CacheMiss } from '../src/llm/prompt-cache.js'
import { requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { hint, ordinal, plural, sections } from './format.js'

const NAME = 'toHaveHitPromptCache'

/** Options of `toHaveHitPromptCache`. */
export interface PromptCacheHitOptions {
  /** The first request (1-based) that must read the cache. @default 2 */
  from?: number
  /** The share of each request's input tokens that must come from the cache, 0 to 1. @default 0.5 */
  minReadRatio?: number
}

/** One request as this matcher judges it. */
interface Judged {
  number: number
  request: FakeRequest
  ratio: number
  hit: boolean
}

/**
 * Passes when every model request from the `from`-th on (default: the second) read the FakeProxy's
 * (or lane's) simulated prompt cache for at least `minReadRatio` (default 0.5) of its input
 * tokens. The failure shows, for each miss, why: no breakpoint, a prefix below the model's
 * minimum, an expired entry, or the first block and character where the prompt differs from the
 * cached prefix, with both texts around it.
 * @example
 * expect(proxy).toHaveHitPromptCache()
 * expect(lane).toHaveHitPromptCache({ from: 3, minReadRatio: 0.8 })
 * @throws {TypeError} when `from` is not a positive integer or `minReadRatio` not a number from 0 to 1.
 */
export function toHaveHitPromptCache(this: PortableMatcherContext, received: unknown, options?: unknown): MatcherOutcome {
  checkOptions(NAME, options, {
    from: ['a positive integer (the 1-based request number)', is.positiveInteger],
    minReadRatio: ['a number from 0 to 1', (value) => typeof value === 'number' && value >= 0 && value <= 1],
  })
  const { from = 2, minReadRatio = 0.5 } = (options ?? {}) as PromptCacheHitOptions
  requireKind(NAME, received, ['FakeProxy'])
  const cached = (received as { requests: readonly FakeRequest[] }).requests.filter((request) => request.promptCache !== undefined && request.status === undefined)
  const judged: Judged[] = cached.map((request, i) => {
    const { inputTokens, readTokens } = request.promptCache!
    const ratio = inputTokens === 0 ? 0 : readTokens / inputTokens
    return { number: i + 1, request, ratio, hit: ratio >= minReadRatio }
  })
  const checked = judged.slice(from - 1)
  const misses = checked.filter((row) => !row.hit)
  const pass = checked.length > 0 && misses.length === 0
  const expected = `requests from the ${ordinal(from)} on to read at least ${percent(minReadRatio)} of their input from the prompt cache`
  return {
    pass,
    message: () =>
      sections(
        hint(this, NAME, 'options'),
        `Expected: ${this.isNot ? 'not ' : ''}${expected}`,
        checked.length === 0
          ? `Received: ${plural(cached.length, 'request')} through a simulated prompt cache, so none from the ${ordinal(from)} on`
          : misses.length
            ? `Misses:\n${misses.map(describeMiss).join('\n')}`
            : `Every one of ${plural(checked.length, 'request')} did.`,
        judged.length ? `Requests:\n${judged.map((row) => `  ${ordinal(row.number)}: ${describeRow(row)}`).join('\n')}` : '',
      ),
  }
}

function describeRow({ request, ratio }: Judged): string {
  const { inputTokens, readTokens, writeTokens } = request.promptCache!
  return `${request.model ?? '(no model)'} ${request.method} ${request.path}: ${inputTokens} input tokens, ${readTokens} read from the cache (${percent(ratio)}), ${writeTokens} written`
}

function describeMiss(row: Judged): string {
  const cache = row.request.promptCache!
  const head = `  ${ordinal(row.number)} request read ${cache.readTokens} of ${cache.inputTokens} input tokens (${percent(row.ratio)})`
  return `${head}: ${reason(cache.miss, cache.readTokens)}`
}

/** Why one request missed, in words. */
export function reason(miss: CacheMiss | undefined, read: number): string {
  if (!miss) return read > 0 ? 'it read only a shorter prefix (one ending at an earlier breakpoint)' : 'it read nothing'
  switch (miss.reason) {
    case 'no-breakpoint':
      return 'no cache breakpoint: mark the end of the stable prefix with cache_control (Anthropic) or a cachePoint (Bedrock)'
    case 'below-minimum':
      return `the cacheable prefix is ${miss.tokens} tokens, below the model's minimum of ${miss.minimum}`
    case 'first':
      return 'nothing was cached before it'
    case 'expired':
      return `the cached prefix had expired ${duration(miss.expiredMsAgo)} before (TTL ${duration(miss.ttlMs)})`
    case 'differs':
      return (
        `the prompt differs from the cached prefix at ${miss.where}, character ${miss.offset}:\n` +
        `      cached: ${JSON.stringify(miss.cached)}\n` +
        `      now:    ${JSON.stringify(miss.now)}`
      )
  }
}

function percent(ratio: number): string {
  return `${Math.round(ratio * 1000) / 10}%`
}

function duration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`
  if (ms >= 1000) return `${Math.round(ms / 100) / 10}s`
  return `${ms}ms`
}
