/**
 * The guard on undici's global dispatcher: Node's own `fetch` runs on it, and so do
 * `undici.request`, `undici.fetch` and every client that captured `fetch` before the guard was
 * installed. The hook wraps whatever dispatcher was global and puts exactly that back.
 * @module
 */
import { Dispatcher } from 'undici'
import type { Decide } from './decision.js'
import { withHost } from './host-header.js'

/** Where undici (the package, and Node's bundled copy) keeps the global dispatcher. */
const GLOBAL_DISPATCHER_KEYS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')] as const

type Holder = Record<symbol, Dispatcher | undefined>

/** The URL a dispatch is for: `origin` and `path` joined as text (a `//` path stays a path), `query` added. */
export function dispatchUrl(options: Dispatcher.DispatchOptions): URL | undefined {
  if (options.origin === undefined || typeof options.path !== 'string') return undefined
  try {
    const url = new URL(`${String(options.origin).replace(/\/+$/, '')}${options.path}`)
    for (const [name, value] of Object.entries(options.query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item))
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

/** A dispatcher that asks `decide` about each request, then passes, reroutes or fails it. */
class GuardedDispatcher extends Dispatcher {
  readonly #inner: Dispatcher
  readonly #decide: Decide

  constructor(inner: Dispatcher, decide: Decide) {
    super()
    this.#inner = inner
    this.#decide = decide
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const url = dispatchUrl(options)
    if (!url) return this.#inner.dispatch(options, handler)
    const decision = this.#decide(url, String(options.method ?? 'GET').toUpperCase())
    if (decision.action === 'pass') return this.#inner.dispatch(options, handler)
    if (decision.action === 'route') return this.#inner.dispatch(routedOptions(options, decision.url), handler)
    failBeforeSending(handler, decision.error)
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

/**
 * Wraps the global dispatcher of this realm with one that consults `decide`; the returned
 * function puts back exactly the dispatcher (or absence of one) found under each key, unless
 * someone set another dispatcher over ours.
 */
export function hookGlobalDispatcher(decide: Decide): () => void {
  const holder = globalThis as unknown as Holder
  const found = GLOBAL_DISPATCHER_KEYS.map((key) => ({ key, had: key in holder, dispatcher: holder[key] }))
  // Importing undici sets one; Node's fetch makes its own on first use. Wrap the one fetch reads.
  const inner = found[0]?.dispatcher ?? found[1]?.dispatcher
  if (!inner) throw new Error('undici has no global dispatcher to wrap')
  const guarded = new GuardedDispatcher(inner, decide)
  for (const { key, had } of found) {
    if (had) holder[key] = guarded
    else Object.defineProperty(holder, key, { value: guarded, writable: true, configurable: true, enumerable: false })
  }
  return () => {
    for (const { key, had, dispatcher } of found) {
      if (holder[key] !== guarded) continue
      if (had) holder[key] = dispatcher
      else delete holder[key]
    }
  }
}
