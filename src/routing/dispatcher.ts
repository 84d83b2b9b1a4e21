/**
 * The guard on undici's global dispatcher: Node's own `fetch` runs on it, and so do
 * `undici.request`, `undici.fetch` and every client that captured `fetch` before the guard was
 * installed. The hook wraps whatever dispatcher was global and puts exactly that back.
 *
 * A realm's dispatcher is shared by every copy of this package loaded in it, and the main
 * realm's by every vm context too (Jest's test files call the main realm's `fetch`), so the hook
 * is stacked on the realm's global object (see `process-hook.ts`).
 * @module
 */
import vm from 'node:vm'
import type { Agent, Dispatcher } from 'undici'
// undici's Dispatcher class alone, not the package's main module: that one (its clients, fetch,
// mocks: 1.1 MB) cost every Jest test file about 35 ms to evaluate again, used or not; only its
// Agent ever loads, and only for a realm without a dispatcher (see LazyAgent). A test
// (test/routing/undici-dispatcher.test.ts) checks that this file is the class undici exports, so
// an undici that moves it fails there rather than for a user.
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js'
import { answerDispatch } from './answer.js'
import { passesQuickly, type Decide } from './decision.js'
import { withHost } from './host-header.js'
import { stackedHook, type StackedHook } from './process-hook.js'

/** Where undici (the package, and Node's bundled copy) keeps the global dispatcher. */
const GLOBAL_DISPATCHER_KEYS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')] as const

type Holder = Record<symbol, Dispatcher | undefined>

/** The URL a dispatch is for: `origin` and `path` joined as text (a `//` path stays a path), `query` added. */
export function dispatchUrl(options: Dispatcher.DispatchOptions): URL | undefined {
  if (options.origin === undefined || typeof options.path !== 'string') return undefined
  try {
    const origin = String(options.origin)
    const url = new URL(`${origin.endsWith('/') ? origin.replace(/\/+$/, '') : origin}${options.path}`)
    // Nearly every dispatch (fetch's among them) has no `query`: no entries to walk.
    if (options.query) {
      for (const [name, value] of Object.entries(options.query)) {
        for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item))
      }
    }
    return url
  } catch {
    return undefined // not a URL: the inner dispatcher reports it
  }
}

/** The same dispatch, sent to `target` (its query already holds the caller's `query`). */
function routedOptions(options: Dispatcher.DispatchOptions, target: URL): Dispatcher.DispatchOptions {
  const { query: _query, ...rest } = options
  return { ...rest, origin: target.origin, path: `${target.pathname}${target.search}`, headers: withHost(options.headers, target.host) }
}

/** Fails a request before anything is sent, in whichever handler API the caller speaks. */
function failBeforeSending(handler: Dispatcher.DispatchHandler, error: Error): void {
  if (typeof handler.onError === 'function') {
    handler.onError(error)
    return
  }
  const controller = { aborted: true, paused: false, reason: error, abort() {}, pause() {}, resume() {} }
  handler.onResponseError?.(controller as unknown as Dispatcher.DispatchController, error)
}

/** A dispatcher that asks the latest `decide` about each request, then passes, reroutes or fails it. */
class GuardedDispatcher extends DispatcherClass {
  readonly #inner: Dispatcher
  readonly #decider: () => Decide | undefined

  constructor(inner: Dispatcher, decider: () => Decide | undefined) {
    super()
    this.#inner = inner
    this.#decider = decider
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const decide = this.#decider()
    // A request the route knows to pass (a test's own lane of the fake, SPEC §9) is sent on
    // without building its URL: most requests of a test file are those.
    const { origin, path } = options
    if (decide && typeof origin === 'string' && typeof path === 'string' && options.query === undefined && passesQuickly(decide, origin, path)) {
      return this.#inner.dispatch(options, handler)
    }
    const url = decide && dispatchUrl(options)
    if (!decide || !url) return this.#inner.dispatch(options, handler)
    const decision = decide(url, String(options.method ?? 'GET').toUpperCase())
    if (decision.action === 'pass') return this.#inner.dispatch(options, handler)
    if (decision.action === 'route') return this.#inner.dispatch(routedOptions(options, decision.url), handler)
    if (decision.answer) answerDispatch(handler, decision.answer)
    else failBeforeSending(handler, decision.error)
    return true
  }

  // Whoever closes the global dispatcher means the one underneath.
  override close(): Promise<void>
  override close(callback: () => void): void
  override close(callback?: () => void): Promise<void> | void {
    return callback ? this.#inner.close(callback) : this.#inner.close()
  }

