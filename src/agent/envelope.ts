/**
 * `Envelope` and `Metadata`: what an agent returns — the payload plus what it cost — and how
 * nested costs roll up through a tool boundary.
 * @module
 */

import { PREFIX, argumentError, checkOptions, describeValue, is } from '../internal/describe.js'
import { ErrorInfo, type ErrorInfoInit } from './error-info.js'

/** Brand that recognises an `Envelope` from either the ESM or the CJS copy of this package. */
const ENVELOPE = Symbol.for('agent-doubles.envelope')
/** Brand that recognises a `Metadata` from either module copy. */
const METADATA = Symbol.for('agent-doubles.metadata')

/** Token and cost amounts, direct plus nested, as {@link Metadata.totals} returns them. */
export interface Totals {
  inputTokens: number
  outputTokens: number
  costUsd: number
}

/** What {@link Metadata} is built from; every field is optional. */
export interface MetadataInit {
  /** @default 0 */
  inputTokens?: number
  /** @default 0 */
  outputTokens?: number
  /** @default 0 */
  costUsd?: number
  /** @default 0 */
  latencyMs?: number
  /** @default undefined */
  model?: string
  /** @default undefined */
  provider?: string
  /** @default 0 */
  nestedInputTokens?: number
  /** @default 0 */
  nestedOutputTokens?: number
  /** @default 0 */
  nestedCostUsd?: number
}

const amount: [string, (value: unknown) => boolean] = ['a non-negative number', is.nonNegativeNumber]
const metadataChecks = {
  inputTokens: amount,
  outputTokens: amount,
  costUsd: amount,
  latencyMs: amount,
  model: ['a string', is.string] as [string, (value: unknown) => boolean],
  provider: ['a string', is.string] as [string, (value: unknown) => boolean],
  nestedInputTokens: amount,
  nestedOutputTokens: amount,
  nestedCostUsd: amount,
}

/**
 * What one agent run cost. Direct amounts are the agent's own; `nested*` amounts are what the
 * agents it called (as tools or plan steps) cost, so a pipeline's total is direct + nested.
 * @example
 * new Metadata({ inputTokens: 50, nestedInputTokens: 10 }).totals().inputTokens // 60
 * @throws {TypeError} on an unknown field or an amount that is not a non-negative number.
 */
export class Metadata {
  readonly inputTokens: number
  readonly outputTokens: number
  readonly costUsd: number
  readonly latencyMs: number
  readonly model: string | undefined
  readonly provider: string | undefined
  readonly nestedInputTokens: number
  readonly nestedOutputTokens: number
  readonly nestedCostUsd: number

  constructor(init: MetadataInit = {}) {
    checkOptions('Metadata', init, metadataChecks)
    this.inputTokens = init.inputTokens ?? 0
    this.outputTokens = init.outputTokens ?? 0
    this.costUsd = init.costUsd ?? 0
    this.latencyMs = init.latencyMs ?? 0
    this.model = init.model
    this.provider = init.provider
    this.nestedInputTokens = init.nestedInputTokens ?? 0
    this.nestedOutputTokens = init.nestedOutputTokens ?? 0
    this.nestedCostUsd = init.nestedCostUsd ?? 0
  }

  /**
   * Direct plus nested amounts.
   * @example
   * env.metadata.totals() // { inputTokens: 60, outputTokens: 20, costUsd: 0 }
   */
  totals(): Totals {
    return {
      inputTokens: this.inputTokens + this.nestedInputTokens,
      outputTokens: this.outputTokens + this.nestedOutputTokens,
      costUsd: this.costUsd + this.nestedCostUsd,
    }
  }

  /** Recognises metadata made by either module copy of this package. */
  static [Symbol.hasInstance](value: unknown): boolean {
    if (this !== Metadata) return Function.prototype[Symbol.hasInstance].call(this, value)
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[METADATA] === true
  }
}

Object.defineProperty(Metadata.prototype, METADATA, { value: true })

/** What {@link Envelope} is built from; every field is optional. */
export interface EnvelopeInit<T = unknown> {
  task?: string
  context?: string
  payload?: T
  /** A `Metadata` or the fields to build one from. */
  metadata?: Metadata | MetadataInit
  /** An `ErrorInfo` or the fields to build one from. */
  error?: ErrorInfo | ErrorInfoInit
}

const envelopeChecks = {
  task: ['a string', is.string] as [string, (value: unknown) => boolean],
  context: ['a string', is.string] as [string, (value: unknown) => boolean],
  payload: ['anything', () => true] as [string, (value: unknown) => boolean],
  metadata: ['a Metadata or an object', is.object] as [string, (value: unknown) => boolean],
  error: ['an ErrorInfo or { type, message }', is.object] as [string, (value: unknown) => boolean],
}

