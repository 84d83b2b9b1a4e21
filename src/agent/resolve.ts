/**
 * How a MockAgent turns its `responses` into one value per call (SPEC §3 resolution rules),
 * and how that value becomes the envelope the call returns.
 * @module
 */

import { PREFIX, describeValue } from '../internal/describe.js'
import { Envelope, envelopeFields, isError } from './envelope.js'
import { ErrorInfo } from './error-info.js'

/** The map key that matches any task. */
export const CATCH_ALL = '*'

/** What resolution needs to know and remember between calls. @internal */
export interface ResolveState {
  /** How errors name the agent, e.g. `MockAgent "researcher"`. */
  readonly owner: string
  /** Whether a list wraps around when it runs out. */
  readonly cycle: boolean
  /** The next list index; `reset()` sets it back to 0. */
  cursor: number
}

/** The metadata a mock puts on the envelopes it builds. @internal */
export interface EnvelopeDefaults {
  inputTokens: number
  outputTokens: number
  costUsd: number
  /** Fixed latency; `undefined` means "use the measured time". */
  latencyMs: number | undefined
  model: string
  provider: string
}

/**
 * The value for one call, by the rules in order: a function is called with the input envelope
 * (its result is a value, never matched again); a plain object is a map of task substrings; an
 * array gives one value per call; anything else is the value for every call.
 * @throws {Error} on a map miss without `'*'`, an empty array, or an exhausted array without `cycle`.
 */
export async function resolveResponse(responses: unknown, input: Envelope, state: ResolveState): Promise<unknown> {
  if (typeof responses === 'function') return await (responses as (env: Envelope) => unknown)(input)
  if (isPlainObject(responses)) return matchTask(responses, input.task ?? '', state.owner)
  if (Array.isArray(responses)) return nextInList(responses, state)
  return responses
}

/**
 * The envelope a resolved value becomes: an `Envelope` verbatim (only an undefined `task` or
 * `context` is filled from the input), an `ErrorInfo` as an error envelope with no tokens or
 * cost, any other value as the payload with the defaults.
 * @throws the value itself when it is an `Error`, so the call rejects with it.
 */
export function valueToEnvelope(
  value: unknown,
  input: Envelope,
  defaults: EnvelopeDefaults,
  measuredMs: number,
): Envelope {
  if (value instanceof Envelope) {
    if (value.task !== undefined && value.context !== undefined) return value
    return new Envelope({
      ...envelopeFields(value),
      task: value.task ?? input.task,
      context: value.context ?? input.context,
    })
  }
  const metadata = {
    inputTokens: defaults.inputTokens,
    outputTokens: defaults.outputTokens,
    costUsd: defaults.costUsd,
    latencyMs: defaults.latencyMs ?? measuredMs,
    model: defaults.model,
    provider: defaults.provider,
  }
  if (value instanceof ErrorInfo) {
    // A failed run consumed nothing billable, but it still took time on some model.
    return new Envelope({
      task: input.task,
      context: input.context,
      error: value,
      metadata: { ...metadata, inputTokens: 0, outputTokens: 0, costUsd: 0 },
    })
  }
  if (isError(value)) throw value
  return new Envelope({ task: input.task, context: input.context, payload: value, metadata })
}

/** True for `{...}` literals and `Object.create(null)`; false for arrays, class instances, functions. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * The value of the first key that is a substring of `task` (insertion order), else the `'*'`
 * value. FakeMcpServer matches on the JSON of a call's arguments, naming it `subject`.
 * @throws {Error} naming `owner`, the text and the keys when nothing matches and there is no `'*'`.
 */
export function matchTask(map: Record<string, unknown>, task: string, owner: string, subject = 'task'): unknown {
  // Object key order is insertion order (except integer-like keys, which JavaScript puts first);
  // '*' is skipped so it only catches what no other key matched, wherever it was written.
  const keys = Object.keys(map).filter((key) => key !== CATCH_ALL)
  for (const key of keys) {
    if (task.includes(key)) return map[key]
  }
  if (Object.hasOwn(map, CATCH_ALL)) return map[CATCH_ALL]
  const listed = keys.length > 0 ? keys.map((key) => JSON.stringify(key)).join(', ') : '(none)'
  throw new Error(
    `${PREFIX} ${owner}: ${subject} ${describeValue(task)} matched no response key (keys: ${listed}) ` +
      `and there is no '*' catch-all`,
  )
}

/**
 * The list's value at the cursor, moving the cursor on; wraps when `state.cycle`.
 * @throws {Error} naming the owner when the list is empty or exhausted without `cycle`.
 */
export function nextInList(list: readonly unknown[], state: ResolveState): unknown {
  if (list.length === 0) throw new Error(`${PREFIX} ${state.owner}: the responses list is empty`)
  if (state.cursor >= list.length) {
    if (!state.cycle) {
      throw new Error(
        `${PREFIX} ${state.owner}: responses exhausted after ${list.length} ` +
          `${list.length === 1 ? 'call' : 'calls'} (pass cycle: true to wrap around)`,
      )
    }
    state.cursor = 0
  }
  return list[state.cursor++]
}
