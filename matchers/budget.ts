/**
 * `toHaveUsedAtMost`: request, token and cost budgets over what a double recorded, reported per
 * model.
 * @module
 */
import { priceOf } from '../src/config.js'
import { costOfUsage } from '../src/llm/cost.js'
import { argumentError, checkOptions, is, PREFIX } from '../src/internal/describe.js'
import { requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { hint, plural, sections } from './format.js'
import { inline } from './inline.js'
import { modelRequests, modelResponses, proxyRecords } from './records.js'

const NAME = 'toHaveUsedAtMost'
const LIMITS = ['requests', 'inputTokens', 'outputTokens', 'totalTokens', 'costUsd'] as const

/** The bounds `toHaveUsedAtMost` checks; each one given must hold. */
export interface UsageLimits {
  requests?: number
  inputTokens?: number
  outputTokens?: number
  totalTokens?: number
  costUsd?: number
}

type Limit = (typeof LIMITS)[number]

/** What one model (or, for a MockAgent, one `metadata.model`) used. */
interface ModelUsage {
  model: string
  requests: number
  inputTokens: number
  outputTokens: number
  /** Known for a MockAgent (its envelopes' cost) or a priced model. */
  costUsd: number | undefined
}

type Totals = Record<Limit, number | undefined>

/** The fields of a MockAgent's calls this matcher reads. */
interface AgentCalls {
  calls: ReadonlyArray<{ output?: { metadata: { model?: string; totals(): { inputTokens: number; outputTokens: number; costUsd: number } } } }>
}

/**
 * Passes when what the double used stays within every bound given: `requests` (calls, for a
 * MockAgent), `inputTokens`, `outputTokens`, `totalTokens`, `costUsd`. A model double's tokens
 * are its replies' usage and its cost comes from `configure({ prices })` or the built-in prices of
 * current models, cache reads and writes at their own prices; a MockAgent's are its envelopes'
 * totals (nested included).
 * @example
 * expect(proxy).toHaveUsedAtMost({ requests: 4, totalTokens: 2_000, costUsd: 0.01 })
 * @throws {TypeError} when a bound is unknown or not a non-negative number, or none is given.
 * @throws {Error} when `costUsd` is bounded and a model used has no price.
 */
export function toHaveUsedAtMost(this: PortableMatcherContext, received: unknown, limits: unknown): MatcherOutcome {
  checkLimits(limits)
  const bounds = limits as UsageLimits
  const kind = requireKind(NAME, received, ['FakeProxy', 'ScriptedLLM', 'MockAgent'])
  const rows = kind === 'MockAgent' ? agentUsage(received as AgentCalls) : modelUsage(kind, received)
  if (bounds.costUsd !== undefined) requirePrices(rows)
  const total = sum(rows)
  const over = LIMITS.filter((limit) => bounds[limit] !== undefined && exceeds(total[limit] ?? 0, bounds[limit] as number))
  return {
    pass: over.length === 0,
    message: () =>
      sections(
        hint(this, NAME, 'limits'),
        `Expected: ${this.isNot ? 'usage over at least one of' : 'usage within'} ${inline(bounds)}`,
        over.length
          ? `Over budget:\n${over.map((limit) => `  ${limit}: ${show(limit, total[limit] ?? 0)} (limit ${show(limit, bounds[limit] as number)}, over by ${show(limit, (total[limit] ?? 0) - (bounds[limit] as number))})`).join('\n')}`
          : 'Within every limit.',
        `Usage per model:\n${rows.length ? rows.map((row) => `  ${row.model}: ${describeRow(row)}`).join('\n') : '  (none)'}`,
        `Total: ${describeRow({ model: '', ...total } as ModelUsage)}`,
      ),
  }
}

function checkLimits(limits: unknown): void {
  const expected = `{ ${LIMITS.map((limit) => `${limit}?`).join(', ')} } with at least one bound`
  if (!is.object(limits)) throw argumentError(NAME, 'limits', expected, limits)
  const checks = Object.fromEntries(LIMITS.map((limit) => [limit, ['a non-negative number', is.nonNegativeNumber]])) as Parameters<typeof checkOptions>[2]
  checkOptions(NAME, limits, checks)
  if (!LIMITS.some((limit) => (limits as UsageLimits)[limit] !== undefined)) throw argumentError(NAME, 'limits', expected, limits)
}

function modelUsage(kind: 'FakeProxy' | 'ScriptedLLM', double: unknown): ModelUsage[] {
  const requests = modelRequests(kind, double)
  const responses = modelResponses(kind, double)
  const models = kind === 'FakeProxy' ? proxyRecords(double).map((r) => r.model) : []
  const byModel = new Map<string, ModelUsage>()
  requests.forEach((request, i) => {
    // Priced by the model the client asked for: the name the test knows and configures.
    const model = models[i] || request.model || responses[i]?.model || '(unknown model)'
    const price = priceOf(model)
    const row = byModel.get(model) ?? { model, requests: 0, inputTokens: 0, outputTokens: 0, costUsd: price ? 0 : undefined }
    const usage = responses[i]?.usage
    row.requests++
    row.inputTokens += usage?.inputTokens ?? 0
    row.outputTokens += usage?.outputTokens ?? 0
    // Each call priced on its own: cache reads and writes at their prices (SPEC §20).
    if (price && usage && row.costUsd !== undefined) row.costUsd += costOfUsage(usage, price)
    byModel.set(model, row)
  })
  return [...byModel.values()]
}

function agentUsage(agent: AgentCalls): ModelUsage[] {
  const byModel = new Map<string, ModelUsage>()
  for (const call of agent.calls) {
    const model = call.output?.metadata.model ?? '(no envelope)'
    const row = byModel.get(model) ?? { model, requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }
    const totals = call.output?.metadata.totals()
    row.requests++
    row.inputTokens += totals?.inputTokens ?? 0
    row.outputTokens += totals?.outputTokens ?? 0
    row.costUsd = (row.costUsd ?? 0) + (totals?.costUsd ?? 0)
    byModel.set(model, row)
  }
  return [...byModel.values()]
}

/** A cost bound cannot be judged without a price for every model used: say which are missing. */
function requirePrices(rows: ModelUsage[]): void {
  const missing = rows.filter((row) => row.costUsd === undefined).map((row) => JSON.stringify(row.model))
  if (missing.length === 0) return
  throw new Error(
    `${PREFIX} ${NAME}: no price for model ${missing.join(', ')}, so costUsd cannot be checked; ` +
      `set one with configure({ prices: { ${missing[0]}: { inputPerMTok, outputPerMTok } } })`,
  )
}

function sum(rows: ModelUsage[]): Totals {
  const total: Totals = { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 }
  for (const row of rows) {
    total.requests! += row.requests
    total.inputTokens! += row.inputTokens
    total.outputTokens! += row.outputTokens
    total.costUsd = row.costUsd === undefined || total.costUsd === undefined ? undefined : total.costUsd + row.costUsd
  }
  total.totalTokens = total.inputTokens! + total.outputTokens!
  return total
}

/** Costs are sums of products of decimals: a rounding crumb must not fail a bound met exactly. */
function exceeds(value: number, limit: number): boolean {
  return value - limit > 1e-12
}

function show(limit: Limit, value: number): string {
  return limit === 'costUsd' ? usd(value) : String(value)
}

function usd(value: number): string {
  return `$${Number(value.toFixed(6))}`
}

function describeRow(row: ModelUsage): string {
  const cost = row.costUsd === undefined ? 'no price' : usd(row.costUsd)
  return `${plural(row.requests, 'request')}, ${row.inputTokens} input + ${row.outputTokens} output = ${row.inputTokens + row.outputTokens} tokens, ${cost}`
}
