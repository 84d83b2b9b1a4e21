/**
 * One model response of a realtime session (OpenAI Realtime, Gemini Live), served as the HTTP
 * hot path serves one request: the same checks and planned refusals and provider errors
 * (SPEC §5.3, §10.2), the same brain (its per-identity session), tool-call ids in the wire's
 * format, the same record in `proxy.requests` with the final response noted by `BrainEvents`.
 * @module
 */
import type { LLM, ModelRequest, StreamEvent, StreamOptions } from '../../llm/types.js'
import { handOver } from '../../llm/helpers.js'
import { eventsAtOnce, type MaybeAtOnce } from '../../llm/stream-events.js'
import { isProviderError } from '../../provider-errors.js'
import { isProxyError } from '../../gateway/proxy-error.js'
import { BrainEvents } from '../brain-events.js'
import { checkModelRequestDetail } from '../../gateway/checks.js'
import { LLM_ERROR_PREFIX, type StreamEncoder } from '../../wire/dialect.js'
import type { ProxyState } from '../handle-request.js'
import { openaiProviderError } from '../../wire/openai-chat/errors.js'
import { refusalCodes } from '../../gateway/refusal-codes.js'
import type { Dialect, FakeRequest, Identity } from '../types.js'
import type { WireIdKind } from '../../wire/wire-ids.js'
import { toolCallIdRenamer } from '../../wire/tool-call-ids.js'
import { utf8Bytes } from '../../internal/bytes.js'
import { loopShare } from './loop-share.js'

/** Why a turn was not answered, in words a wire's `error` event carries. */
export interface TurnFailure {
  /** The HTTP status the same failure has over HTTP. */
  status: number
  type: string
  code: string | null
  message: string
}

/** What a turn is made of. */
export interface TurnInput {
  state: ProxyState
  identity: Identity
  dialect: Dialect
  session: string
  path: string
  headers: Record<string, string>
  /** The client event that asked for the response (its JSON is the record's body). */
  event: Record<string, unknown>
  /** The event's bytes as the client sent them, when it did (else its JSON is made). */
  eventBytes?: Uint8Array | undefined
  request: ModelRequest
}

/** The record of a turn, as `proxy.requests` lists it: the conversation at the time it was asked. */
export function turnRecord(input: TurnInput): FakeRequest {
  return {
    lane: input.state.lane,
    method: 'GET',
    path: input.path,
    agent: input.identity.agent,
    definitionCid: input.identity.definitionCid,
    subagent: input.identity.subagent,
    headers: input.headers,
    body: input.eventBytes ?? utf8Bytes(JSON.stringify(input.event)),
    json: input.event,
    dialect: input.dialect,
    model: input.request.model === '' ? undefined : input.request.model,
    stream: true,
    request: input.request,
    session: input.session,
  }
}

/**
 * Checks the turn as the hot path checks a request (identity, pending refusals, planned provider
 * errors) and records it: a refusal in `refusals`, a provider error as a request with its status
 * and error, a turn that may go ahead in `requests`. Returns the failure, if any.
 */
export function admitTurn(input: TurnInput, record: FakeRequest): TurnFailure | undefined {
  const { state } = input
  const failed = checkModelRequestDetail({ identity: input.identity, book: state.book, strict: state.strict, features: state.features, needs: [] })
  const refusal = failed ?? takePending(state.pendingRefusals)
  if (refusal) {
    const { status } = refusalCodes[refusal.code]
    state.refusals.push({ code: refusal.code, status, request: record })
    return { status, type: 'invalid_request_error', code: refusal.code, message: refusal.message ?? refusalCodes[refusal.code].meaning }
  }
  const planned = takePending(state.pendingProviderErrors)
  if (planned && planned.name !== 'timeout') {
    // Realtime sessions report errors in OpenAI's words (Gemini Live closes with them as the reason).
    const answer = openaiProviderError(planned.name, { dialect: 'openai-responses', message: planned.message, retryAfterS: planned.retryAfterS, model: record.model, requestId: `req_${state.nextId()}`, now: Math.floor(Date.now() / 1000) })
    state.requests.push({ ...record, status: answer.status, error: answer.error })
    return { status: answer.status, type: answer.error.type, code: answer.error.code ?? null, message: answer.error.message }
  }
  state.requests.push(record)
  return undefined
}

/** The brain answering `identity` on `state`: its per-caller session where it has them. */
export function brainFor(state: ProxyState, identity: Identity): LLM {
  const llm = state.brain()
  return llm.session?.(`${identity.agent ?? ''}/${identity.subagent ?? ''}`) ?? llm
}

/** How {@link pumpTurn} hands events out and learns to stop. */
export interface PumpOptions {
  /** Takes each event (renamed, one `finish` at the end). */
  encode: StreamEncoder
  record: FakeRequest
  /** The wire's tool-call id format; without it the brain's ids are kept. */
  toolCallIds?: WireIdKind
  /** Cancelled when the response is cancelled or the session ends. */
  cancel: TurnCancel
  /** A promise while the client has fallen behind: waited for before the next event. */
  room(): Promise<void> | undefined
  /**
   * Text deltas longer than this many characters are passed in pieces of it, with a wait for
   * room between them: set where text becomes speech, whose bytes grow a hundredfold.
   */
  maxDeltaChars?: number
}

