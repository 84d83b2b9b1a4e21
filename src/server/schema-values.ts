/**
 * A small value that satisfies a JSON Schema, for the default brain's forced tool calls and
 * structured output (SPEC §10.4). Bounded: at most {@link VALUE_LIMITS} nodes and bytes; a
 * schema whose minimums cannot fit throws {@link SchemaTooLarge} naming the schema path, and
 * the generator stops at that point without building the rest.
 * @module
 */
import { utf8Length } from '../internal/bytes.js'

/**
 * The bounds of a generated value. `steps` bounds the work rather than the result: every schema
 * node visited and every key copied counts, failed `anyOf`/`oneOf` branches included, so a few
 * kilobytes of `anyOf` over `$ref` cannot make the search exponential (SPEC §24). `ms` bounds it
 * in time as well, for a machine so loaded that the steps alone would hold the event loop for
 * long: checked every 1,024 steps.
 */
export const VALUE_LIMITS = Object.freeze({ nodes: 10_000, bytes: 64 * 1024, steps: 40_000, ms: 100 })

/** How deep `$ref`s and nesting may go before a branch must end. */
const MAX_DEPTH = 32

/** A schema whose minimums do not fit the bounds; `path` is a JSON pointer into the schema. */
export class SchemaTooLarge extends Error {
  constructor(
    message: string,
    /** Where in the schema, e.g. `#/properties/rows/items`. */
    readonly path: string,
  ) {
    // No stack: a failed `anyOf` branch throws one and is caught at once, and capturing a stack
    // per branch would make the search many times slower than the work it stands for.
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(message)
    Error.stackTraceLimit = limit
    this.name = 'SchemaTooLarge'
  }
}

type Schema = Record<string, unknown>

interface Budget {
  nodes: number
  bytes: number
}

interface Walk {
  root: unknown
  budget: Budget
  /** Work done so far; never given back when a branch fails, unlike {@link Budget}. */
  steps: number
  /** When the steps must stop (`performance.now()`). */
  deadline: number
  /** The step count at which the clock is read next. */
  nextClock: number
}

/**
 * A value `schema` accepts: the smallest one, mostly (minimum counts, first enum member,
 * lower bounds), with every property the schema names.
 * @example
 * valueFor({ type: 'object', properties: { n: { type: 'integer', minimum: 3 } }, required: ['n'] }) // { n: 3 }
 * @throws {SchemaTooLarge} the schema needs more than 10,000 nodes or 64 KiB.
 */
export function valueFor(schema: unknown): unknown {
  const walk: Walk = { root: schema, budget: { nodes: 0, bytes: 0 }, steps: 0, deadline: performance.now() + VALUE_LIMITS.ms, nextClock: 1024 }
  const value = generate(walk, schema, '#', 0, 0)
  const size = utf8Length(JSON.stringify(value) ?? '')
  if (size > VALUE_LIMITS.bytes) throw new SchemaTooLarge(`the smallest value of the schema at # is ${size} bytes, over the ${VALUE_LIMITS.bytes}-byte limit`, '#')
  return value
}

/** How many own keys an object has, counted without building their list for a large one. */
function keyCount(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0
  let n = 0
  for (const _ in value) n++
  return n
}

function asSchema(value: unknown): Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : {}
}

/** Counts one node, failing at `path` when the budget is spent. */
function spend(walk: Walk, path: string, nodes: number, bytes: number): void {
  walk.budget.nodes += nodes
  walk.budget.bytes += bytes
  if (walk.budget.nodes > VALUE_LIMITS.nodes) {
    throw new SchemaTooLarge(`the schema at ${path} needs more than the ${VALUE_LIMITS.nodes} values a generated answer may hold`, path)
  }
  if (walk.budget.bytes > VALUE_LIMITS.bytes) {
    throw new SchemaTooLarge(`the schema at ${path} needs more than the ${VALUE_LIMITS.bytes} bytes a generated answer may hold`, path)
  }
}

/** Counts `work` steps, failing at `path` once the whole generation has done too much. */
function step(walk: Walk, path: string, work: number): void {
  walk.steps += work
  if (walk.steps > VALUE_LIMITS.steps) {
    throw new StepsSpent(`the schema at ${path} takes more than ${VALUE_LIMITS.steps} steps to answer (anyOf/oneOf/$ref combinations)`, path)
  }
  if (walk.steps >= walk.nextClock) {
    walk.nextClock = walk.steps + 1024
    if (performance.now() > walk.deadline) {
      throw new StepsSpent(`the schema at ${path} takes more than ${VALUE_LIMITS.ms} ms to answer (anyOf/oneOf/$ref combinations)`, path)
    }
  }
}

