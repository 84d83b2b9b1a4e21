/**
 * Replies as scripts write them, checked when they are given and turned into `ModelResponse`s
 * when a call is answered.
 * @module
 */
import type { FinishReason, ModelRequest, ModelResponse, Part, Usage } from './types.js'
import type { ScriptedToolCall } from './helpers.js'
import { argumentError } from '../internal/describe.js'
import { deepCopy } from './helpers.js'
import { isCount, usageFor, type UsageOption } from './usage.js'
import { isMisbehaviour, misbehave, misbehaviourDraft, type Misbehaviour, type MisbehaviourKind } from './misbehave.js'

/** The short form of a reply: any of text, tool calls and reasoning, plus optional overrides. */
export interface ReplyObject {
  text?: string
  toolCalls?: Array<{ name: string; args?: unknown; id?: string }>
  reasoning?: string
  /** Token counts to report; what is left out is estimated (or taken from the `usage` option). */
  usage?: Partial<Usage>
  /** @default 'tool-calls' when the reply calls a tool, else 'stop' */
  finishReason?: FinishReason
}

/** One part of an array reply: text, a {@link toolCall}, or any neutral {@link Part}. */
export type ReplyPart = string | ScriptedToolCall | Part

/**
 * What a script answers for one call: text, a {@link ReplyObject}, a tool call, an array of
 * parts, a full `ModelResponse`, a {@link Misbehaviour} (`misbehave(kind)`), or an `Error` (the
 * call fails with it).
 */
export type Reply = string | ReplyObject | ReplyPart | ReplyPart[] | ModelResponse | Misbehaviour | Error

/**
 * A reply checked and put in neutral form, before the call it answers fills in ids and usage.
 * @internal
 */
export interface ReplyDraft {
  content: Array<Part | ScriptedToolCall>
  finishReason?: FinishReason
  usage?: Partial<Usage>
  model?: string
  id?: string
  /** Set by `misbehave(kind)`: the content is made from the request the reply answers. */
  misbehaviour?: Misbehaviour
}

const OWNER = 'ScriptedLLM'
const REPLY_FORMS =
  'a string, { text?, toolCalls?, reasoning?, usage?, finishReason? }, toolCall(...), an array of those parts, a ModelResponse, misbehave(kind) or an Error'
const FINISH_REASONS: readonly FinishReason[] = ['stop', 'tool-calls', 'length', 'content-filter', 'refusal']
const REPLY_KEYS = new Set(['text', 'toolCalls', 'reasoning', 'usage', 'finishReason'])
const RESPONSE_KEYS = new Set(['content', 'finishReason', 'usage', 'model', 'id'])

/** Whether `value` is an `Error`, also one made in another realm. */
export function isError(value: unknown): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]'
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isError(value)
}

/**
 * Checks a reply the moment it is given and puts it in neutral form; an `Error` reply comes
 * back as itself. `where` names the reply in messages, e.g. `reply for "hello"`.
 * @throws TypeError naming `ScriptedLLM`, `where` and the value when the neutral model cannot carry it.
 * @internal
 */
export function parseReply(value: unknown, where: string): ReplyDraft | Error {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] }
  if (isError(value)) return value
  if (Array.isArray(value)) {
    if (value.length === 0) throw argumentError(OWNER, where, `${REPLY_FORMS} (not empty)`, value)
    return { content: value.map((part, i) => parseArrayPart(part, `${where}[${i}]`)) }
  }
  if (isMisbehaviour(value)) return { content: [], misbehaviour: value }
  if (!isPlainObject(value)) throw argumentError(OWNER, where, REPLY_FORMS, value)
  // `{ "misbehave": kind, …options }`: a misbehaviour as JSON (rules files, the control API).
  if ('misbehave' in value) {
    const { misbehave: kind, ...options } = value
    return { content: [], misbehaviour: misbehave(kind as MisbehaviourKind, options) }
  }
  if ('content' in value) return parseModelResponse(value, where)
  if ('type' in value) return { content: [parsePart(value, where)] }
  return parseReplyObject(value, where)
}

/**
 * Checks a full `ModelResponse` (as a transcript holds it) and puts it in neutral form.
 * @throws TypeError naming `ScriptedLLM`, `where` and the first field in error.
 * @internal
 */
