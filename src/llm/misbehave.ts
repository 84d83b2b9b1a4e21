/**
 * Model misbehaviour (SPEC §19): what models do on a bad day — arguments that are not JSON,
 * arguments that break the schema, a tool never offered, duplicate call ids, an answer cut
 * short, an empty answer, a refusal, a filtered finish, reasoning with no answer, text that
 * ignores the requested format — as neutral answers. `misbehave(kind)` is a reply; the answer
 * is made from the request it answers (the tools offered, the format asked for), and each
 * dialect renders it as its provider sends that case.
 * @module
 */
import type { FinishReason, ModelRequest, Part, ToolDefinition } from './types.js'
import type { ScriptedToolCall } from './helpers.js'
import { PREFIX, checkOptions, describeValue, is } from '../internal/describe.js'
import { valueFor } from '../server/schema-values.js'

/**
 * Every misbehaviour a model double can answer with.
 * @example
 * test.each(misbehaviourKinds)('the agent survives %s', async (kind) => { proxy.misbehave(kind) })
 */
export const misbehaviourKinds = Object.freeze([
  'invalid_tool_args',
  'schema_violation',
  'unknown_tool',
  'duplicate_tool_ids',
  'truncated',
  'empty',
  'refusal',
  'content_filter',
  'reasoning_only',
  'wrong_language',
  'off_format',
] as const)

/**
 * The name of a misbehaviour, such as `'invalid_tool_args'`.
 * @example
 * const kind: MisbehaviourKind = 'refusal'
 */
export type MisbehaviourKind = (typeof misbehaviourKinds)[number]

/**
 * What a misbehaviour says beyond its kind.
 * @example
 * misbehave('truncated', { at: 'tool-call', tool: 'get_weather' })
 */
export interface MisbehaveOptions {
  /** `truncated`: where the answer is cut, in its text or in a tool call's arguments. @default 'text' */
  at?: 'text' | 'tool-call'
  /**
   * The words of the answer: the refusal (`refusal`), the reasoning (`reasoning_only`), the text
   * that ignores the format (`wrong_language`, `off_format`), the text cut short (`truncated`).
   * @default words of the kind's own
   */
  text?: string
  /**
   * The tool the calls name: for `unknown_tool` the name that was never offered (default
   * `search_web`, or a variant of it not offered); for the others, an offered one (default the
   * first offered).
   */
  tool?: string
}

/** The brand every `Misbehaviour` carries, shared by the ESM and CJS copies. */
const BRAND = Symbol.for('agent-doubles.misbehaviour')

/**
 * A misbehaviour as a value: a reply that makes the model answer as a model does on a bad day.
 * Made by {@link misbehave}.
 * @example
 * const bad = misbehave('refusal') // bad.kind === 'refusal'
 */
export interface Misbehaviour {
  readonly kind: MisbehaviourKind
  readonly options: Readonly<MisbehaveOptions>
}

/** Whether `value` names a misbehaviour. @internal */
export function isMisbehaviourKind(value: unknown): value is MisbehaviourKind {
  return typeof value === 'string' && (misbehaviourKinds as readonly string[]).includes(value)
}

/**
 * Checks a misbehaviour's kind and options for `owner` (e.g. `FakeProxy misbehave()`); `extra`
 * names options the caller accepts besides (such as `times`).
 * @throws {TypeError} the kind is unknown (the message lists the valid ones) or an option is bad.
 * @internal
 */
export function checkMisbehave(owner: string, kind: unknown, options: unknown, extra: Parameters<typeof checkOptions>[2] = {}): void {
  if (!isMisbehaviourKind(kind)) {
    throw new TypeError(`${PREFIX} ${owner}: unknown misbehaviour ${describeValue(kind)}; valid kinds: ${misbehaviourKinds.join(', ')}`)
  }
  checkOptions(owner, options, {
    at: ["'text' or 'tool-call'", (value) => value === 'text' || value === 'tool-call'],
    text: ['a string', is.string],
    tool: ['a non-empty string', (value) => typeof value === 'string' && value !== ''],
    ...extra,
  })
}

/**
 * A reply that makes the model misbehave as `kind` says, answering the request it gets (the
 * tools it offers, the format it asks for). Usable wherever a script takes a reply; in rules
 * files and the control API, write it `{ "misbehave": "<kind>", …options }`.
 * @example
 * const llm = scriptedLLM([misbehave('invalid_tool_args'), toolCall('get_weather', { city: 'Paris' }), 'Sunny.'])
 * @throws {TypeError} `kind` is unknown (the message lists the valid ones) or an option is bad.
 */
export function misbehave(kind: MisbehaviourKind, options: MisbehaveOptions = {}): Misbehaviour {
  checkMisbehave('misbehave()', kind, options)
  const value: Misbehaviour = { kind, options: Object.freeze({ ...options }) }
  Object.defineProperty(value, BRAND, { value: true })
  return Object.freeze(value)
}

/**
 * Whether `value` is a {@link Misbehaviour} from any copy of this package.
 * @example
 * isMisbehaviour(misbehave('empty')) // true
 */
export function isMisbehaviour(value: unknown): value is Misbehaviour {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true
}

