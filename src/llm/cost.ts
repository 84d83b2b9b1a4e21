/**
 * What a call cost (SPEC §20): input left uncached at the input price, cache reads and writes at
 * theirs, output at the output price. Prices are US dollars per million tokens.
 * @module
 */
import type { ModelPrice } from './models.js'
import type { Usage } from './types.js'

/**
 * The cost of `usage` at `price`, in US dollars. Cache prices a price leaves out are the input
 * price (no discount assumed); one-hour writes default to the five-minute write price.
 * @example
 * costOfUsage({ inputTokens: 1000, outputTokens: 10, cacheReadTokens: 900 }, { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3 })
 */
export function costOfUsage(usage: Usage, price: ModelPrice): number {
  const read = usage.cacheReadTokens ?? 0
  const write = usage.cacheWriteTokens ?? 0
  const write1h = usage.cacheWrite1hTokens ?? 0
  const uncached = Math.max(0, usage.inputTokens - read - write)
  const readPrice = price.cacheReadPerMTok ?? price.inputPerMTok
  const writePrice = price.cacheWritePerMTok ?? price.inputPerMTok
  const write1hPrice = price.cacheWrite1hPerMTok ?? writePrice
  return (uncached * price.inputPerMTok + read * readPrice + (write - write1h) * writePrice + write1h * write1hPrice + usage.outputTokens * price.outputPerMTok) / 1_000_000
}
