/**
 * Which fake proxies the running tests point their clients at, so the network guard's message
 * can say what is true for a refused call: no fake proxy is active in this test, or one is and
 * this client does not point at it (SPEC §22). The fixtures mark a proxy while a test uses it.
 * Kept on `globalThis` under a `Symbol.for` key, so the ESM and CJS copies share it.
 * @module
 */

const KEY = Symbol.for('agent-doubles.active-proxies')

type Holder = Record<symbol, string[] | undefined>

function urls(): string[] {
  const holder = globalThis as unknown as Holder
  return (holder[KEY] ??= [])
}

/** Marks the proxy at `url` as used by a running test; the returned function unmarks it. @internal */
export function markActiveProxy(url: string): () => void {
  const active = urls()
  active.push(url)
  let marked = true
  return () => {
    if (!marked) return
    marked = false
    const index = active.lastIndexOf(url)
    if (index !== -1) active.splice(index, 1)
  }
}

/** The URL of a fake proxy a running test uses, the latest marked; `undefined` when none is. @internal */
export function activeProxyUrl(): string | undefined {
  const active = (globalThis as unknown as Holder)[KEY]
  return active && active.length > 0 ? active[active.length - 1] : undefined
}