/**
 * Feeds `brain`'s answer to `request` to `options.encode` until it ends or the turn is cancelled.
 * A brain whose events are all known passes them without an `await` each. Rejects with the
 * brain's error (see {@link turnFailureOf}). The request is handed over to the brain (it was made
 * for this turn alone and is never changed), so a double records it without copying it.
 */
export async function pumpTurn(brain: LLM, request: ModelRequest, options: PumpOptions): Promise<void> {
  const { cancel } = options
  const rename = options.toolCallIds ? renamerFor(options.toolCallIds) : keepId
  // The turn's cancellation is the stream's options: its `signal` is made only if the brain reads it.
  const stream = brain.stream(handOver(request), cancel) as AsyncIterable<StreamEvent> & MaybeAtOnce
  // An `await` only where the client has fallen behind: a turn whose events are all known is
  // encoded in one go, as a bare server would send it.
  if (stream[eventsAtOnce]) {
    const all = await stream[eventsAtOnce]()
    const events = new BrainEvents(options.encode, { model: request.model, rename, record: options.record, endsWithFinish: true })
    for (let step = all.next(); !step.done; step = all.next()) {
      const event = step.value
      if (options.maxDeltaChars !== undefined && event.type === 'text-delta' && event.text.length > options.maxDeltaChars) {
        if (!(await passInPieces(event.text, options.maxDeltaChars, events, options))) return void all.return?.()
        continue
      }
      if (cancel.cancelled || !events.pass(event)) return void all.return?.()
      const room = options.room()
      if (room) await room
    }
    if (!cancel.cancelled) events.end()
    return
  }
  const events = new BrainEvents(options.encode, { model: request.model, rename, record: options.record })
  for await (const event of stream) {
    if (options.maxDeltaChars !== undefined && event.type === 'text-delta' && event.text.length > options.maxDeltaChars) {
      if (!(await passInPieces(event.text, options.maxDeltaChars, events, options))) return
      continue
    }
    if (cancel.cancelled || !events.pass(event)) return
    const room = options.room()
    if (room) await room
  }
  if (!cancel.cancelled) events.end()
}

/** Passes a long text delta in pieces of `size` characters, waiting for room between them; `false` once the turn is over. */
async function passInPieces(text: string, size: number, events: BrainEvents, options: PumpOptions): Promise<boolean> {
  for (let at = 0; at < text.length; at += size) {
    // A surrogate pair is never split.
    let end = Math.min(at + size, text.length)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++
    if (options.cancel.cancelled || !events.pass({ type: 'text-delta', text: text.slice(at, end) })) return false
    at = end - size
    const room = options.room()
    if (room) await room
    // A client that reads as fast as this writes could take the whole answer in one turn of the
    // event loop: past the WebSocket slice of this turn, the rest waits for the next.
    if (!loopShare.admit()) await loopShare.later()
  }
  return true
}

const keepId = (id: string): string => id
/** One renamer per id format, made once rather than per turn. */
const renamers = new Map<WireIdKind, (id: string) => string>()

function renamerFor(kind: WireIdKind): (id: string) => string {
  let rename = renamers.get(kind)
  if (!rename) renamers.set(kind, (rename = toolCallIdRenamer(kind)))
  return rename
}

/**
 * A turn's cancellation (`response.cancel`, speech started, the session ending): a flag the pump
 * reads between events, and an `AbortSignal` made only when the brain asks for one (a scripted
 * answer never does), since a signal costs a turn more than its events. It is the options object
 * `brain.stream` is called with.
 */
export class TurnCancel implements StreamOptions {
  #controller: AbortController | undefined
  #cancelled = false

  /** Whether the turn was cancelled. */
  get cancelled(): boolean {
    return this.#cancelled
  }

  /** Aborted when the turn is cancelled; made on first read. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController()
      if (this.#cancelled) this.#controller.abort()
    }
    return this.#controller.signal
  }

  /** Cancels the turn (once): the pump stops and a brain waiting on the signal is woken. */
  cancel(): void {
    if (this.#cancelled) return
    this.#cancelled = true
    this.#controller?.abort()
  }
}

/** A brain's failure as the `error` event tells it. */
export function turnFailureOf(error: unknown): TurnFailure {
  if (isProxyError(error)) return { status: refusalCodes[error.code].status, type: 'invalid_request_error', code: error.code, message: error.message }
  if (isProviderError(error)) return { status: 500, type: 'server_error', code: error.errorName, message: error.message }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return { status: 500, type: 'server_error', code: 'server_error', message: `${LLM_ERROR_PREFIX} threw: ${message}` }
}

function takePending<T extends { remaining: number }>(pending: T[]): T | undefined {
  const next = pending[0]
  if (!next) return undefined
  if (--next.remaining <= 0) pending.shift()
  return next
}
