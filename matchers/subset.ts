/**
 * Object-subset matching with the runner's own equality, so asymmetric matchers and custom
 * equality testers work at any depth. Same rules as `toMatchObject`: every key of the partial
 * must match; arrays match element by element and must have the same length.
 * @module
 */
import { isAsymmetric, type PortableMatcherContext } from './context.js'

/** Whether `actual` matches `partial` as an object subset. */
export function matchesSubset(ctx: PortableMatcherContext, actual: unknown, partial: unknown): boolean {
  if (isAsymmetric(partial)) return ctx.equals(actual, partial, ctx.customTesters)
  if (Array.isArray(partial)) {
    return (
      Array.isArray(actual) &&
      actual.length === partial.length &&
      partial.every((item, index) => matchesSubset(ctx, actual[index], item))
    )
  }
  if (isPlainObject(partial)) {
    if (typeof actual !== 'object' || actual === null) return false
    return Object.keys(partial).every((key) => matchesSubset(ctx, (actual as Record<string, unknown>)[key], partial[key]))
  }
  return ctx.equals(actual, partial, ctx.customTesters)
}

/**
 * `actual` cut down to the keys `partial` names, so a diff against the partial shows only what
 * the caller asked about.
 */
export function projectOnto(actual: unknown, partial: unknown): unknown {
  if (isAsymmetric(partial)) return actual
  if (Array.isArray(partial) && Array.isArray(actual)) {
    return actual.map((item, index) => (index < partial.length ? projectOnto(item, partial[index]) : item))
  }
  if (isPlainObject(partial) && typeof actual === 'object' && actual !== null) {
    const projected: Record<string, unknown> = {}
    for (const key of Object.keys(partial)) {
      if (key in actual) projected[key] = projectOnto((actual as Record<string, unknown>)[key], partial[key])
    }
    return projected
  }
  return actual
}

/** Whether `value` is a plain object literal (not an array, class instance or matcher). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
