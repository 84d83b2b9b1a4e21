/**
 * Provider errors as tests declare them (SPEC §10.2): the names, their options, and
 * `providerError()`, a reply that makes a FakeProxy answer with the error the real provider
 * sends. How each one looks on each wire is the proxy's business (each dialect's `src/wire/<dialect>/errors.ts`).
 *
 * Lives at the root of `src` because `src/llm` (a script reply) and the server both use it.
 * @module
 */
import { PREFIX, checkOptions, describeValue, is } from './internal/describe.js'

/**
 * Every provider error a FakeProxy can answer with.
 * @example
 * test.each(providerErrorNames)('the agent survives %s', async (name) => { proxy.providerError(name) })
 */
export const providerErrorNames = Object.freeze([
  'rate_limit',
  'insufficient_quota',
  'invalid_api_key',
  'permission_denied',
  'model_not_found',
  'context_length_exceeded',
  'content_filter',
  'overloaded',
  'server_error',
  'timeout',
] as const)

/**
 * The name of a provider error, such as `'rate_limit'`.
 * @example
 * const name: ProviderErrorName = 'overloaded'
 */
export type ProviderErrorName = (typeof providerErrorNames)[number]

/**
 * What a provider error says beyond its name.
 * @example
 * providerError('rate_limit', { retryAfterS: 2, message: 'slow down' })
 */
export interface ProviderErrorOptions {
  /** The error's message. @default the provider's own wording */
  message?: string
  /**
   * Seconds the provider asks the client to wait (`retry-after`, `retry-after-ms`) on errors
   * the SDKs retry. @default a millisecond, so SDK retries do not slow tests down
   */
  retryAfterS?: number
}

/**
 * Options of `proxy.providerError()`.
 * @example
 * proxy.providerError('server_error', { times: 3 })
 */
export interface ProviderErrorPlanOptions extends ProviderErrorOptions {
  /** How many of the next model requests get the error. @default 1 */
  times?: number
}

/** The brand every `ProviderError` carries, shared by the ESM and CJS copies. */
const BRAND = Symbol.for('agent-doubles.provider-error')

/**
 * Whether `value` names a provider error.
 * @example
 * isProviderErrorName('rate_limit') // true
 */
export function isProviderErrorName(value: unknown): value is ProviderErrorName {
  return typeof value === 'string' && (providerErrorNames as readonly string[]).includes(value)
}

/**
 * Checks a provider error's name and options for `owner` (e.g. `FakeProxy providerError()`);
 * `withTimes` accepts the `times` option too.
 * @throws {TypeError} the name is unknown (the message lists the valid ones) or an option is bad.
 * @internal
 */
export function checkProviderError(owner: string, name: unknown, options: unknown, withTimes: boolean): void {
  if (!isProviderErrorName(name)) {
    throw new TypeError(`${PREFIX} ${owner}: unknown provider error ${describeValue(name)}; valid names: ${providerErrorNames.join(', ')}`)
  }
  checkOptions(owner, options, {
    message: ['a string', is.string],
    retryAfterS: ['a non-negative number of seconds', is.nonNegativeNumber],
    ...(withTimes ? { times: ['an integer of at least 1', is.positiveInteger] as [string, (value: unknown) => boolean] } : {}),
  })
}

/**
 * A provider error as a value: what a script reply gives to make the FakeProxy answer with
 * the real provider's error for `name`, on whichever wire the request came. Made by
 * {@link providerError}.
 * @example
 * const error = new ProviderError('overloaded') // error.errorName === 'overloaded'
 * @throws {TypeError} `name` is unknown or an option is bad.
 */
export class ProviderError extends Error {
  /** Which provider error, such as `'rate_limit'`. */
  readonly errorName: ProviderErrorName
  /** Seconds the answer asks the client to wait, when given. */
  readonly retryAfterS: number | undefined
  /** Whether the message was given (else each wire uses its provider's wording). */
  readonly customMessage: boolean

  constructor(name: ProviderErrorName, options: ProviderErrorOptions = {}) {
    checkProviderError('ProviderError', name, options, false)
    super(options.message ?? `provider error ${name}`)
    this.name = 'ProviderError'
    this.errorName = name
    this.retryAfterS = options.retryAfterS
    this.customMessage = options.message !== undefined
    Object.defineProperty(this, BRAND, { value: true })
  }
}

/**
 * Whether `value` is a `ProviderError` from any copy of this package.
 * @example
 * isProviderError(providerError('timeout')) // true
 */
export function isProviderError(value: unknown): value is ProviderError {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true
}

/**
 * A reply that makes the FakeProxy answer with provider error `name` — status, body and retry
 * headers as the real provider sends them on the request's wire. Usable wherever a script
 * takes a reply.
 * @example
 * const llm = new ScriptedLLM([providerError('rate_limit'), 'ok']) // the SDK retries, then gets 'ok'
 * @throws {TypeError} `name` is unknown (the message lists the valid ones) or an option is bad.
 */
export function providerError(name: ProviderErrorName, options?: ProviderErrorOptions): ProviderError {
  checkProviderError('providerError()', name, options, false)
  return new ProviderError(name, options)
}