/** The step budget is spent: not a branch to back out of but the end of the whole generation. */
class StepsSpent extends SchemaTooLarge {}

/** Resolves a local `$ref` (`#/$defs/x`, `#/definitions/x`, `#`). */
function resolve(walk: Walk, ref: string): unknown {
  if (!ref.startsWith('#')) return {}
  let node: unknown = walk.root
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    node = asSchema(node)[key]
  }
  return node ?? {}
}

/** `allOf` members folded into one schema (later members win on conflicts). */
function merged(walk: Walk, schema: Schema): Schema {
  let out: Schema = { ...schema }
  delete out.allOf
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const part = expand(walk, asSchema(member))
    step(walk, '#', 1 + keyCount(out) + keyCount(part) + keyCount(out.properties) + keyCount(part.properties))
    const properties = { ...asSchema(out.properties), ...asSchema(part.properties) }
    const required = [...(Array.isArray(out.required) ? out.required : []), ...(Array.isArray(part.required) ? part.required : [])]
    out = { ...out, ...part, properties, required }
  }
  return out
}

/** The schema with `$ref` followed and `allOf` folded in. */
function expand(walk: Walk, schema: Schema): Schema {
  let current = schema
  for (let hops = 0; typeof current.$ref === 'string' && hops < MAX_DEPTH; hops++) {
    step(walk, '#', 1 + (keyCount(current) >> 3))
    const { $ref, ...rest } = current
    current = { ...asSchema(resolve(walk, $ref as string)), ...rest }
  }
  return Array.isArray(current.allOf) ? merged(walk, current) : current
}

function generate(walk: Walk, raw: unknown, path: string, depth: number, variant: number): unknown {
  step(walk, path, 1)
  if (raw === true || raw === undefined) return spendAnd(walk, path, null)
  const schema = expand(walk, asSchema(raw))
  if (depth > MAX_DEPTH) throw new SchemaTooLarge(`the schema at ${path} nests deeper than ${MAX_DEPTH} levels`, path)
  if ('const' in schema) return spendAnd(walk, path, schema.const)
  if (schema.default !== undefined) return spendAnd(walk, path, schema.default)
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return spendAnd(walk, path, schema.enum[variant % schema.enum.length])
  const variants = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as unknown[] | undefined
  if (variants && variants.length > 0) return firstFitting(walk, schema, variants, path, depth, variant)
  switch (typeOf(schema)) {
    case 'string':
      return stringFor(walk, schema, path, variant)
    case 'integer':
    case 'number':
      return spendAnd(walk, path, numberFor(schema, variant))
    case 'boolean':
      return spendAnd(walk, path, variant % 2 === 1)
    case 'null':
      return spendAnd(walk, path, null)
    case 'array':
      return arrayFor(walk, schema, path, depth, variant)
    case 'object':
      return objectFor(walk, schema, path, depth, variant)
    default:
      return spendAnd(walk, path, null)
  }
}

function spendAnd<T>(walk: Walk, path: string, value: T): T {
  spend(walk, path, 1, typeof value === 'string' ? value.length : 8)
  return value
}

/** The first variant that fits (non-null ones first), leaving the budget as it was on a miss. */
function firstFitting(walk: Walk, schema: Schema, variants: unknown[], path: string, depth: number, variant: number): unknown {
  const key = Array.isArray(schema.anyOf) ? 'anyOf' : 'oneOf'
  const order = variants.map((member, i) => ({ member, i })).sort((a, b) => Number(isNullSchema(a.member)) - Number(isNullSchema(b.member)))
  let lastError: unknown
  for (const { member, i } of order) {
    const saved = { ...walk.budget }
    step(walk, path, (keyCount(schema) + keyCount(member)) >> 3)
    try {
      const { anyOf: _a, oneOf: _o, ...rest } = schema
      return generate(walk, { ...rest, ...asSchema(member) }, `${path}/${key}/${i}`, depth + 1, variant)
    } catch (error) {
      if (!(error instanceof SchemaTooLarge) || error instanceof StepsSpent) throw error
      walk.budget.nodes = saved.nodes
      walk.budget.bytes = saved.bytes
      lastError = error
    }
  }
  throw lastError
}

function isNullSchema(schema: unknown): boolean {
  return asSchema(schema).type === 'null'
}

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return (schema.type.find((type) => type !== 'null') ?? schema.type[0]) as string | undefined
  if (typeof schema.type === 'string') return schema.type
  if (schema.properties !== undefined || schema.required !== undefined || schema.additionalProperties !== undefined) return 'object'
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array'
  return undefined
}

const FORMATS: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
}

