/**
 * In a vm context (Jest's sandbox, Vitest's vm pools) `fetch` is the main realm's: the guard on
 * the main realm's dispatcher refuses its requests, but the rejection is the main realm's
 * `TypeError`, which code in the sandbox does not recognise with `instanceof TypeError` (the AI
 * SDK checks that to report the cause). There, `globalThis.fetch` is wrapped to rethrow the
 * guard's refusals as this realm's `TypeError`, same message and cause. It decides nothing.
 * @module
 */

type Fetch = typeof globalThis.fetch

/** Whether `fn` was made in another realm: its prototype chain ends in another `Function.prototype`. */
function isForeign(fn: unknown): boolean {
  return typeof fn === 'function' && !(fn instanceof Function)
}

/**
 * Wraps `globalThis.fetch` when it comes from another realm (a no-op otherwise); `isRefusal`
 * tells the guard's errors. The returned function puts back the exact `fetch` unless someone
 * replaced ours.
 */
export function hookForeignFetch(isRefusal: (error: unknown) => boolean): () => void {
  const original = globalThis.fetch as Fetch | undefined
  if (!original || !isForeign(original)) return () => {}
  const guarded: Fetch = async function fetch(input, init) {
    try {
      return await original(input, init)
    } catch (error) {
      const cause = (error as Error | undefined)?.cause
      if (error instanceof TypeError || !isRefusal(cause)) throw error
      throw new TypeError((error as Error).message, { cause })
    }
  }
  globalThis.fetch = guarded
  return () => {
    if (globalThis.fetch === guarded) globalThis.fetch = original
  }
}
