/**
 * The JSON types a provider's request fields must have, checked before decoding (SPEC §24:
 * every dialect as strict as §11's). A provider rejects an object where a string belongs, a
 * number sent as a string or an empty list it requires with a 400; the decoders used to read
 * such fields loosely (`String({ toString: 1 })` threw: a 500 in the wrong shape) or let them
 * through. A shape is data, checked in one pass over the request: linear in its size.
 * @module
 */

/** What a field must be. Fields a shape does not name are not checked (providers add fields). */
export type Shape =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'object'
  | 'any'
  | { readonly array: Shape; readonly nonEmpty?: boolean }
  | { readonly fields: Readonly<Record<string, Shape>>; readonly required?: readonly string[] }
  | { readonly either: readonly Shape[] }

/** A field that does not have its shape: where (path segments), what it should be, what it is. */
export interface ShapeViolation {
  readonly path: readonly (string | number)[]
  /** `string`, `number`, `integer`, `boolean`, `object`, `array`, `non-empty array`, `present`. */
  readonly expected: string
  readonly value: unknown
}

/** A violation's path as JavaScript writes it (`messages[0].role`): the field paths Google's errors and the SDKs' `param` name. */
export function fieldPath(path: readonly (string | number)[]): string {
  return path.map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : i === 0 ? segment : `.${segment}`)).join('')
}

/** The first field of `value` that does not have `shape`, or `undefined`. */
export function checkShape(value: unknown, shape: Shape, path: (string | number)[] = []): ShapeViolation | undefined {
  if (value === undefined || value === null || shape === 'any') return undefined
  if (typeof shape === 'string') return fits(value, shape) ? undefined : { path: [...path], expected: shape, value }
  if ('either' in shape) {
    for (const member of shape.either) if (checkShape(value, member, path) === undefined) return undefined
    return { path: [...path], expected: shape.either.map(describeShape).join(' or '), value }
  }
  if ('array' in shape) {
    if (!Array.isArray(value)) return { path: [...path], expected: 'array', value }
    if (shape.nonEmpty && value.length === 0) return { path: [...path], expected: 'non-empty array', value }
    for (let i = 0; i < value.length; i++) {
      path.push(i)
      const found = checkShape(value[i], shape.array, path)
      path.pop()
      if (found) return found
    }
    return undefined
  }
  if (!fits(value, 'object')) return { path: [...path], expected: 'object', value }
  const object = value as Record<string, unknown>
  for (const key of shape.required ?? []) {
    if (object[key] === undefined || object[key] === null) return { path: [...path, key], expected: 'present', value: undefined }
  }
  for (const key in shape.fields) {
    if (!Object.hasOwn(object, key)) continue
    path.push(key)
    const found = checkShape(object[key], shape.fields[key], path)
    path.pop()
    if (found) return found
  }
  return undefined
}

function fits(value: unknown, type: 'string' | 'number' | 'integer' | 'boolean' | 'object'): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'integer':
      return Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
  }
}

function describeShape(shape: Shape): string {
  if (typeof shape === 'string') return shape
  if ('array' in shape) return 'array'
  if ('either' in shape) return shape.either.map(describeShape).join(' or ')
  return 'object'
}

/** The JSON kind of a value as a provider's message names it: `object`, `array`, `string`, `number`, `bool`. */
export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (value === null) return 'null'
  if (typeof value === 'boolean') return 'bool'
  return typeof value
}

/** A value as an error message quotes it: its JSON, cut at 100 characters; never throws. */
export function quoteValue(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(typeof value)
  } catch {
    text = typeof value
  }
  return text.length > 100 ? `${text.slice(0, 100)}…` : text
}