function stringFor(walk: Walk, schema: Schema, path: string, variant: number): string {
  const minLength = typeof schema.minLength === 'number' ? Math.max(0, Math.ceil(schema.minLength)) : 0
  const maxLength = typeof schema.maxLength === 'number' ? Math.floor(schema.maxLength) : Infinity
  if (minLength > VALUE_LIMITS.bytes) {
    throw new SchemaTooLarge(`the schema at ${path} asks for strings of at least ${minLength} characters, over the ${VALUE_LIMITS.bytes}-byte limit`, path)
  }
  const formatted = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined
  let text = formatted ?? (variant === 0 ? 'string' : `string ${variant}`)
  if (text.length < minLength) text = text.padEnd(minLength, 'x')
  if (text.length > maxLength) text = text.slice(0, Math.max(minLength, maxLength))
  return spendAnd(walk, path, text)
}

function numberFor(schema: Schema, variant: number): number {
  const integer = typeOf(schema) === 'integer'
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : undefined
  let low = typeof schema.minimum === 'number' ? schema.minimum : -Infinity
  if (typeof schema.exclusiveMinimum === 'number') low = Math.max(low, schema.exclusiveMinimum + (step ?? 1e-6))
  let high = typeof schema.maximum === 'number' ? schema.maximum : Infinity
  if (typeof schema.exclusiveMaximum === 'number') high = Math.min(high, schema.exclusiveMaximum - (step ?? 1e-6))
  let value = Number.isFinite(low) ? low : Number.isFinite(high) && high < 0 ? high : 0
  value += variant * (step ?? 1)
  if (step !== undefined) value = Math.ceil(value / step - 1e-9) * step
  if (integer) value = Math.ceil(value)
  // `+ 0` turns the -0 that rounding can give into 0.
  return (value > high && Number.isFinite(high) ? high : value) + 0
}

function arrayFor(walk: Walk, schema: Schema, path: string, depth: number, variant: number): unknown[] {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : []
  const minItems = Math.max(typeof schema.minItems === 'number' ? Math.ceil(schema.minItems) : 0, 0)
  // Fail before building anything a schema cannot afford (`minItems: 1e9` must not allocate).
  if (minItems > VALUE_LIMITS.nodes - walk.budget.nodes) {
    throw new SchemaTooLarge(`the schema at ${path} asks for at least ${minItems} items, more than the ${VALUE_LIMITS.nodes} values a generated answer may hold`, path)
  }
  spend(walk, path, 1, 2)
  const out: unknown[] = []
  const count = Math.max(minItems, 0)
  for (let i = 0; i < count; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : schema.items
    const itemPath = i < prefix.length ? `${path}/prefixItems/${i}` : `${path}/items`
    // Items differ from one another when they must be unique.
    out.push(generate(walk, itemSchema, itemPath, depth + 1, schema.uniqueItems === true ? variant + i : variant))
  }
  return out
}

function objectFor(walk: Walk, schema: Schema, path: string, depth: number, variant: number): Record<string, unknown> {
  spend(walk, path, 1, 2)
  const properties = asSchema(schema.properties)
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [])
  const out: Record<string, unknown> = {}
  for (const key of required) out[key] = generate(walk, properties[key], `${path}/properties/${key}`, depth + 1, variant)
  for (const [key, member] of Object.entries(properties)) {
    if (required.has(key)) continue
    // Optional properties are shown when they fit; one that cannot is left out, not an error.
    const saved = { ...walk.budget }
    try {
      out[key] = generate(walk, member, `${path}/properties/${key}`, depth + 1, variant)
    } catch (error) {
      if (!(error instanceof SchemaTooLarge) || error instanceof StepsSpent) throw error
      walk.budget.nodes = saved.nodes
      walk.budget.bytes = saved.bytes
    }
  }
  const minProperties = typeof schema.minProperties === 'number' ? Math.ceil(schema.minProperties) : 0
  let count = Object.keys(out).length
  if (schema.additionalProperties === false || count >= minProperties) return out
  // Fail before building anything a schema cannot afford (`minProperties: 1e7` must not loop).
  if (minProperties - count > VALUE_LIMITS.nodes - walk.budget.nodes) {
    throw new SchemaTooLarge(`the schema at ${path} asks for at least ${minProperties} properties, more than the ${VALUE_LIMITS.nodes} values a generated answer may hold`, path)
  }
  for (let i = 1; count < minProperties; i++) {
    const key = `property_${i}`
    if (key in out) continue
    out[key] = generate(walk, schema.additionalProperties, `${path}/additionalProperties`, depth + 1, variant)
    count++
  }
  return out
}
