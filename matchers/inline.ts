/**
 * One-line renderings of values for the rows of a failure message. The runners' own printers
 * differ (Jest prints objects on one line, Vitest across many), and a list of recorded calls
 * reads best with one row per call whatever the runner.
 * @module
 */
import { isAsymmetric, type PortableMatcherContext } from './context.js'

const MAX_DEPTH = 6
const MAX_ITEMS = 20

/** `{"city": "Paris", "unit": "C"}`, `["a", 1]`, `StringContaining "sun"`, `Uint8Array [12 bytes]`. */
export function inline(value: unknown, depth = 0): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (value === undefined) return 'undefined'
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'function') return `[Function${value.name ? ` ${value.name}` : ''}]`
  if (typeof value === 'symbol') return value.toString()
  if (typeof value !== 'object' || value === null) return String(value)
  if (isAsymmetric(value)) return asymmetric(value as AsymmetricShape)
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[Array]' : '[Object]'
  if (value instanceof Uint8Array) return `Uint8Array [${value.byteLength} bytes]`
  if (value instanceof Date) return value.toISOString()
  if (value instanceof Error) return `[${value.name}: ${value.message}]`
  if (Array.isArray(value)) return `[${items(value.map((item) => inline(item, depth + 1)))}]`
  const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inline(item, depth + 1)}`)
  const name = (value as object).constructor?.name
  const prefix = name && name !== 'Object' ? `${name} ` : ''
  return `${prefix}{${items(entries)}}`
}

function items(rendered: string[]): string {
  if (rendered.length <= MAX_ITEMS) return rendered.join(', ')
  return `${rendered.slice(0, MAX_ITEMS).join(', ')}, … ${rendered.length - MAX_ITEMS} more`
}

interface AsymmetricShape {
  toAsymmetricMatcher?: () => string
  toString(): string
  sample?: unknown
}

function asymmetric(matcher: AsymmetricShape): string {
  if (typeof matcher.toAsymmetricMatcher === 'function') return matcher.toAsymmetricMatcher()
  return 'sample' in matcher ? `${matcher.toString()} ${inline(matcher.sample, MAX_DEPTH - 1)}` : matcher.toString()
}

/** A value the user expected, on one line: coloured by the runner when it is a primitive. */
export function showExpected(ctx: PortableMatcherContext, value: unknown): string {
  return isPrimitive(value) ? ctx.utils.printExpected(value) : inline(value)
}

/** A recorded value, on one line: coloured by the runner when it is a primitive. */
export function showReceived(ctx: PortableMatcherContext, value: unknown): string {
  return isPrimitive(value) ? ctx.utils.printReceived(value) : inline(value)
}

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function')
}
