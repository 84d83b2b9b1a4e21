/**
 * Pieces of failure messages shared by every matcher family: ordinals, the list of what was
 * recorded, and the count footer (layout of style-anchors "Lessons" item 6).
 * @module
 */
import type { PortableMatcherContext } from './context.js'

/** `1st`, `2nd`, `3rd`, `4th`, …, `11th`, `21st`. */
export function ordinal(n: number): string {
  const tens = n % 100
  if (tens >= 11 && tens <= 13) return `${n}th`
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'
  return `${n}${suffix}`
}

/** `1 request`, `2 requests`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/**
 * The "Received:" block: one line per recorded item, labelled by ordinal, or `(none)`.
 * `line(item, index)` renders one item after its label.
 */
export function receivedList<T>(
  heading: string,
  items: readonly T[],
  label: (index: number) => string,
  line: (item: T, index: number) => string,
): string {
  if (items.length === 0) return `${heading}: (none)`
  const rows = items.map((item, index) => `  ${label(index)}: ${line(item, index)}`)
  return `${heading}:\n${rows.join('\n')}`
}

/** The count footer, e.g. `Number of calls: 3`. */
export function footer(noun: string, count: number): string {
  return `Number of ${noun}: ${count}`
}

/** The matcher hint line, honouring `.not` and `.resolves`/`.rejects`. */
export function hint(ctx: PortableMatcherContext, name: string, expected = 'expected', secondArgument?: string): string {
  return ctx.utils.matcherHint(name, 'received', expected, {
    isNot: ctx.isNot,
    promise: ctx.promise,
    ...(secondArgument ? { secondArgument } : {}),
  })
}

/** Joins message sections with blank lines, skipping empty ones. */
export function sections(...parts: Array<string | false | null | undefined>): string {
  return parts.filter((part): part is string => typeof part === 'string' && part.length > 0).join('\n\n')
}

/** A diff of `expected` against `received`, or nothing when the runner has none to show. */
export function diffOf(ctx: PortableMatcherContext, expected: unknown, received: unknown): string | undefined {
  const text = ctx.utils.diff(expected, received)
  if (!text || text.includes('Compared values have no visual difference')) return undefined
  return text
}

/** `'→ '` before the rows a failure is about, `'  '` before the others (nothing when none is marked). */
export function marker(marked: ((index: number) => boolean) | undefined, index: number): string {
  if (!marked) return ''
  return marked(index) ? '→ ' : '  '
}