export function parseModelResponse(value: unknown, where: string): ReplyDraft {
  if (!isPlainObject(value)) throw argumentError(OWNER, where, 'a ModelResponse { content, finishReason?, usage? }', value)
  rejectUnknownKeys(value, RESPONSE_KEYS, where)
  const { content, finishReason, usage, model, id } = value
  if (!Array.isArray(content)) throw argumentError(OWNER, `${where}.content`, 'an array of parts', content)
  const draft: ReplyDraft = { content: content.map((part, i) => parsePart(part, `${where}.content[${i}]`)) }
  if (finishReason !== undefined) draft.finishReason = checkFinishReason(finishReason, `${where}.finishReason`)
  if (usage !== undefined) draft.usage = checkUsage(usage, `${where}.usage`)
  if (model !== undefined) draft.model = checkString(model, `${where}.model`)
  if (id !== undefined) draft.id = checkString(id, `${where}.id`)
  return draft
}

function parseReplyObject(value: Record<string, unknown>, where: string): ReplyDraft {
  rejectUnknownKeys(value, REPLY_KEYS, where)
  const { text, toolCalls, reasoning, usage, finishReason } = value
  if (text === undefined && toolCalls === undefined && reasoning === undefined) {
    throw argumentError(OWNER, where, `${REPLY_FORMS} carrying text, toolCalls or reasoning`, value)
  }
  const content: ReplyDraft['content'] = []
  if (reasoning !== undefined) content.push({ type: 'reasoning', text: checkString(reasoning, `${where}.reasoning`) })
  if (text !== undefined) content.push({ type: 'text', text: checkString(text, `${where}.text`) })
  if (toolCalls !== undefined) {
    if (!Array.isArray(toolCalls)) throw argumentError(OWNER, `${where}.toolCalls`, 'an array of { name, args?, id? }', toolCalls)
    toolCalls.forEach((call, i) => content.push(parseToolCall({ type: 'tool-call', ...asObject(call, `${where}.toolCalls[${i}]`) }, `${where}.toolCalls[${i}]`)))
  }
  const draft: ReplyDraft = { content }
  if (finishReason !== undefined) draft.finishReason = checkFinishReason(finishReason, `${where}.finishReason`)
  if (usage !== undefined) draft.usage = checkUsage(usage, `${where}.usage`)
  return draft
}

function parseArrayPart(value: unknown, where: string): Part | ScriptedToolCall {
  if (typeof value === 'string') return { type: 'text', text: value }
  if (!isPlainObject(value) || !('type' in value)) {
    throw argumentError(OWNER, where, 'a string, toolCall(...) or a part { type, ... }', value)
  }
  return parsePart(value, where)
}

/** Checks one neutral part; a tool call's `id` may be missing (the call fills it in). */
function parsePart(value: unknown, where: string): Part | ScriptedToolCall {
  const part = asObject(value, where)
  switch (part.type) {
    case 'text':
    case 'reasoning':
    case 'refusal':
      return { type: part.type, text: checkString(part.text, `${where}.text`) }
    case 'tool-call':
      return parseToolCall(part, where)
    case 'tool-result': {
      const result: Part = { type: 'tool-result', id: checkString(part.id, `${where}.id`), result: part.result }
      if (part.name !== undefined) result.name = checkString(part.name, `${where}.name`)
      if (part.isError !== undefined) {
        if (typeof part.isError !== 'boolean') throw argumentError(OWNER, `${where}.isError`, 'a boolean', part.isError)
        result.isError = part.isError
      }
      return result
    }
    case 'image': {
      const image: Part = { type: 'image' }
      for (const key of ['mediaType', 'url', 'data'] as const) {
        if (part[key] !== undefined) image[key] = checkString(part[key], `${where}.${key}`)
      }
      if (image.url === undefined && image.data === undefined) {
        throw argumentError(OWNER, where, 'an image with url or data', value)
      }
      return image
    }
    default:
      throw argumentError(OWNER, `${where}.type`, "'text', 'tool-call', 'tool-result', 'reasoning', 'refusal' or 'image'", part.type)
  }
}