/** A misbehaving answer in neutral form, before its call fills in usage. @internal */
export interface MisbehaviourDraft {
  content: Array<Part | ScriptedToolCall>
  finishReason: FinishReason
}

const WORDS = {
  refusal: "I'm sorry, but I can't help with that request.",
  reasoning: 'The user wants an answer. I should call a tool first, or maybe answer directly. Let me think about which',
  truncated: 'Here is a detailed answer to your question. First, the most important point is that the result depends on',
  wrong_language: 'Voici la réponse à votre question : tout fonctionne comme prévu, merci de votre patience.',
  off_format: 'Sure! Here is what you asked for: everything looks fine, and the answer is yes.',
} as const

/**
 * The answer `misbehaviour` gives to `req`. `callNumber` numbers the call, for the shared id of
 * `duplicate_tool_ids` (in the generated-id form the dialects rename to their own format).
 * @internal
 */
export function misbehaviourDraft(misbehaviour: Misbehaviour, req: ModelRequest, callNumber: number): MisbehaviourDraft {
  const { kind, options } = misbehaviour
  const tool = offeredTool(req, options.tool)
  switch (kind) {
    case 'invalid_tool_args': {
      // The classic: a Python-style dict, single quotes where JSON wants double ones.
      const raw = (JSON.stringify(validArgs(tool)) ?? '{}').replace(/"/g, "'")
      const text = raw === '{}' ? "{'input': 'value'" : raw
      return { content: [{ type: 'tool-call', name: tool.name, args: text, argsText: text }], finishReason: 'tool-calls' }
    }
    case 'schema_violation':
      return { content: [{ type: 'tool-call', name: tool.name, args: violating(tool.parameters) }], finishReason: 'tool-calls' }
    case 'unknown_tool':
      return { content: [{ type: 'tool-call', name: unknownToolName(req, options.tool), args: {} }], finishReason: 'tool-calls' }
    case 'duplicate_tool_ids': {
      const id = `call_${callNumber}_1`
      const args = validArgs(tool)
      return {
        content: [
          { type: 'tool-call', id, name: tool.name, args },
          { type: 'tool-call', id, name: tool.name, args: structuredClone(args) },
        ],
        finishReason: 'tool-calls',
      }
    }
    case 'truncated': {
      if (options.at === 'tool-call') {
        const args = validArgs(tool)
        const json = JSON.stringify(args) ?? '{}'
        const cut = json.length > 2 ? json.slice(0, Math.ceil(json.length / 2)) : '{"'
        return { content: [{ type: 'tool-call', name: tool.name, args: cut, argsText: cut }], finishReason: 'length' }
      }
      const text = options.text ?? WORDS.truncated
      return { content: [{ type: 'text', text }], finishReason: 'length' }
    }
    case 'empty':
      return { content: [], finishReason: 'stop' }
    case 'refusal':
      return { content: [{ type: 'refusal', text: options.text ?? WORDS.refusal }], finishReason: 'refusal' }
    case 'content_filter':
      return { content: [], finishReason: 'content-filter' }
    case 'reasoning_only':
      return { content: [{ type: 'reasoning', text: options.text ?? WORDS.reasoning }], finishReason: 'stop' }
    case 'wrong_language':
      return { content: [{ type: 'text', text: options.text ?? WORDS.wrong_language }], finishReason: 'stop' }
    case 'off_format':
      return { content: [{ type: 'text', text: options.text ?? WORDS.off_format }], finishReason: 'stop' }
  }
}

/** The offered tool the calls name: `name` when given, else the first offered, else a stand-in. */
function offeredTool(req: ModelRequest, name: string | undefined): ToolDefinition {
  const tools = Array.isArray(req.tools) ? req.tools : []
  const found = name === undefined ? tools[0] : tools.find((tool) => tool.name === name)
  return found ?? { name: name ?? 'lookup', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }
}

/** A name no offered tool has. */
function unknownToolName(req: ModelRequest, wanted: string | undefined): string {
  if (wanted !== undefined) return wanted
  const offered = new Set((req.tools ?? []).map((tool) => tool.name))
  let name = 'search_web'
  for (let n = 2; offered.has(name); n++) name = `search_web_${n}`
  return name
}

/** Arguments the tool's schema accepts (its smallest value), `{}` when none can be made. */
function validArgs(tool: ToolDefinition): unknown {
  try {
    const value = valueFor(tool.parameters ?? {})
    return value !== null && typeof value === 'object' ? value : {}
  } catch {
    return {}
  }
}

/**
 * JSON the schema rejects: each property of the wrong type, and required ones left out when
 * there are no properties to get wrong; a schema with neither gets an array, not an object.
 */
function violating(schema: unknown): unknown {
  const properties = objectOf(objectOf(schema).properties)
  const names = Object.keys(properties)
  if (names.length === 0) return [42]
  const args: Record<string, unknown> = {}
  for (const name of names) args[name] = wrongValue(objectOf(properties[name]).type)
  return args
}

function wrongValue(type: unknown): unknown {
  const first = Array.isArray(type) ? type[0] : type
  if (first === 'string') return 12345
  if (first === 'number' || first === 'integer') return 'not a number'
  if (first === 'boolean') return 'yes'
  if (first === 'array') return 'not a list'
  if (first === 'object') return 'not an object'
  return { unexpected: true }
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}