  override destroy(): Promise<void>
  override destroy(error: Error | null): Promise<void>
  override destroy(callback: () => void): void
  override destroy(error: Error | null, callback: () => void): void
  override destroy(...args: unknown[]): Promise<void> | void {
    return (this.#inner.destroy as (...a: unknown[]) => Promise<void> | void).apply(this.#inner, args)
  }
}

interface DispatcherHook extends StackedHook {
  /** What each key held before: its dispatcher, or no property at all. */
  found: Array<{ key: symbol; had: boolean; dispatcher: Dispatcher | undefined }>
  guarded: GuardedDispatcher
  /** The Agent requests go through when the realm had no dispatcher, even after asking Node for one (see {@link LazyAgent}). */
  made: LazyAgent | undefined
}

const HOOK_KEY = Symbol.for('agent-doubles.dispatcher-hook')

/**
 * The Agent the guard sends requests through when the realm has no dispatcher of its own, even
 * after asking Node for one (a vm realm whose `Response` is not Node's): undici's Agent is
 * loaded, and made, on the first request, so a realm that sends none never loads it. Its own
 * file, not undici's main module: the Agent alone costs about 48 ms of CPU to load, the main
 * module (fetch, caches, mocks, WebSocket) about 140. Closed when the guard comes off.
 */
class LazyAgent extends DispatcherClass {
  #agent: Promise<Agent> | undefined
  #made: Agent | undefined

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (this.#made) return this.#made.dispatch(options, handler)
    this.#agent ??= import('undici/lib/dispatcher/agent.js').then(({ default: AgentClass }) => (this.#made = new AgentClass()))
    // Handlers hear from a dispatcher later in any case (connecting takes a turn): starting once
    // undici has loaded is no different to them.
    this.#agent.then(
      (agent) => agent.dispatch(options, handler),
      (error: unknown) => failBeforeSending(handler, error instanceof Error ? error : new Error(String(error))),
    )
    return true
  }

  override close(): Promise<void>
  override close(callback: () => void): void
  override close(callback?: () => void): Promise<void> | void {
    return this.#onceMade((agent) => agent.close(), callback)
  }

  override destroy(): Promise<void>
  override destroy(error: Error | null): Promise<void>
  override destroy(callback: () => void): void
  override destroy(error: Error | null, callback: () => void): void
  override destroy(...args: unknown[]): Promise<void> | void {
    const callback = args.find((arg): arg is () => void => typeof arg === 'function')
    return this.#onceMade((agent) => agent.destroy(), callback)
  }

  /** Does `act` to the Agent if one was made (nothing to do otherwise); a promise, or `callback` once done. */
  #onceMade(act: (agent: Agent) => Promise<void>, callback: (() => void) | undefined): Promise<void> | void {
    const done = this.#agent ? this.#agent.then(act) : Promise.resolve()
    if (!callback) return done
    void done.then(callback)
  }
}

/**
 * Makes sure the realm has a global dispatcher when its runtime makes one: Node makes the one
 * its `fetch` runs on when its own copy of undici first loads, and reading `Response` loads it.
 * The guard then never leaves a realm without one (Node's copy, once loaded, would not make
 * another).
 */
function letRuntimeMakeDispatcher(realm: Holder): void {
  if (GLOBAL_DISPATCHER_KEYS.some((key) => realm[key] !== undefined)) return
  void (realm as { Response?: unknown }).Response
}

function createHook(realm: Holder): DispatcherHook {
  letRuntimeMakeDispatcher(realm)
  const found = GLOBAL_DISPATCHER_KEYS.map((key) => ({ key, had: key in realm, dispatcher: realm[key] }))
  const existing = found[0]?.dispatcher ?? found[1]?.dispatcher
  // The dispatcher found is wrapped as it is, Node's default included: bypassing Node 20's for
  // undici's own Agent cost every test file that sends a request about 140 ms of CPU to load
  // undici, and an `openai` round trip measured no faster on that Agent (×1.02 JSON, ×0.99
  // streamed, over Node 20's, in interleaved rounds).
  const made = existing === undefined ? new LazyAgent() : undefined
  const hook: DispatcherHook = { deciders: [], found, made, guarded: undefined as unknown as GuardedDispatcher }
  hook.guarded = new GuardedDispatcher((made ?? existing) as Dispatcher, () => hook.deciders.at(-1))
  return hook
}

function putHook(realm: Holder, hook: DispatcherHook): void {
  for (const { key, had } of hook.found) {
    if (had) realm[key] = hook.guarded
    else Object.defineProperty(realm, key, { value: hook.guarded, writable: true, configurable: true, enumerable: false })
  }
}

function takeHookOff(realm: Holder, hook: DispatcherHook): void {
  for (const { key, had, dispatcher } of hook.found) {
    // Someone who set another dispatcher over ours keeps theirs.
    if (realm[key] !== hook.guarded) continue
    if (had) realm[key] = dispatcher
    else if (Object.getOwnPropertyDescriptor(realm, key)?.configurable !== false) delete realm[key]
    // undici's setGlobalDispatcher makes the key non-configurable: a test that set its own
    // dispatcher and then put ours back leaves a key that cannot be deleted (deleting threw
    // "Cannot delete property 'Symbol(undici.globalDispatcher.2)'"). It gets the dispatcher
    // found under the other key, the one requests went to before the guard.
    else realm[key] = hook.found.find((other) => other.dispatcher !== undefined)?.dispatcher as Dispatcher
  }
  void hook.made?.destroy()
}

/**
 * Wraps the global dispatcher of `realm` (a global object) with one that consults the latest
 * `decide` joined to it; the function returned by joining removes that `decide`, and the last
 * one out puts back exactly the dispatcher (or absence of one) found under each key.
 */
export function hookGlobalDispatcher(realm: object): (decide: Decide) => () => void {
  const holder = realm as Holder
  return stackedHook(holder, HOOK_KEY, {
    create: () => createHook(holder),
    put: (hook) => putHook(holder, hook),
    takeOff: (hook) => takeHookOff(holder, hook),
  })
}

/**
 * The main realm's global object. Node's `fetch` reads its dispatcher from there even when
 * called from a vm context (Jest's sandbox, whose `globalThis` is its own): `runInThisContext`
 * runs in the main context by definition.
 */
export function mainRealm(): object {
  return vm.runInThisContext('globalThis') as object
}