function parseToolCall(part: Record<string, unknown>, where: string): ScriptedToolCall {
  const call: ScriptedToolCall = { type: 'tool-call', name: checkString(part.name, `${where}.name`), args: part.args ?? {} }
  if (call.name === '') throw argumentError(OWNER, `${where}.name`, 'a non-empty string', part.name)
  if (part.id !== undefined) call.id = checkString(part.id, `${where}.id`)
  if (part.argsText !== undefined) call.argsText = checkString(part.argsText, `${where}.argsText`)
  if (typeof call.args === 'function' || typeof call.args === 'symbol' || typeof call.args === 'bigint') {
    throw argumentError(OWNER, `${where}.args`, 'a JSON value', call.args)
  }
  return call
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw argumentError(OWNER, where, 'an object', value)
  return value
}

function rejectUnknownKeys(value: Record<string, unknown>, known: Set<string>, where: string): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) throw argumentError(OWNER, `${where} (key ${JSON.stringify(key)})`, `one of ${[...known].join(', ')}`, key)
  }
}

function checkString(value: unknown, where: string): string {
  if (typeof value !== 'string') throw argumentError(OWNER, where, 'a string', value)
  return value
}

function checkFinishReason(value: unknown, where: string): FinishReason {
  if (!FINISH_REASONS.includes(value as FinishReason)) {
    throw argumentError(OWNER, where, FINISH_REASONS.map((r) => `'${r}'`).join(', '), value)
  }
  return value as FinishReason
}

function checkUsage(value: unknown, where: string): Partial<Usage> {
  const usage = asObject(value, where)
  for (const key of Object.keys(usage)) {
    if (key !== 'inputTokens' && key !== 'outputTokens') throw argumentError(OWNER, `${where}.${key}`, 'inputTokens or outputTokens', key)
    if (usage[key] !== undefined && !isCount(usage[key])) throw argumentError(OWNER, `${where}.${key}`, 'a non-negative integer', usage[key])
  }
  return usage as Partial<Usage>
}

/** What a call contributes to the answer it completes. @internal */
export interface AnswerContext {
  req: ModelRequest
  /** 1-based number of the call, used for generated tool call ids. */
  callNumber: number
  usage: UsageOption
  model: string
}

/**
 * The `ModelResponse` a draft gives for one call: a fresh copy (callers may mutate it), tool
 * calls without ids numbered `call_<call>_<n>`, `finishReason` and usage filled in.
 * @internal
 */
export function completeReply(draft: ReplyDraft, context: AnswerContext): ModelResponse {
  if (draft.misbehaviour) {
    const made = misbehaviourDraft(draft.misbehaviour, context.req, context.callNumber)
    draft = { ...draft, content: made.content, finishReason: draft.finishReason ?? made.finishReason, misbehaviour: undefined }
  }
  let toolCalls = 0
  const content: Part[] = draft.content.map((scripted) => {
    const part = copyPart(scripted)
    if (part.type !== 'tool-call') return part as Part
    toolCalls++
    const call: Part = { type: 'tool-call', id: part.id ?? `call_${context.callNumber}_${toolCalls}`, name: part.name, args: part.args }
    if (part.argsText !== undefined) call.argsText = part.argsText
    return call
  })
  const response: ModelResponse = {
    content,
    finishReason: draft.finishReason ?? (toolCalls > 0 ? 'tool-calls' : 'stop'),
    usage: usageFor(context.usage, context.req, content, draft.usage),
    model: draft.model ?? context.model,
  }
  if (draft.id !== undefined) response.id = draft.id
  return response
}

/**
 * A copy of a scripted part the response may own: a part of primitives only (text, reasoning)
 * by a spread, which costs a fraction of `structuredClone`; others deeply.
 */
function copyPart(part: ReplyDraft['content'][number]): ReplyDraft['content'][number] {
  for (const key in part) {
    const value = (part as Record<string, unknown>)[key]
    if (typeof value === 'object' && value !== null) return deepCopy(part)
  }
  return { ...part }
}

/** A one-line description of a draft, for listing unconsumed turns. @internal */
export function describeDraft(draft: ReplyDraft | Error): string {
  if (isError(draft)) return `error: ${draft.message}`
  if (draft.misbehaviour) return `misbehave(${JSON.stringify(draft.misbehaviour.kind)})`
  const text = draft.content
    .map((part) => {
      if (part.type === 'text') return JSON.stringify(part.text.length > 60 ? `${part.text.slice(0, 57)}...` : part.text)
      if (part.type === 'tool-call') return `toolCall(${part.name}, ${JSON.stringify(part.args) ?? ''})`
      return part.type
    })
    .join(' + ')
  return text || '(no content)'
}
