/**
 * The registry of live doubles (SPEC §2). It is kept on `globalThis` under a `Symbol.for` key
 * so the ESM and CJS copies of this package, loaded side by side in one worker, share it.
 * @module
 */

/** What every double gives the registry. */
export interface RegisteredDouble {
  /** Clears what the double recorded and rewinds its cursors. */
  reset(): void
  /** Called when the double leaves the registry at the end of the test that made it. */
  dispose?(): Promise<void> | void
  /** Present on doubles that hold a server: closed after each file by the setup entries. */
  close?(): Promise<void>
}

interface RegistryState {
  live: Set<RegisteredDouble>
  /** Doubles created while a test runs; `null` outside a test. */
  testScope: Set<RegisteredDouble> | null
  /** Open scopes: tests running now, counted once per opener (setup hook, auto fixture). */
  openScopes: number
  /** What `configure()` set (src/config.ts); kept here so both module copies read one configuration. */
  config?: object
}

const KEY = Symbol.for('agent-doubles')

function state(): RegistryState {
  const holder = globalThis as unknown as Record<symbol, RegistryState | undefined>
  let current = holder[KEY]
  if (!current) {
    current = { live: new Set(), testScope: null, openScopes: 0 }
    holder[KEY] = current
  }
  return current
}

/** The slot `configure()` keeps its settings in; no reset touches it. @internal */
export function configSlot(): { config?: object } {
  return state()
}

/** Adds a double to the registry; called by every double's constructor. @internal */
export function registerDouble(double: RegisteredDouble): void {
  const registry = state()
  registry.live.add(double)
  registry.testScope?.add(double)
}

/** Removes a double from the registry. @internal */
export function unregisterDouble(double: RegisteredDouble): void {
  const registry = state()
  registry.live.delete(double)
  registry.testScope?.delete(double)
}

/**
 * Takes a server double that stopped listening out of the live set (not out of its test's
 * scope): it has nothing new to reset until it starts again, and where files share a worker's
 * registry (`isolate: false`), each file's closed servers would otherwise pile up and be reset
 * after every later test. @internal
 */
export function releaseDouble(double: RegisteredDouble): void {
  state().live.delete(double)
}

/** Puts a server double back into the live set when it starts listening (again). @internal */
export function reviveDouble(double: RegisteredDouble): void {
  state().live.add(double)
}

/**
 * Keeps a double live past the end of the test that made it: a file-scoped fixture's
 * `FakeProxy` is first used inside a test, yet must outlive it. It stays in the registry (reset
 * after each test, closed by `closeAll`) but is no longer dropped or disposed at test end. @internal
 */
export function retainDouble(double: RegisteredDouble): void {
  state().testScope?.delete(double)
}

/** Every live double, in creation order. @internal */
export function liveDoubles(): RegisteredDouble[] {
  return [...state().live]
}

/**
 * Resets every live double: recorded calls and requests cleared, cursors rewound, pending
 * refusals dropped. The setup entries and fixtures call it after each test; call it yourself
 * from a hand-written hook when you use neither.
 * @example
 * afterEach(() => resetAll())
 */
export function resetAll(): void {
  for (const double of state().live) double.reset()
}

/** Marks the start of a test: doubles created from now on belong to it. @internal */
export function beginTestScope(): void {
  const registry = state()
  // Older copies of this package kept no count; start one.
  registry.openScopes = (registry.openScopes ?? 0) + 1
  registry.testScope ??= new Set()
}

/**
 * Ends the current test: resets every live double, then drops (and disposes) the doubles the
 * test created, so a long suite does not grow the registry. @internal
 */
export async function endTestScope(): Promise<void> {
  const registry = state()
  // Concurrent tests (and a setup hook beside the auto fixture) each open the scope: only when
  // the last one closes is it safe to reset what they share and drop what they made.
  registry.openScopes = Math.max(0, (registry.openScopes ?? 1) - 1)
  if (registry.openScopes > 0) return
  const created = registry.testScope
  registry.testScope = null
  resetAll()
  if (!created) return
  // Most doubles have nothing to dispose: only what some do is awaited, and no array is made for the rest.
  let disposing: Array<Promise<void> | void> | undefined
  for (const double of created) {
    registry.live.delete(double)
    if (double.dispose) (disposing ??= []).push(double.dispose())
  }
  if (disposing) await Promise.all(disposing)
}

/** Closes every live double that holds a server (the setup entries call it after each file). @internal */
export async function closeAll(): Promise<void> {
  // A file's end also ends any test scope a failed hook left open, so the next file starts clean.
  const registry = state()
  registry.openScopes = 0
  registry.testScope = null
  await Promise.all(liveDoubles().map((double) => double.close?.()))
}
