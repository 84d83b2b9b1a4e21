/**
 * `configure()`: settings that hold for the whole test process — model prices for cost budgets,
 * and extra masking for snapshots. Kept with the registry on `globalThis`, so the ESM and CJS
 * copies of this package read the same settings, and no reset between tests clears them.
 * @module
 */
import { argumentError, checkOptions, describeValue, is, PREFIX } from './internal/describe.js'
import { configSlot } from './registry.js'

/** What one model costs, in US dollars per million tokens. */
export interface ModelPrice {
  inputPerMTok: number
  outputPerMTok: number
}

/** What {@link configure} accepts; every field is optional. */
export interface AgentDoublesConfig {
  /** Prices by model id, used by `toHaveUsedAtMost({ costUsd })`; merged into those already set. */
  prices?: Record<string, ModelPrice>
  /** Extra masking for snapshots and transcript comparison, run after the built-in masks. */
  normalize?: ((text: string) => string) | undefined
}

/** The settings in force. @internal */
export interface ResolvedConfig {
  prices: Readonly<Record<string, ModelPrice>>
  normalize: ((text: string) => string) | undefined
}

const EMPTY: ResolvedConfig = Object.freeze({ prices: Object.freeze({}), normalize: undefined })

/** The settings in force now. @internal */
export function currentConfig(): ResolvedConfig {
  return (configSlot().config as ResolvedConfig | undefined) ?? EMPTY
}

/**
 * Sets process-wide settings: `prices` are merged by model into those already set; `normalize`
 * replaces the one set before (`undefined` removes it). Returns a function that puts back the
 * settings as they were before this call.
 * @example
 * configure({ prices: { 'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 } } })
 * expect(proxy).toHaveUsedAtMost({ costUsd: 0.01 })
 * @throws {TypeError} on an unknown option, a price that is not `{ inputPerMTok, outputPerMTok }` of
 * non-negative numbers, or a `normalize` that is not a function.
 */
export function configure(options: AgentDoublesConfig): () => void {
  if (!is.object(options)) throw argumentError('configure', 'options', 'an object { prices?, normalize? }', options)
  checkOptions('configure', options, {
    prices: ['an object of { [model]: { inputPerMTok, outputPerMTok } }', is.object],
    normalize: ['a function (text: string) => string', is.function],
  })
  const prices = options.prices === undefined ? undefined : checkPrices(options.prices)
  const slot = configSlot()
  const before = slot.config
  const current = currentConfig()
  slot.config = Object.freeze({
    prices: Object.freeze({ ...current.prices, ...prices }),
    normalize: 'normalize' in options ? options.normalize : current.normalize,
  })
  return () => {
    slot.config = before
  }
}

function checkPrices(prices: Record<string, unknown>): Record<string, ModelPrice> {
  const checked: Record<string, ModelPrice> = {}
  for (const [model, price] of Object.entries(prices)) {
    const where = `prices[${JSON.stringify(model)}]`
    if (!is.object(price)) throw argumentError('configure', where, '{ inputPerMTok, outputPerMTok } (US dollars per million tokens)', price)
    const { inputPerMTok, outputPerMTok, ...rest } = price as Record<string, unknown>
    const extra = Object.keys(rest)[0]
    if (extra !== undefined) {
      throw new TypeError(`${PREFIX} configure: ${where} has unknown key ${JSON.stringify(extra)}; expected inputPerMTok and outputPerMTok`)
    }
    for (const [key, value] of [['inputPerMTok', inputPerMTok], ['outputPerMTok', outputPerMTok]] as const) {
      if (!is.nonNegativeNumber(value)) {
        throw new TypeError(`${PREFIX} configure: ${where}.${key} must be a non-negative number (US dollars per million tokens), got ${describeValue(value)}`)
      }
    }
    checked[model] = { inputPerMTok: inputPerMTok as number, outputPerMTok: outputPerMTok as number }
  }
  return checked
}