/**
 * What an agent takes and returns: the task, optional context, the payload, what the run
 * cost, and an error when it failed.
 * @example
 * const env = new Envelope({ task: 'weather today', payload: 'sunny' })
 * env.text() // 'sunny'
 * @throws {TypeError} on an unknown field or a field of the wrong type.
 */
export class Envelope<T = unknown> {
  /** The task the agent was given. */
  readonly task: string | undefined
  /** Extra context passed along with the task. */
  readonly context: string | undefined
  /** The agent's result; `undefined` when it failed. */
  readonly payload: T | undefined
  /** What the run cost. */
  readonly metadata: Metadata
  /** Why the run failed, or `undefined` when it succeeded. */
  readonly error: ErrorInfo | undefined

  constructor(init: EnvelopeInit<T> = {}) {
    checkOptions('Envelope', init, envelopeChecks)
    this.task = init.task
    this.context = init.context
    this.payload = init.payload
    this.metadata = init.metadata instanceof Metadata ? init.metadata : new Metadata(init.metadata)
    this.error = init.error === undefined || init.error instanceof ErrorInfo ? init.error : new ErrorInfo(init.error)
  }

  /** `true` when the run succeeded (no `error`). */
  get ok(): boolean {
    return this.error === undefined
  }

  /**
   * The payload as text: a string as-is, `''` when there is none, otherwise JSON.
   * @example
   * new Envelope({ payload: { a: 1 } }).text() // '{"a":1}'
   * @throws {TypeError} when the payload cannot be written as JSON (a cycle, a BigInt).
   */
  text(): string {
    const payload: unknown = this.payload
    if (payload === undefined || payload === null) return ''
    if (typeof payload === 'string') return payload
    let json: string | undefined
    try {
      json = JSON.stringify(payload)
    } catch (cause) {
      throw new TypeError(`${PREFIX} Envelope.text(): the payload cannot be written as JSON (${describeValue(payload)})`, {
        cause,
      })
    }
    // JSON.stringify gives undefined for a function or a symbol; String() still says what it is.
    return json ?? String(payload)
  }

  /**
   * The envelope a task string becomes: `task` and `payload` are the task.
   * @example
   * Envelope.fromTask('weather today', 'in Paris')
   * @throws {TypeError} when `task` or `context` is not a string.
   */
  static fromTask(task: string, context?: string): Envelope<string> {
    if (typeof task !== 'string') throw argumentError('Envelope.fromTask', 'task', 'a string', task)
    if (context !== undefined && typeof context !== 'string') {
      throw argumentError('Envelope.fromTask', 'context', 'a string or undefined', context)
    }
    return new Envelope<string>({ task, context, payload: task })
  }

  /**
   * An error envelope for a failure: an `Error` (its `type` is the error's name or class), an
   * `ErrorInfo`, a string message, or any other thrown value. Metadata is all zeros.
   * @param retryable - overrides the `retryable` flag; `false` when neither is given.
   * @example
   * Envelope.fromError(new TypeError('bad input')).error // { type: 'TypeError', message: 'bad input', retryable: false }
   */
  static fromError(err: unknown, retryable?: boolean): Envelope<never> {
    if (retryable !== undefined && typeof retryable !== 'boolean') {
      throw argumentError('Envelope.fromError', 'retryable', 'a boolean', retryable)
    }
    return new Envelope<never>({ error: toErrorInfo(err, retryable) })
  }

  /**
   * `parent` with each child's totals (direct + nested) added to its `nested*` amounts, as a
   * tool boundary does when an agent calls other agents.
   * @example
   * Envelope.rollUp(orchestratorEnv, [researcherEnv, writerEnv]).metadata.totals()
   * @throws {TypeError} when `parent` or a child is not an Envelope.
   */
  static rollUp<P>(parent: Envelope<P>, children: Iterable<Envelope>): Envelope<P> {
    if (!(parent instanceof Envelope)) throw argumentError('Envelope.rollUp', 'parent', 'an Envelope', parent)
    if (children === null || typeof (children as Iterable<unknown>)?.[Symbol.iterator] !== 'function') {
      throw argumentError('Envelope.rollUp', 'children', 'an iterable of Envelopes', children)
    }
    const m = parent.metadata
    let nestedInputTokens = m.nestedInputTokens
    let nestedOutputTokens = m.nestedOutputTokens
    let nestedCostUsd = m.nestedCostUsd
    let index = 0
    for (const child of children) {
      if (!(child instanceof Envelope)) throw argumentError('Envelope.rollUp', `children[${index}]`, 'an Envelope', child)
      const totals = child.metadata.totals()
      nestedInputTokens += totals.inputTokens
      nestedOutputTokens += totals.outputTokens
      nestedCostUsd += totals.costUsd
      index++
    }
    return new Envelope<P>({
      ...envelopeFields(parent),
      metadata: new Metadata({ ...metadataFields(m), nestedInputTokens, nestedOutputTokens, nestedCostUsd }),
    })
  }

