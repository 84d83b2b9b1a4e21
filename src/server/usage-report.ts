/**
 * `proxy.usage()` (SPEC §20): per request and in total, the input, cache-read, cache-write and
 * output tokens a FakeProxy (or lane) reported, and what they cost at the model's price.
 * @module
 */
import { priceOf } from '../config.js'
import { costOfUsage } from '../llm/cost.js'
import type { FakeRequest } from './types.js'

/** The tokens and cost of one answered model request. */
export interface RequestUsage {
  /** The model the client asked for. */
  model: string | undefined
  /** The request path, e.g. `/v1/messages`. */
  path: string
  /** Every input token, those read from or written to the cache included. */
  inputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  outputTokens: number
  /** In US dollars, at the configured or built-in price; `undefined` for a model with none. */
  costUsd: number | undefined
}

/** What `proxy.usage()` returns. */
export interface ProxyUsage {
  /** One row per answered model request, oldest first. */
  requests: RequestUsage[]
  /** The sums; `costUsd` is `undefined` when any request's model has no price. */
  total: Omit<RequestUsage, 'model' | 'path'>
}

/** The usage of `records` (requests without an answer — refused, failed — are left out). */
export function usageReport(records: readonly FakeRequest[]): ProxyUsage {
  const requests: RequestUsage[] = []
  const total: ProxyUsage['total'] = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, costUsd: 0 }
  for (const record of records) {
    const usage = record.response?.usage
    if (!usage) continue
    const price = priceOf(record.model ?? record.request.model)
    const row: RequestUsage = {
      model: record.model,
      path: record.path,
      inputTokens: usage.inputTokens,
      cacheReadTokens: usage.cacheReadTokens ?? 0,
      cacheWriteTokens: usage.cacheWriteTokens ?? 0,
      outputTokens: usage.outputTokens,
      costUsd: price ? costOfUsage(usage, price) : undefined,
    }
    requests.push(row)
    total.inputTokens += row.inputTokens
    total.cacheReadTokens += row.cacheReadTokens
    total.cacheWriteTokens += row.cacheWriteTokens
    total.outputTokens += row.outputTokens
    total.costUsd = row.costUsd === undefined || total.costUsd === undefined ? undefined : total.costUsd + row.costUsd
  }
  return { requests, total }
}
