/** Whether a bad-input case's request reached decoding, for the provider wire tests' record counts. */

/** Whether a case's request reached decoding: a JSON body sent as JSON. */
export function parses(init: { body?: unknown; headers?: unknown }): boolean {
  const type = (init.headers as Record<string, string> | undefined)?.['content-type'] ?? 'application/json'
  if (typeof init.body !== 'string' || type !== 'application/json') return false
  try {
    JSON.parse(init.body)
    return true
  } catch {
    return false
  }
}
