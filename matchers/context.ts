/**
 * The slice of a matcher's `this` that Vitest 4/5 and Jest 30 both provide, and recognition of
 * the values the matchers receive. Nothing here imports a test runner.
 * @module
 */
import { kindOf, type DoubleKind } from '../src/kinds.js'
import { describeValue, PREFIX } from '../src/internal/describe.js'

/**
 * The `this.utils` helpers whose signatures agree between Vitest and Jest. `printDiffOrStringify`
 * is left out on purpose: its parameters differ between the two.
 */
export interface PortableMatcherUtils {
  matcherHint(
    matcherName: string,
    received?: string,
    expected?: string,
    options?: { isNot?: boolean; promise?: string; secondArgument?: string },
  ): string
  printReceived(value: unknown): string
  printExpected(value: unknown): string
  stringify(value: unknown, maxDepth?: number): string
  /** `string | null` in Jest, `string | undefined` in Vitest. */
  diff(expected: unknown, received: unknown, options?: any): string | null | undefined
}

/** The portable part of a matcher's `this` (Vitest's and Jest's `MatcherState`). */
export interface PortableMatcherContext {
  isNot: boolean
  promise: string
  equals(a: unknown, b: unknown, customTesters?: any[], strictCheck?: boolean): boolean
  customTesters?: any[]
  utils: PortableMatcherUtils
}

/** What every matcher returns: never inverted for `.not`; the runner does that. */
export interface MatcherOutcome {
  pass: boolean
  message: () => string
}

/** The brand `Envelope` carries, shared by the ESM and CJS copies. */
const ENVELOPE = Symbol.for('agent-doubles.envelope')

/** Whether `value` is an `Envelope` made by either copy of this package. */
export function isEnvelope(value: unknown): value is EnvelopeLike {
  return typeof value === 'object' && value !== null && Boolean((value as Record<symbol, unknown>)[ENVELOPE])
}

/** The fields of an `Envelope` the matchers read. */
export interface EnvelopeLike {
  task: string
  payload: unknown
  error: { type: string; message: string; retryable: boolean } | undefined
  ok: boolean
  text(): string
  metadata: { totals(): { inputTokens: number; outputTokens: number; costUsd: number } }
}

/** A readable name for a received value: the double's kind, `an Envelope`, or a short rendering. */
export function describeReceived(value: unknown): string {
  const kind = kindOf(value)
  if (kind) {
    const name = (value as { name?: unknown }).name
    return typeof name === 'string' && kind === 'MockAgent' ? `a MockAgent ("${name}")` : `a ${kind}`
  }
  if (isEnvelope(value)) return 'an Envelope'
  return describeValue(value)
}

/**
 * The `TypeError` a matcher throws when it cannot read the received value, e.g.
 * `[agent-doubles] toHaveText: expect(received) must be an Envelope, got a MockAgent ("researcher")`.
 */
export function unsupportedReceived(matcherName: string, supported: string, received: unknown): TypeError {
  return new TypeError(
    `${PREFIX} ${matcherName}: expect(received) must be ${supported}, got ${describeReceived(received)}`,
  )
}

/** The kind of `received` when it is one of `accepted`; otherwise throws {@link unsupportedReceived}. */
export function requireKind<K extends DoubleKind>(matcherName: string, received: unknown, accepted: readonly K[]): K {
  const kind = kindOf(received)
  if (kind && (accepted as readonly DoubleKind[]).includes(kind)) return kind as K
  throw unsupportedReceived(matcherName, listKinds(accepted), received)
}

/** `'a MockAgent, a ScriptedLLM or a FakeProxy'`. */
export function listKinds(kinds: readonly string[]): string {
  const named = kinds.map((kind) => `a ${kind}`)
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} or ${named.at(-1)}` : named[0]
}

/** Whether `value` is an asymmetric matcher (`expect.any(…)`, `expect.stringContaining(…)`, …). */
export function isAsymmetric(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  )
}
