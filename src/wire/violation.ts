/**
 * What request validation (SPEC §10.3) finds, and the wording the providers use for it. The
 * rule modules are pure functions over the request JSON that return the first
 * {@link Violation}; this module only names things.
 * @module
 */

/** The first thing a provider would reject in a request. */
export interface Violation {
  /** The provider's message. */
  message: string
  /** The field at fault, in the provider's notation (`messages[0].role`, `messages.0.role`). */
  param: string | null
  /** The provider's machine-readable code (OpenAI), or `null`. */
  code: string | null
}

/** A {@link Violation}. */
export function violation(message: string, param: string | null = null, code: string | null = null): Violation {
  return { message, param, code }
}

/** A plain-object view of `value`, or `undefined` when it is not one. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

/** The tool names both providers accept. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/

/** The wording of OpenAI's validation errors (Chat Completions and Responses). */
export const openai = {
  /** How OpenAI names the JSON type of `value` in its messages. */
  typeOf(value: unknown): string {
    if (value === null) return 'null'
    if (Array.isArray(value)) return 'an array'
    if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal'
    if (typeof value === 'object') return 'an object'
    return `a ${typeof value}`
  },
  missing: (param: string): Violation => violation(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter'),
  invalidType: (param: string, expected: string, value: unknown): Violation =>
    violation(`Invalid type for '${param}': expected ${expected}, but got ${openai.typeOf(value)} instead.`, param, 'invalid_type'),
  /** A required field that is absent (missing) or present with the wrong JSON type. */
  absentOrMistyped: (param: string, expected: string, value: unknown): Violation =>
    value === undefined ? openai.missing(param) : openai.invalidType(param, expected, value),
  emptyArray: (param: string): Violation =>
    violation(`Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`, param, 'empty_array'),
  invalidValue: (param: string, value: unknown, supported: readonly string[]): Violation =>
    violation(`Invalid value: ${JSON.stringify(value).replaceAll('"', "'")}. Supported values are: ${listOf(supported)}.`, param, 'invalid_value'),
  /** A number outside `[min, max]`; `integer` picks the words OpenAI uses for integers. */
  outOfRange(param: string, value: number, min: number, max: number, integer: boolean): Violation | undefined {
    const kind = integer ? 'integer' : 'decimal'
    if (value < min) return violation(`Invalid '${param}': ${kind} below minimum value. Expected a value >= ${min}, but got ${value} instead.`, param, `${kind}_below_min_value`)
    if (value > max) return violation(`Invalid '${param}': ${kind} above maximum value. Expected a value <= ${max}, but got ${value} instead.`, param, `${kind}_above_max_value`)
    return undefined
  },
  /** A tool name outside `^[a-zA-Z0-9_-]{1,64}$`. */
  toolName(param: string, name: string): Violation | undefined {
    if (name.length > 64) {
      return violation(`Invalid '${param}': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`, param, 'string_above_max_length')
    }
    if (!TOOL_NAME.test(name)) {
      return violation(`Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, param, 'invalid_value')
    }
    return undefined
  },
  duplicateTool: (param: string, name: string): Violation =>
    violation(`Invalid '${param}': duplicate tool name '${name}'. Tool names must be unique within a request.`, param, 'invalid_value'),
  /** A finite number check with OpenAI's words, for `temperature`-like fields. */
  decimal(param: string, value: unknown, min: number, max: number): Violation | undefined {
    if (value === undefined || value === null) return undefined
    if (typeof value !== 'number' || !Number.isFinite(value)) return openai.invalidType(param, 'a decimal', value)
    return openai.outOfRange(param, value, min, max, false)
  },
  /** A token limit: an integer of at least `min`. */
  tokenLimit(param: string, value: unknown, min: number): Violation | undefined {
    if (value === undefined || value === null) return undefined
    if (typeof value !== 'number' || !Number.isInteger(value)) return openai.invalidType(param, 'an integer', value)
    return openai.outOfRange(param, value, min, Number.MAX_SAFE_INTEGER, true)
  },
  boolean(param: string, value: unknown): Violation | undefined {
    if (value === undefined || value === null || typeof value === 'boolean') return undefined
    return openai.invalidType(param, 'a boolean', value)
  },
}

/** `'a', 'b', and 'c'`, as OpenAI lists supported values. */
function listOf(values: readonly string[]): string {
  const quoted = values.map((value) => `'${value}'`)
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`
}

/** The wording of Anthropic's validation errors (pydantic's: `field.path: Input should be …`). */
export const anthropic = {
  at: (param: string, text: string): Violation => violation(`${param}: ${text}`, param),
  missing: (param: string): Violation => anthropic.at(param, 'Field required'),
  /** A `kind` check: `string`, `boolean`, `list`, `dictionary`, `integer`, `number`. */
  expect(param: string, value: unknown, kind: 'string' | 'boolean' | 'list' | 'dictionary' | 'integer' | 'number'): Violation | undefined {
    const ok = {
      string: typeof value === 'string',
      boolean: typeof value === 'boolean',
      list: Array.isArray(value),
      dictionary: objectOf(value) !== undefined,
      integer: typeof value === 'number' && Number.isInteger(value),
      number: typeof value === 'number' && Number.isFinite(value),
    }[kind]
    return ok ? undefined : anthropic.at(param, `Input should be a valid ${kind}`)
  },
}
