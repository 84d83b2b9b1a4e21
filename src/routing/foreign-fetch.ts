/**
 * The guard on a `fetch` from another realm. Jest (and Vitest's `vmThreads`/`vmForks` pools)
 * run test files in a vm context whose `fetch` is the main realm's: it runs on the main realm's
 * dispatcher, which this realm's undici cannot reach. There, and only there, `globalThis.fetch`
 * itself is wrapped; in the main realm the dispatcher hook sees every fetch, so wrapping it too
 * would consult the route twice.
 * @module
 */
import type { Decide } from './decision.js'

type Fetch = typeof globalThis.fetch

/** Whether `fn` was made in another realm: its prototype chain ends in another `Function.prototype`. */
function isForeign(fn: unknown): boolean {
  return typeof fn === 'function' && !(fn instanceof Function)
}

/** What `fetch` would take from its arguments: the URL (resolved as `fetch` does) and method. */
function fetchTarget(input: unknown, init: RequestInit | undefined): { url: URL; method: string } | undefined {
  const isRequest = typeof Request === 'function' && input instanceof Request
  try {
    const url = new URL(isRequest ? (input as Request).url : String(input))
    const method = init?.method ?? (isRequest ? (input as Request).method : 'GET')
    return { url, method: method.toUpperCase() }
  } catch {
    return undefined // not absolute: `fetch` reports it
  }
}

/**
 * Wraps `globalThis.fetch` when it comes from another realm; a no-op otherwise. The wrapper
 * reads the live decision through `decide` even after the uninstall (a client may have kept
 * it). The returned function puts back the exact `fetch` unless someone replaced ours.
 */
export function hookForeignFetch(decide: Decide): () => void {
  const original = globalThis.fetch as Fetch | undefined
  if (!original || !isForeign(original)) return () => {}
  const guarded: Fetch = async function fetch(input, init) {
    const target = fetchTarget(input, init)
    const decision = target ? decide(target.url, target.method) : undefined
    if (!decision || decision.action === 'pass') return original(input, init)
    // As Node's fetch reports a failure below it, so the error reads the same in every runner.
    if (decision.action === 'refuse') throw new TypeError('fetch failed', { cause: decision.error })
    // A Request carries its own method, headers and body: copy them onto the new URL.
    const routed = input instanceof Request ? new Request(decision.url, input) : decision.url
    return original(routed, init)
  }
  globalThis.fetch = guarded
  return () => {
    if (globalThis.fetch === guarded) globalThis.fetch = original
  }
}
