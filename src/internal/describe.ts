/**
 * Helpers that turn bad arguments into clear errors naming the double, the value and what was
 * expected.
 * @module
 */

/** A short, readable rendering of any value for an error message. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)
  if (typeof value === 'function') return `a function${value.name ? ` (${value.name})` : ''}`
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'symbol') return value.toString()
  if (typeof value !== 'object') return String(value)
  if (Array.isArray(value)) return `an array of ${value.length}`
  const name = (value as object).constructor?.name
  if (name && name !== 'Object') return `a ${name}`
  try {
    const json = JSON.stringify(value)
    return json.length > 80 ? `${json.slice(0, 77)}...` : json
  } catch {
    return 'an object'
  }
}

/** Prefix of every message this library writes. */
export const PREFIX = '[agent-doubles]'

/**
 * A `TypeError` for a bad argument, e.g.
 * `[agent-doubles] MockAgent "researcher": option cycle must be a boolean, got "yes"`.
 */
export function argumentError(owner: string, what: string, expected: string, got: unknown): TypeError {
  return new TypeError(`${PREFIX} ${owner}: ${what} must be ${expected}, got ${describeValue(got)}`)
}

/**
 * Checks an options object against the names and checks it accepts: unknown names and values
 * of the wrong type throw {@link argumentError}.
 */
export function checkOptions(
  owner: string,
  options: unknown,
  checks: Record<string, [expected: string, accepts: (value: unknown) => boolean]>,
): void {
  if (options === undefined) return
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw argumentError(owner, 'options', 'an object', options)
  }
  // A for-in over own keys, not Object.entries: envelopes are built on every MockAgent call.
  for (const key in options) {
    if (!Object.hasOwn(options, key)) continue
    const value = (options as Record<string, unknown>)[key]
    // Own names only: `toString` or `constructor` must read as unknown options, not as checks.
    const check = Object.hasOwn(checks, key) ? checks[key] : undefined
    if (!check) {
      throw new TypeError(
        `${PREFIX} ${owner}: unknown option ${JSON.stringify(key)}; expected one of ${Object.keys(checks).join(', ')}`,
      )
    }
    if (value !== undefined && !check[1](value)) throw argumentError(owner, `option ${key}`, check[0], value)
  }
}

/** Reusable predicates for {@link checkOptions}. */
export const is = {
  string: (v: unknown): boolean => typeof v === 'string',
  boolean: (v: unknown): boolean => typeof v === 'boolean',
  nonNegativeNumber: (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0,
  positiveInteger: (v: unknown): boolean => Number.isInteger(v) && (v as number) > 0,
  function: (v: unknown): boolean => typeof v === 'function',
  object: (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v),
}
