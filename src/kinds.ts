/**
 * A brand that tells the doubles apart across the ESM and CJS copies of this package, where
 * `instanceof` would fail.
 * @module
 */

/** The brand key every double carries. @internal */
export const KIND = Symbol.for('agent-doubles.kind')

/** The doubles. */
export type DoubleKind = 'MockAgent' | 'ScriptedLLM' | 'FakeProxy' | 'FakeMcpServer'

/** Which double `value` is, or `undefined` when it is none of them. @internal */
export function kindOf(value: unknown): DoubleKind | undefined {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined
  return (value as { [KIND]?: DoubleKind })[KIND]
}