  /** Recognises envelopes made by either module copy of this package. */
  static [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep the ordinary prototype check; only Envelope itself trusts the brand.
    if (this !== Envelope) return Function.prototype[Symbol.hasInstance].call(this, value)
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ENVELOPE] === true
  }
}

Object.defineProperty(Envelope.prototype, ENVELOPE, { value: true })

type Writable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * A constructor sharing `Envelope.prototype`, for envelopes whose fields this package built and
 * checked itself: the hot path of a MockAgent call skips `new Envelope`'s option checks. Built
 * with `new` (not `Object.create`), an object keeps all its fields in-object, where
 * `Object.create` puts those past the fourth in a separate, growing store.
 */
const TrustedEnvelope = function (
  this: Writable<Envelope>,
  task: string | undefined,
  context: string | undefined,
  payload: unknown,
  metadata: Metadata,
  error: ErrorInfo | undefined,
) {
  // Fields in the order the constructor defines them.
  this.task = task
  this.context = context
  this.payload = payload
  this.metadata = metadata
  this.error = error
} as unknown as new (task: string | undefined, context: string | undefined, payload: unknown, metadata: Metadata, error: ErrorInfo | undefined) => Envelope
TrustedEnvelope.prototype = Envelope.prototype

/** {@link TrustedEnvelope}'s counterpart for `Metadata` (no nested amounts). */
const TrustedMetadata = function (
  this: Writable<Metadata>,
  inputTokens: number,
  outputTokens: number,
  costUsd: number,
  latencyMs: number,
  model: string | undefined,
  provider: string | undefined,
) {
  this.inputTokens = inputTokens
  this.outputTokens = outputTokens
  this.costUsd = costUsd
  this.latencyMs = latencyMs
  this.model = model
  this.provider = provider
  this.nestedInputTokens = 0
  this.nestedOutputTokens = 0
  this.nestedCostUsd = 0
} as unknown as new (inputTokens: number, outputTokens: number, costUsd: number, latencyMs: number, model: string | undefined, provider: string | undefined) => Metadata
TrustedMetadata.prototype = Metadata.prototype

/**
 * An envelope from fields this package built and checked itself: the hot path of a MockAgent
 * call skips `new Envelope`'s option checks. @internal
 */
export function trustedEnvelope<T>(
  task: string | undefined,
  context: string | undefined,
  payload: T | undefined,
  metadata: Metadata,
  error: ErrorInfo | undefined,
): Envelope<T> {
  return new TrustedEnvelope(task, context, payload, metadata, error) as Envelope<T>
}

/** Metadata from amounts this package checked itself (no nested amounts). @internal */
export function trustedMetadata(
  inputTokens: number,
  outputTokens: number,
  costUsd: number,
  latencyMs: number,
  model: string | undefined,
  provider: string | undefined,
): Metadata {
  return new TrustedMetadata(inputTokens, outputTokens, costUsd, latencyMs, model, provider)
}

/** Zero amounts, no model or provider, frozen: the metadata of every task string's envelope in a MockAgent call. @internal */
export const ZERO_METADATA: Metadata = Object.freeze(trustedMetadata(0, 0, 0, 0, undefined, undefined))

/** The fields of an envelope, to copy it with some replaced. @internal */
export function envelopeFields<T>(env: Envelope<T>): EnvelopeInit<T> {
  return { task: env.task, context: env.context, payload: env.payload, metadata: env.metadata, error: env.error }
}

/** The fields of a metadata, to copy it with some replaced. @internal */
export function metadataFields(m: Metadata): MetadataInit {
  return {
    inputTokens: m.inputTokens,
    outputTokens: m.outputTokens,
    costUsd: m.costUsd,
    latencyMs: m.latencyMs,
    model: m.model,
    provider: m.provider,
    nestedInputTokens: m.nestedInputTokens,
    nestedOutputTokens: m.nestedOutputTokens,
    nestedCostUsd: m.nestedCostUsd,
  }
}

/** True for an `Error` from any realm (Jest runs tests in a separate VM context). @internal */
export function isError(value: unknown): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]'
}

function toErrorInfo(err: unknown, retryable: boolean | undefined): ErrorInfo {
  if (err instanceof ErrorInfo) {
    return retryable === undefined ? err : new ErrorInfo({ type: err.type, message: err.message, retryable })
  }
  if (isError(err)) {
    // A subclass that never set `name` still says 'Error'; its class name is more useful.
    const type = err.name && err.name !== 'Error' ? err.name : (err.constructor?.name ?? 'Error')
    return new ErrorInfo({ type, message: String(err.message), retryable: retryable ?? false })
  }
  const message = typeof err === 'string' ? err : describeValue(err)
  return new ErrorInfo({ type: 'Error', message, retryable: retryable ?? false })
}
