/**
 * The spy state a MockAgent keeps so the runners' own spy matchers (`toHaveBeenCalledWith`,
 * `toHaveReturned`, …) accept it, in the shape Vitest 4/5 and Jest 30 read.
 * @module
 */

/** One entry of `mock.results`; an invocation returns its promise, as `vi.fn`/`jest.fn` record async functions. */
export interface MockResult {
  type: 'return' | 'throw' | 'incomplete'
  value: unknown
}

/** One entry of `mock.settledResults`: how the returned promise settled. */
export interface MockSettledResult {
  type: 'fulfilled' | 'rejected' | 'incomplete'
  value: unknown
}

/** The spy state Vitest's and Jest's built-in spy matchers read (`mock.calls[i]` is call i's argument list). */
export interface SpyState {
  readonly calls: unknown[][]
  readonly results: MockResult[]
  readonly settledResults: MockSettledResult[]
  readonly contexts: unknown[]
  readonly instances: unknown[]
  /** Positions in one counter shared by every double, so call order compares across doubles. */
  readonly invocationCallOrder: number[]
  readonly lastCall: unknown[] | undefined
}

/** Empty spy state for a new double. */
export function createSpyState(): SpyState {
  const spy: SpyState = {
    calls: [],
    results: [],
    settledResults: [],
    contexts: [],
    instances: [],
    invocationCallOrder: [],
    get lastCall() {
      return spy.calls.at(-1)
    },
  }
  return spy
}

/** Clears spy state in place (the arrays stay the same objects the runners may hold). */
export function clearSpyState(spy: SpyState): void {
  for (const list of [spy.calls, spy.results, spy.settledResults, spy.contexts, spy.instances, spy.invocationCallOrder]) {
    list.length = 0
  }
}

const ORDER = Symbol.for('agent-doubles.invocation-call-order')

/** The next position in the call-order counter, kept on globalThis so both module copies share it. */
function nextInvocationOrder(): number {
  const holder = globalThis as unknown as Record<symbol, { next: number } | undefined>
  const counter = (holder[ORDER] ??= { next: 1 })
  return counter.next++
}

/** Records one invocation in the shape `vi.fn`/`jest.fn` record an async function's call. */
export function recordInvocation(spy: SpyState, thisArg: unknown, args: unknown[], promise: Promise<unknown>): void {
  spy.calls.push(args)
  spy.contexts.push(thisArg)
  spy.instances.push(thisArg)
  spy.invocationCallOrder.push(nextInvocationOrder())
  spy.results.push({ type: 'return', value: promise })
  // Mutated in place when the promise settles, so a reset() in between cannot misplace it.
  const settled: MockSettledResult = { type: 'incomplete', value: undefined }
  spy.settledResults.push(settled)
  promise.then(
    (value) => Object.assign(settled, { type: 'fulfilled', value }),
    (value: unknown) => Object.assign(settled, { type: 'rejected', value }),
  )
}
