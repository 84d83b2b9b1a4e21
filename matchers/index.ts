/**
 * `agent-doubles/matchers`: the matcher implementations as a plain object for `expect.extend`,
 * and `installMatchers(expect)`. Imports no test runner, so it works with Vitest 4/5 and Jest 30.
 * @module
 */
import { toHaveBeenCalledWithTask, toHaveBeenLastCalledWithTask, toHaveBeenNthCalledWithTask } from './calls.js'
import { toHaveRegisteredDefinition } from './definitions.js'
import { toBeErrorEnvelope, toHaveText, toHaveUsage } from './envelope.js'
import { toHaveRefusedWith } from './refusals.js'
import { toHaveReceivedRequest, toHaveReceivedRequests } from './requests.js'
import { toHaveConsumedAllTurns, toHaveReceivedToolResult, toHaveRequestedTool } from './tools.js'
import { toHaveCalledToolsInOrder } from './tool-order.js'
import { toHaveUsedAtMost } from './budget.js'
import { toHaveHitPromptCache } from './prompt-cache.js'
import { snapshotSerializers } from './snapshot.js'
import { toHaveSentValidRequests } from './validity.js'
import { toHaveCalledMcpTool, toHaveCalledMcpToolTimes } from './mcp.js'
import { argumentError } from '../src/internal/describe.js'

export type { AgentDoublesMatchers } from './types.js'
export type { RefusedWithOptions } from './refusals.js'
export type { MatcherOutcome, PortableMatcherContext } from './context.js'
export type { ToolOrderMode, ToolOrderOptions } from './tool-order.js'
export type { UsageLimits } from './budget.js'
export type { PromptCacheHitOptions } from './prompt-cache.js'
export { snapshotSerializers, type SnapshotSerializer } from './snapshot.js'

/**
 * Every matcher of SPEC §6, keyed by name, ready for `expect.extend`.
 * @example
 * import { matchers } from 'agent-doubles/matchers'
 * expect.extend(matchers)
 */
export const matchers = Object.freeze({
  toHaveBeenCalledWithTask,
  toHaveBeenLastCalledWithTask,
  toHaveBeenNthCalledWithTask,
  toHaveRefusedWith,
  toHaveReceivedRequest,
  toHaveReceivedRequests,
  toHaveRegisteredDefinition,
  toHaveRequestedTool,
  toHaveReceivedToolResult,
  toHaveConsumedAllTurns,
  toHaveText,
  toBeErrorEnvelope,
  toHaveUsage,
  toHaveCalledToolsInOrder,
  toHaveUsedAtMost,
  toHaveHitPromptCache,
  toHaveSentValidRequests,
  toHaveCalledMcpTool,
  toHaveCalledMcpToolTimes,
})

/** Anything with an `extend` method: Vitest's `expect`, Jest's `expect`, `@jest/globals`' `expect`. */
export interface ExtensibleExpect {
  extend(matchers: any): void
  /** Present on Vitest's and Jest's `expect`; `installMatchers` registers {@link snapshotSerializers} with it. */
  addSnapshotSerializer?(serializer: any): void
}

/** The expects the serializers were added to: each addition would stack another copy. */
const withSerializers = new WeakSet<object>()

/**
 * Registers the matchers on `expect` (Vitest's or Jest's), and the {@link snapshotSerializers}
 * when it has `addSnapshotSerializer`. The `agent-doubles/vitest` and setup entries call it for you.
 * @example
 * import { expect } from 'vitest'
 * installMatchers(expect)
 * @throws {TypeError} when `expect` has no `extend` method.
 */
export function installMatchers(expect: ExtensibleExpect): void {
  if (typeof (expect as Partial<ExtensibleExpect> | undefined)?.extend !== 'function') {
    throw argumentError('installMatchers', 'expect', "a test runner's expect (with an extend method)", expect)
  }
  expect.extend({ ...matchers })
  if (typeof expect.addSnapshotSerializer === 'function' && !withSerializers.has(expect)) {
    withSerializers.add(expect)
    for (const serializer of snapshotSerializers) expect.addSnapshotSerializer(serializer)
  }
}
