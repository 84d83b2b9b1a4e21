/**
 * `configure()`: settings that hold for the whole test process — model prices for cost budgets,
 * model limits (context windows), and extra masking for snapshots. Kept with the registry on `globalThis`, so the ESM and CJS
 * copies of this package read the same settings, and no reset between tests clears them.
 * @module
 */
import { argumentError, checkOptions, describeValue, is, PREFIX } from './internal/describe.js'
import { knownModel, type ModelInfo, type ModelPrice } from './llm/models.js'
import { configSlot } from './registry.js'

export type { ModelInfo, ModelPrice } from './llm/models.js'

/** What {@link configure} accepts; every field is optional. */
export interface AgentDoublesConfig {
  /** Prices by model id, used by `toHaveUsedAtMost({ costUsd })`; merged into those already set. */
  prices?: Record<string, ModelPrice>
  /**
   * Model limits by model id (`contextWindow`, `maxOutputTokens`, `minCacheableTokens`), added
   * to or overriding the built-in table; merged into those already set.
   */
  models?: Record<string, ModelInfo>
  /** Extra masking for snapshots and transcript comparison, run after the built-in masks. */
  normalize?: ((text: string) => string) | undefined
}

/** The settings in force. @internal */
export interface ResolvedConfig {
  prices: Readonly<Record<string, ModelPrice>>
  models: Readonly<Record<string, ModelInfo>>
  normalize: ((text: string) => string) | undefined
}

const EMPTY: ResolvedConfig = Object.freeze({ prices: Object.freeze({}), models: Object.freeze({}), normalize: undefined })

/** The settings in force now. @internal */
export function currentConfig(): ResolvedConfig {
  return (configSlot().config as ResolvedConfig | undefined) ?? EMPTY
}

/**
 * The price of `model`: the one configured for exactly that id, else the built-in table's
 * (see `knownModels`), else `undefined`. @internal
 */
export function priceOf(model: string): ModelPrice | undefined {
  const prices = currentConfig().prices
  return Object.hasOwn(prices, model) ? prices[model] : knownModel(model)?.price
}

/**
 * The limits of `model`: those configured for exactly that id, else the built-in table's, else
 * `undefined` (no limit). @internal
 */
export function modelInfoOf(model: string): ModelInfo | undefined {
  const models = currentConfig().models
  return Object.hasOwn(models, model) ? models[model] : knownModel(model)
}

/**
 * Sets process-wide settings: `prices` and `models` are merged by model into those already set; `normalize`
 * replaces the one set before (`undefined` removes it). Returns a function that puts back the
 * settings as they were before this call.
 * @example
 * configure({ prices: { 'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 } } })
 * expect(proxy).toHaveUsedAtMost({ costUsd: 0.01 })
 * @throws {TypeError} on an unknown option, a price that is not `{ inputPerMTok, outputPerMTok,
 * cacheReadPerMTok?, cacheWritePerMTok?, cacheWrite1hPerMTok? }` of non-negative numbers, a model
 * entry that is not `{ contextWindow, maxOutputTokens?, minCacheableTokens? }` of positive
 * integers, or a `normalize` that is not a function.
 */
export function configure(options: AgentDoublesConfig): () => void {
  if (!is.object(options)) throw argumentError('configure', 'options', 'an object { prices?, normalize? }', options)
  checkOptions('configure', options, {
    prices: ['an object of { [model]: { inputPerMTok, outputPerMTok, cacheReadPerMTok?, cacheWritePerMTok? } }', is.object],
    models: ['an object of { [model]: { contextWindow, maxOutputTokens?, minCacheableTokens? } }', is.object],
    normalize: ['a function (text: string) => string', is.function],
  })
  const prices = options.prices === undefined ? undefined : checkPrices(options.prices)
  const models = options.models === undefined ? undefined : checkModels(options.models)
  const slot = configSlot()
  const before = slot.config
  const current = currentConfig()
  slot.config = Object.freeze({
    prices: Object.freeze({ ...current.prices, ...prices }),
    models: Object.freeze({ ...current.models, ...models }),
    normalize: 'normalize' in options ? options.normalize : current.normalize,
  })
  return () => {
    slot.config = before
  }
}

const PRICE_KEYS = ['inputPerMTok', 'outputPerMTok', 'cacheReadPerMTok', 'cacheWritePerMTok', 'cacheWrite1hPerMTok'] as const
const PRICE_SHAPE = '{ inputPerMTok, outputPerMTok, cacheReadPerMTok?, cacheWritePerMTok?, cacheWrite1hPerMTok? } (US dollars per million tokens)'

function checkPrices(prices: Record<string, unknown>): Record<string, ModelPrice> {
  const checked: Record<string, ModelPrice> = {}
  for (const [model, price] of Object.entries(prices)) {
    const where = `prices[${JSON.stringify(model)}]`
    if (!is.object(price)) throw argumentError('configure', where, PRICE_SHAPE, price)
    const fields = price as Record<string, unknown>
    const extra = Object.keys(fields).find((key) => !(PRICE_KEYS as readonly string[]).includes(key))
    if (extra !== undefined) {
      throw new TypeError(`${PREFIX} configure: ${where} has unknown key ${JSON.stringify(extra)}; expected ${PRICE_SHAPE}`)
    }
    const out: Record<string, number> = {}
    for (const key of PRICE_KEYS) {
      const value = fields[key]
      const required = key === 'inputPerMTok' || key === 'outputPerMTok'
      if (value === undefined && !required) continue
      if (!is.nonNegativeNumber(value)) {
        throw new TypeError(`${PREFIX} configure: ${where}.${key} must be a non-negative number (US dollars per million tokens), got ${describeValue(value)}`)
      }
      out[key] = value as number
    }
    checked[model] = out as unknown as ModelPrice
  }
  return checked
}

const MODEL_KEYS = ['contextWindow', 'maxOutputTokens', 'minCacheableTokens'] as const
const MODEL_SHAPE = '{ contextWindow, maxOutputTokens?, minCacheableTokens? } (tokens)'

function checkModels(models: Record<string, unknown>): Record<string, ModelInfo> {
  const checked: Record<string, ModelInfo> = {}
  for (const [model, info] of Object.entries(models)) {
    const where = `models[${JSON.stringify(model)}]`
    if (!is.object(info)) throw argumentError('configure', where, MODEL_SHAPE, info)
    const fields = info as Record<string, unknown>
    const extra = Object.keys(fields).find((key) => !(MODEL_KEYS as readonly string[]).includes(key))
    if (extra !== undefined) throw new TypeError(`${PREFIX} configure: ${where} has unknown key ${JSON.stringify(extra)}; expected ${MODEL_SHAPE}`)
    const out: Record<string, number> = {}
    for (const key of MODEL_KEYS) {
      const value = fields[key]
      if (value === undefined && key !== 'contextWindow') continue
      if (!Number.isInteger(value) || (value as number) < 1) {
        throw new TypeError(`${PREFIX} configure: ${where}.${key} must be a positive integer (tokens), got ${describeValue(value)}`)
      }
      out[key] = value as number
    }
    checked[model] = out as unknown as ModelInfo
  }
  return checked
}
