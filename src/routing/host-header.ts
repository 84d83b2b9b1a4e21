/**
 * A routed request keeps its headers, but a `Host` header the caller set must name the new
 * target. Headers come as undici and `node:http` accept them: an object, a flat
 * `[name, value, …]` array, or an iterable of pairs.
 * @module
 */

/** Whether a header name is `host`, in any case. */
function isHost(name: unknown): boolean {
  return typeof name === 'string' && name.toLowerCase() === 'host'
}

/** `headers` with every `Host` header replaced by `host`; `headers` itself when it has none. */
export function withHost<H>(headers: H, host: string): H {
  if (headers === null || typeof headers !== 'object') return headers
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) {
      return headers.map((pair: unknown[]) => (isHost(pair[0]) ? [pair[0], host] : pair)) as H
    }
    return headers.map((item: unknown, index) => (index % 2 === 1 && isHost(headers[index - 1]) ? host : item)) as H
  }
  if (Symbol.iterator in headers) {
    const pairs = [...(headers as Iterable<[string, string]>)]
    return (pairs.some(([name]) => isHost(name)) ? pairs.map(([name, value]) => [name, isHost(name) ? host : value]) : headers) as H
  }
  const entries = Object.entries(headers as Record<string, unknown>)
  if (!entries.some(([name]) => isHost(name))) return headers
  return Object.fromEntries(entries.map(([name, value]) => [name, isHost(name) ? host : value])) as H
}
