/**
 * A MockAgent's spy machinery: the callable that records each call, the `mock` state the
 * runners' own spy matchers read (Vitest 4/5, Jest 30), and the one-off overrides
 * `mockResolvedValueOnce` and its kin plan. The matchers read only `_isMockFunction`, `mock`
 * and `getMockName()`, so the calls are kept here rather than by a spy engine (tinyspy, until
 * the third release: its state, getters and per-call result tuples were most of what making a
 * MockAgent cost, and nothing read them).
 * @module
 */
import { ownGetter } from '../internal/own-getter.js'

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

/** How one recorded call settled, as the double keeps it (`output`/`error` set once settled). */
export interface Settlement {
  readonly output?: unknown
  readonly error?: unknown
}

/** What stands in for the responses on a call: called with the call's `this` and arguments. */
export type Override = (this: unknown, ...args: unknown[]) => unknown

/** The parts of a spy the double drives. @internal */
export interface Spy {
  /** The callable: records the call, then runs `body` with the call's `this` and argument list. */
  readonly fn: (...args: unknown[]) => unknown
  readonly mock: SpyState
  /** Records `this` and the call order of the call being made. */
  begin(thisArg: unknown): void
  /** The override for the next call, if one is planned (a one-off first). */
  takeOverride(): Override | undefined
  /** Plans an override for every call (`once: false`) or the next unplanned call. */
  plan(override: Override, once: boolean): void
  /** The override every call takes when no one-off is planned. */
  implementation(): Override | undefined
  /** Clears the records; `overrides` also drops the planned overrides. */
  clear(overrides: boolean): void
}

const ORDER = Symbol.for('agent-doubles.invocation-call-order')

/** The call-order counter, kept on globalThis so both module copies share it (looked up once, not per call). */
const invocationOrder = ((globalThis as unknown as Record<symbol, { next: number } | undefined>)[ORDER] ??= { next: 1 })

/**
 * A spy named `name` whose calls run `body`. `settled(i)` tells how call i settled, so
 * `mock.settledResults` comes from the double's own records (which a reset detaches) rather than
 * from promise callbacks a reset cannot cancel.
 */
export function createSpy(name: string, body: (this: unknown, args: unknown[]) => unknown, settled: () => readonly Settlement[]): Spy {
  // Each call's argument list, as `mock.calls` holds them; what each call returned (its promise)
  // and how it settled are the double's own records, so no promise is subscribed to here.
  const recorded: RecordedCalls = { calls: [] }
  const returned: unknown[] = []
  // Named as it is made: redefining a function's `name` afterwards turns its properties into a
  // dictionary, which every call then looks up its agent's fields in.
  const named = {
    [name]: function (this: unknown, ...args: unknown[]) {
      recorded.calls.push(args)
      const result = body.call(this, args)
      returned.push(result)
      return result
    },
  }
  const fn = named[name]!
  const contexts: unknown[] = []
  const invocationCallOrder: number[] = []
  const once: Override[] = []
  let implementation: Override | undefined

  const mock = new MockState(recorded, returned, settled, contexts, invocationCallOrder)

  return {
    fn,
    mock,
    begin(thisArg) {
      contexts.push(thisArg)
      invocationCallOrder.push(invocationOrder.next++)
    },
    takeOverride() {
      return once.length > 0 ? once.shift() : implementation
    },
    plan(override, isOnce) {
      if (isOnce) once.push(override)
      else implementation = override
    },
    implementation: () => implementation,
    clear(overrides) {
      // A new list, as tinyspy and the runners' own spies make: one read before the reset keeps its calls.
      recorded.calls = []
      returned.length = 0
      contexts.length = 0
      invocationCallOrder.length = 0
      if (overrides) {
        once.length = 0
        implementation = undefined
      }
    },
  }
}

/** A spy's argument lists; replaced, not emptied, when it is cleared. */
interface RecordedCalls {
  calls: unknown[][]
}

/**
 * A spy's `mock`: its getters are own, enumerable properties, as on the object literal it
 * replaces, so the runners' spy matchers read the same shape; they come from shared descriptors
 * ({@link ownGetter}), so a MockAgent dies with its test.
 */
class MockState implements SpyState {
  static readonly #calls = ownGetter(function (this: MockState) {
    return this.#recorded.calls
  })

  // Derived when read: a call allocates nothing for shapes only a failing matcher prints.
  static readonly #results = ownGetter(function (this: MockState) {
    return this.#returned.map((value): MockResult => ({ type: 'return', value }))
  })

  static readonly #settledResults = ownGetter(function (this: MockState) {
    return this.#settled().map(settlement)
  })

  static readonly #lastCall = ownGetter(function (this: MockState) {
    return this.#recorded.calls.at(-1)
  })

  declare readonly calls: unknown[][]
  declare readonly results: MockResult[]
  declare readonly settledResults: MockSettledResult[]
  declare readonly contexts: unknown[]
  declare readonly instances: unknown[]
  declare readonly invocationCallOrder: number[]
  declare readonly lastCall: unknown[] | undefined
  readonly #recorded: RecordedCalls
  readonly #returned: unknown[]
  readonly #settled: () => readonly Settlement[]

  constructor(recorded: RecordedCalls, returned: unknown[], settled: () => readonly Settlement[], contexts: unknown[], invocationCallOrder: number[]) {
    this.#recorded = recorded
    this.#returned = returned
    this.#settled = settled
    // In the literal's order, which is the order the runners print them in.
    Object.defineProperty(this, 'calls', MockState.#calls)
    Object.defineProperty(this, 'results', MockState.#results)
    Object.defineProperty(this, 'settledResults', MockState.#settledResults)
    this.contexts = contexts
    // A MockAgent is never called with `new`; each call's instance is its `this`, as jest-mock records.
    this.instances = contexts
    this.invocationCallOrder = invocationCallOrder
    Object.defineProperty(this, 'lastCall', MockState.#lastCall)
  }
}

function settlement(call: Settlement): MockSettledResult {
  if ('output' in call) return { type: 'fulfilled', value: call.output }
  if ('error' in call) return { type: 'rejected', value: call.error }
  return { type: 'incomplete', value: undefined }
}
