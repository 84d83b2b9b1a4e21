/**
 * The matcher signatures, declared once and merged into each runner's `Matchers` interface by
 * the `agent-doubles/vitest` and `agent-doubles/jest` entries.
 * @module
 */
import type { RefusalCode } from '../src/gateway/refusal-codes.js'

/** An asymmetric matcher such as `expect.stringContaining('weather')`, as both runners type it. */
export interface AsymmetricLike {
  asymmetricMatch(other: unknown): boolean
}

/** A string, or an asymmetric matcher standing for one. */
export type StringOrMatcher = string | AsymmetricLike

/**
 * The matchers of SPEC §6. `R` is what a matcher returns (`void`, or `Promise<void>` under
 * `.resolves`/`.rejects` where the runner's types say so). Expected values may be asymmetric
 * matchers (`expect.stringContaining(…)`), hence the loose parameter types.
 */
export interface AgentDoublesMatchers<R = void> {
  /** Some call's task equals `task` (MockAgent, ScriptedLLM, FakeProxy). */
  toHaveBeenCalledWithTask(task: StringOrMatcher): R
  /** The last call's task equals `task`. */
  toHaveBeenLastCalledWithTask(task: StringOrMatcher): R
  /** The n-th (1-based) call's task equals `task`. */
  toHaveBeenNthCalledWithTask(n: number, task: StringOrMatcher): R
  /** The FakeProxy refused with `code` (exactly `times`, for `agent`), or the error carries the proxy's mark with `code`. */
  toHaveRefusedWith(code: RefusalCode | AsymmetricLike, options?: { times?: number; agent?: string }): R
  /** Some recorded request matches `partial` (object subset). */
  toHaveReceivedRequest(partial: object): R
  /** Exactly `n` requests were recorded. */
  toHaveReceivedRequests(n: number): R
  /** `agent` has a registered definition (matching `partial`). */
  toHaveRegisteredDefinition(agent: string, partial?: object): R
  /** Some reply asked for tool `name` (with `args` as a subset). */
  toHaveRequestedTool(name: StringOrMatcher, args?: unknown): R
  /** Some request carried the result of tool `name` back to the model. */
  toHaveReceivedToolResult(name: StringOrMatcher, result?: unknown): R
  /** Every scripted turn of a ScriptedLLM was used. */
  toHaveConsumedAllTurns(): R
  /** The Envelope's `text()` equals `text`. */
  toHaveText(text: StringOrMatcher): R
  /** The Envelope carries an ErrorInfo (matching `partial`). */
  toBeErrorEnvelope(partial?: object): R
  /** The Envelope's `metadata.totals()` matches `partial`. */
  toHaveUsage(partial: { inputTokens?: unknown; outputTokens?: unknown; costUsd?: unknown }): R
  /** The tool calls the model answered with match `calls` in order (`mode`: exact, subsequence (default), unordered, superset). */
  toHaveCalledToolsInOrder(calls: ReadonlyArray<ExpectedToolCall>, options?: { mode?: 'exact' | 'subsequence' | 'unordered' | 'superset' }): R
  /** What the double used stays within every bound given (FakeProxy, ScriptedLLM, MockAgent); cost from `configure({ prices })`. */
  toHaveUsedAtMost(limits: { requests?: number; inputTokens?: number; outputTokens?: number; totalTokens?: number; costUsd?: number }): R
  /** No request the FakeProxy (or lane) recorded was rejected by its request validation. */
  toHaveSentValidRequests(): R
  /** The FakeMcpServer received a `tools/call` of `name` (with `args` as a subset). */
  toHaveCalledMcpTool(name: StringOrMatcher, args?: unknown): R
  /** The FakeMcpServer received exactly `n` `tools/call`s of `name`. */
  toHaveCalledMcpToolTimes(name: StringOrMatcher, n: number): R
}

/** One expected tool call: a name, or `{ name, args? }` with `args` an object subset. */
export type ExpectedToolCall = StringOrMatcher | { name: StringOrMatcher; args?: unknown }
